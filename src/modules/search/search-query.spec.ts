import {
  MAX_QUERY_WORDS,
  fold,
  isEmptyQuery,
  parseSearchQuery,
  queryWords,
  toFts5,
  toInnoDbBoolean,
} from './search-query';

describe('search-query', () => {
  it('folds case and accents', () => {
    expect(fold('Résumé ÉCRAN Ñandú')).toBe('resume ecran nandu');
  });

  it('splits words and quoted phrases, dropping operators and punctuation', () => {
    expect(parseSearchQuery('iPhone 6 "battery connector" +screen -glass*')).toEqual({
      terms: ['iphone', '6', 'screen', 'glass'],
      phrases: [['battery', 'connector']],
    });
    expect(parseSearchQuery(`NEAR(a b) 'x' {title}: c; DROP--`)).toEqual({
      terms: ['near', 'a', 'b', 'x', 'title', 'c', 'drop'],
      phrases: [],
    });
  });

  it('runs an unclosed quote to the end and ignores empty phrases and repeats', () => {
    expect(parseSearchQuery('fan "" fan "hinge cover')).toEqual({ terms: ['fan'], phrases: [['hinge', 'cover']] });
  });

  it('knows a query with nothing to search', () => {
    expect(isEmptyQuery(parseSearchQuery(`"*" - + ( ) ' ;`))).toBe(true);
    expect(isEmptyQuery(parseSearchQuery('a'))).toBe(false);
  });

  it(`keeps at most ${MAX_QUERY_WORDS} words`, () => {
    const query = parseSearchQuery(Array.from({ length: 30 }, (_, i) => `w${i}`).join(' '));
    expect(query.terms).toHaveLength(MAX_QUERY_WORDS);
    expect(queryWords(parseSearchQuery('a "b c"'))).toEqual(['a', 'b', 'c']);
  });

  it('builds FTS5 expressions of quoted strings only', () => {
    const query = parseSearchQuery('batt "battery connector" near');
    expect(toFts5(query)).toBe('"batt"* AND "near"* AND "battery connector"');
    expect(toFts5(query, 'title')).toBe('{title} : ("batt"* AND "near"* AND "battery connector")');
    expect(toFts5(parseSearchQuery('"cell"'))).toBe('"cell"');
  });

  it('builds InnoDB boolean strings without stopwords, short words optional', () => {
    expect(toInnoDbBoolean(parseSearchQuery('the iPhone 6 battery'))).toBe('+iphone* 6* +battery*');
    expect(toInnoDbBoolean(parseSearchQuery('ip'))).toBe('+ip*');
    expect(toInnoDbBoolean(parseSearchQuery('"battery of the phone"'))).toBe('+"battery of the phone"');
    expect(toInnoDbBoolean(parseSearchQuery('the "of the"'))).toBeNull();
  });
});
