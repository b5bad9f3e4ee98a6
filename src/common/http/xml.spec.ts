import { XMLParser } from 'fast-xml-parser';
import { toXml, xmlAttribute, xmlText } from './xml';

describe('toXml', () => {
  it('writes arrays as item elements and maps invalid names to entry elements', () => {
    const xml = toXml(
      'guide',
      { guideid: 3, image: { '140x105': 'u', xmlish: 1 }, tags: ['a', 'b'], empty: [] },
      false,
    );
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<guide><guideid>3</guideid><image><entry key="140x105">u</entry><entry key="xmlish">1</entry></image><tags><item>a</item><item>b</item></tags><empty></empty></guide>',
    );
  });

  it('escapes markup in values so the document stays well-formed', () => {
    const xml = toXml('wiki', { contents_rendered: '<p onclick="x()">a & b</p>', title: ']]>' }, true);
    const parsed = new XMLParser().parse(xml) as { wiki: { contents_rendered: string; title: string } };
    expect(parsed.wiki.title).toBe(']]>');
    expect(xml).not.toContain('<p onclick');
  });
});

describe('characters XML 1.0 forbids', () => {
  const forbidden = [
    ...Array.from({ length: 0x20 }, (_, c) => String.fromCharCode(c)).filter((c) => !'\t\n\r'.includes(c)),
    '\uFFFE',
    '\uFFFF',
    '\uDFFF', // a low surrogate first: the two are lone, not a pair
    '\uD800',
  ];
  const allowed = 'tab\t LF\n CR\r private\uE000 astral\u{10000} é';

  it('become U+FFFD in text and in entry keys; tab, LF, CR and the rest survive a parse', () => {
    const xml = toXml(
      'guide',
      { title: `a${forbidden.join('')}z`, text: allowed, map: { [`k\u0001 ${allowed}`]: 1 } },
      true,
    );
    expect(xml).toMatch(/^[\t\n\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u);
    const parsed = new XMLParser({
      ignoreAttributes: false,
      parseTagValue: false,
      trimValues: false,
      htmlEntities: true,
    }).parse(xml) as { guide: { title: string; text: string; map: { entry: { '@_key': string } } } };
    expect(parsed.guide.title).toBe(`a${'\uFFFD'.repeat(forbidden.length)}z`);
    expect(parsed.guide.text).toBe(allowed);
    expect(parsed.guide.map.entry['@_key']).toBe(`k\uFFFD ${allowed}`);
  });

  it('xmlText escapes markup and CR; xmlAttribute also tab and LF', () => {
    expect(xmlText('<a href="x">&\'\r\t\n</a>\u0000')).toBe(
      '&lt;a href=&quot;x&quot;&gt;&amp;&apos;&#xD;\t\n&lt;/a&gt;\uFFFD',
    );
    expect(xmlAttribute('a\tb\nc\rd\u000B')).toBe('a&#x9;b&#xA;c&#xD;d\uFFFD');
  });
});
