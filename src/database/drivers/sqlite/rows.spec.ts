import BetterSqlite3 from 'better-sqlite3';
import { NATIVE_ROWS, readRows } from './rows';

describe('readRows', () => {
  const db = new BetterSqlite3(':memory:');
  afterAll(() => db.close());
  type Rows = Record<string, unknown>[];
  const both = (sql: string, ...values: unknown[]): [Rows, Rows] => [
    readRows(db.prepare(sql), values),
    db.prepare(sql).all(...values) as Rows,
  ];

  it("gives better-sqlite3's own objects: names, order, types, a repeated name's last value", () => {
    const sql = `SELECT 1 AS a, 'x' AS "b c", NULL AS d, 2.5 AS a, X'00ff' AS "e""f", ? AS p`;
    const [ours, theirs] = both(sql, 'param');
    expect(ours).toEqual(theirs);
    expect(Object.keys(ours[0])).toEqual(Object.keys(theirs[0]));
    expect(ours[0]).toEqual({ a: 2.5, 'b c': 'x', d: null, 'e"f': Buffer.from([0, 255]), p: 'param' });
  });

  it('a column named __proto__ is left to better-sqlite3 (a literal would set the prototype from it)', () => {
    const [ours, theirs] = both(`SELECT 5 AS "__proto__", 1 AS x`);
    expect(Object.getPrototypeOf(ours[0])).toBe(Object.getPrototypeOf(theirs[0]));
    expect(Object.keys(ours[0])).toEqual(Object.keys(theirs[0]));
    expect(ours).toEqual(theirs);
  });

  it('names that are not identifiers, and many rows of one statement', () => {
    db.exec(`CREATE TABLE t ("select" INTEGER, "}; throw 1; //" TEXT, "\\u2028" TEXT)`);
    const insert = db.prepare('INSERT INTO t VALUES (?, ?, ?)');
    for (let i = 0; i < 50; i++) insert.run(i, `v${i}`, '\u2028');
    const statement = db.prepare('SELECT * FROM t ORDER BY 1');
    const first = readRows(statement, []);
    expect(readRows(statement, [])).toEqual(first);
    expect(first).toEqual(db.prepare('SELECT * FROM t ORDER BY 1').all());
    expect(first).toHaveLength(50);
  });

  it('a statement marked NATIVE_ROWS keeps better-sqlite3 building its rows (no raw mode, no literal)', () => {
    const statement = db.prepare(`${NATIVE_ROWS} SELECT 1 AS a, 'x' AS b`);
    const raw = jest.spyOn(statement, 'raw');
    expect(readRows(statement, [])).toEqual([{ a: 1, b: 'x' }]);
    expect(raw).not.toHaveBeenCalled();
    expect(statement.reader).toBe(true);
    const marked = db.prepare(`SELECT 1 AS a`);
    const toggled = jest.spyOn(marked, 'raw');
    readRows(marked, []);
    expect(toggled).toHaveBeenCalledWith(true);
  });
});
