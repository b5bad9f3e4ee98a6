import { parseWikiText } from './wiki-parser';
import { wikiTextFromDoc } from './wiki-serializer';
import { REPAIR_TEXTS } from './test-support/repair-texts';

const roundTrip = (raw: string): string => wikiTextFromDoc(parseWikiText(raw));

describe('raw -> tree -> raw on realistic repair texts', () => {
  it('has a corpus of at least 20 texts', () => {
    expect(REPAIR_TEXTS.length).toBeGreaterThanOrEqual(20);
  });

  it.each(REPAIR_TEXTS.map((text) => [text]))('is the identity on canonical text: %j', (text) => {
    expect(roundTrip(text)).toBe(text);
  });

  it('is a fixed point after one pass on the whole corpus joined as one page', () => {
    const page = REPAIR_TEXTS.join('\n\n');
    const once = roundTrip(page);
    expect(roundTrip(once)).toBe(once);
  });

  it.each([
    ['extra blank lines', 'one\n\n\n\ntwo', 'one\n\ntwo'],
    ['trailing spaces and CRLF', 'line one  \r\n\r\n* item\r\n', 'line one\n\n* item'],
    ['list directly after a paragraph', 'Intro\n* a\n* b', 'Intro\n\n* a\n* b'],
    ['unclosed bold stays literal', "a '''b", "a '''b"],
    ['marker followed by space stays literal', 'C++ and C++', 'C++ and C++'],
    ['link without text', '[https://ifixit.com]', '[https://ifixit.com|https://ifixit.com]'],
    ['closing marker after a space stays literal', "'''bold ''' text", "'''bold ''' text"],
    [
      'long link form',
      '[link|https://a.example/x|manual|new_window=true]',
      '[https://a.example/x|manual|new_window=true]',
    ],
    ['long link form with a relative URL', '[link|Guide/Foo|foo]', '[link|Guide/Foo|foo]'],
    ['deep list marker without parent', '*** deep', '*** deep'],
    ['unmatched quote opener', '[quote]\nno end', '[quote]\nno end'],
  ])('normalizes %s, then stays fixed', (_name, raw, expected) => {
    const once = roundTrip(raw);
    expect(once).toBe(expected);
    expect(roundTrip(once)).toBe(once);
  });
});
