import { parseWikiText } from './wiki-parser';
import type { WikiNode } from './types';

const inline = (raw: string): WikiNode[] => parseWikiText(raw).content[0].content ?? [];

describe('parseWikiText', () => {
  it('returns a doc with one empty paragraph for empty input', () => {
    expect(parseWikiText('')).toEqual({ type: 'doc', content: [{ type: 'paragraph' }] });
  });

  it('parses interleaved bold and italic runs the serializer writes', () => {
    expect(inline("'''this''is'''''''text'''''with styles'''")).toEqual([
      { type: 'text', text: 'this', marks: [{ type: 'strong' }] },
      { type: 'text', text: 'is', marks: [{ type: 'em' }, { type: 'strong' }] },
      { type: 'text', text: 'text', marks: [{ type: 'em' }] },
      { type: 'text', text: 'with styles', marks: [{ type: 'strong' }] },
    ]);
  });

  it('keeps unmatched and space-flanked markers as literal text', () => {
    expect(inline("5'' screen, C++ and '''open")).toEqual([{ type: 'text', text: "5'' screen, C++ and '''open" }]);
  });

  it('parses links, references, images and breaks', () => {
    expect(
      inline(
        '[https://a.example|A] [link|/Guide/x|B|new_window=true] [guide|12|G] [wiki|Device|iPhone 6] [product|IF1] [document|3] [image|9|align=right|size=large] [video|https://v.example/1][br]x',
      ),
    ).toEqual([
      {
        type: 'text',
        text: 'A',
        marks: [{ type: 'link', attrs: { href: 'https://a.example', title: '', target: null } }],
      },
      { type: 'text', text: ' ' },
      { type: 'text', text: 'B', marks: [{ type: 'link', attrs: { href: '/Guide/x', title: '', target: '_blank' } }] },
      { type: 'text', text: ' ' },
      { type: 'guide_link', attrs: { guideid: 12, text: 'G' } },
      { type: 'text', text: ' ' },
      { type: 'wiki_link', attrs: { namespace: 'Device', title: 'iPhone 6', text: null } },
      { type: 'text', text: ' ' },
      { type: 'product_link', attrs: { code: 'IF1', text: null } },
      { type: 'text', text: ' ' },
      { type: 'document_link', attrs: { documentid: 3, text: null } },
      { type: 'text', text: ' ' },
      { type: 'image', attrs: { imageid: 9, align: 'right', size: 'large' } },
      { type: 'text', text: ' ' },
      { type: 'video', attrs: { src: 'https://v.example/1' } },
      { type: 'hard_break' },
      { type: 'text', text: 'x' },
    ]);
  });

  it('keeps unknown or malformed brackets as text', () => {
    expect(inline('[foo|bar] [guide|abc|x] [image|] [Note: this|that]')).toEqual([
      { type: 'text', text: '[foo|bar] [guide|abc|x] [image|] [Note: this|that]' },
    ]);
  });

  it('parses formatting inside link text', () => {
    expect(inline("[https://a.example|'''bold''' link]")).toEqual([
      {
        type: 'text',
        text: 'bold',
        marks: [{ type: 'link', attrs: { href: 'https://a.example', title: '', target: null } }, { type: 'strong' }],
      },
      {
        type: 'text',
        text: ' link',
        marks: [{ type: 'link', attrs: { href: 'https://a.example', title: '', target: null } }],
      },
    ]);
  });

  it('nests quotes, lists and code', () => {
    const doc = parseWikiText('[quote|Ann]\n[quote]\ninner\n[/quote]\n* a\n## b\n[/quote]\n[code]\n[quote]\n[/code]');
    expect(doc.content.map((n) => n.type)).toEqual(['blockquote', 'code_block']);
    const quote = doc.content[0];
    expect(quote.attrs).toEqual({
      format: 'long',
      attribute: { type: 'paragraph', content: [{ type: 'text', text: 'Ann' }] },
    });
    expect(quote.content?.map((n) => n.type)).toEqual(['blockquote', 'bullet_list']);
    const list = quote.content?.[1];
    expect(list?.content?.[0].content?.[1]).toEqual({
      type: 'ordered_list',
      attrs: { order: 1 },
      content: [{ type: 'list_item', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'b' }] }] }],
    });
    expect(doc.content[1].content).toEqual([{ type: 'text', text: '[quote]' }]);
  });

  it('treats unmatched quote tags and unclosed code as text', () => {
    const doc = parseWikiText('[/quote]\n\n[quote|x]\ntext\n\n[code]\nno end');
    expect(doc.content.every((n) => n.type === 'paragraph')).toBe(true);
    expect(JSON.stringify(doc)).toContain('[quote|x]');
  });

  it('parses headings of levels 2 to 6 and not level 1', () => {
    expect(parseWikiText('== A ==\n\n====== F ======\n\n= One =').content.map((n) => n.attrs?.level ?? n.type)).toEqual(
      [2, 6, 'paragraph'],
    );
  });

  it('creates intermediate items for a list that starts deeper than level 1', () => {
    expect(parseWikiText('## x').content[0]).toEqual({
      type: 'ordered_list',
      attrs: { order: 1 },
      content: [
        {
          type: 'list_item',
          content: [
            {
              type: 'ordered_list',
              attrs: { order: 1 },
              content: [
                { type: 'list_item', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'x' }] }] },
              ],
            },
          ],
        },
      ],
    });
  });
});
