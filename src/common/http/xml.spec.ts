import { XMLParser } from 'fast-xml-parser';
import { toXml } from './xml';

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
