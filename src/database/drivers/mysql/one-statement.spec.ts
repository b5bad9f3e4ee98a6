import { assertOneStatement } from './one-statement';

describe('assertOneStatement (the MySQL runner sends one statement per caller query)', () => {
  it.each([
    'SELECT 1',
    'SELECT 1;',
    'SELECT 1 ;  \n',
    "SELECT ';' AS a",
    'SELECT "a;b" AS a',
    'SELECT `odd;name` FROM t',
    "SELECT 'it''s; fine' AS a",
    "SELECT 'escaped \\'; still quoted' AS a",
    'SELECT 1 -- a comment; with a semicolon',
    'SELECT 1 # a comment; too',
    'SELECT /* a; b */ 1',
  ])('accepts %j', (sql) => {
    expect(() => assertOneStatement(sql)).not.toThrow();
  });

  it.each([
    'SELECT 1; SELECT 2',
    "SELECT 'a'; DROP TABLE users",
    "SELECT * FROM t WHERE a = ''; DELETE FROM t; -- '",
    'SELECT 1 -- comment\n; SELECT 2',
    'SELECT /* c */ 1; SELECT 2',
    "SELECT 'a backslash \\\\'; SELECT 2",
  ])('refuses %j', (sql) => {
    expect(() => assertOneStatement(sql)).toThrow('One SQL statement per query');
  });
});
