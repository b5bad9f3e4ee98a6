import { renderWikiText } from './index';
import { extractReferences } from './references';
import type { WikiTextResolver } from './types';

const resolver: WikiTextResolver = {
  guide: (id) => (id === 1 ? { title: 'Battery Replacement', url: '/Guide/Battery/1' } : undefined),
  document: (id) => (id === 2 ? { title: 'Schematic', url: '/Document/2' } : undefined),
  wiki: (ns, title) => (ns === 'Device' ? { title, url: `/Device/${title.replace(/ /g, '_')}` } : undefined),
  product: (code) => ({ title: `Part ${code}`, url: `/Products/${code}` }),
  image: (id) =>
    id === 5
      ? { id, urls: { standard: 'https://img.example/5.standard', large: 'https://img.example/5.large' } }
      : undefined,
};
const html = (raw: string): string => renderWikiText(raw, resolver).rendered;

describe('HTML renderer', () => {
  it('renders formatting marks', () => {
    expect(html("'''b''' ''i'' ++u++ ,,s,, ^^p^^ ``c`` ~~x~~")).toBe(
      '<p><strong>b</strong> <em>i</em> <u>u</u> <sub>s</sub> <sup>p</sup> <code>c</code> <s>x</s></p>',
    );
  });

  it('renders headings, lists, code and quotes', () => {
    expect(html('== Title ==\n\n* a\n** b\n# c')).toBe(
      '<h2>Title</h2><ul><li>a<ul><li>b</li></ul></li></ul><ol><li>c</li></ol>',
    );
    expect(html('[code]\n<b>\n[/code]')).toBe('<pre><code>&lt;b&gt;</code></pre>');
    expect(html('[quote|Ann|format=featured]\nHi\n[/quote]')).toBe(
      '<blockquote class="wiki-quote wiki-quote-featured"><p>Hi</p><p class="wiki-quote-attribution"><cite>Ann</cite></p></blockquote>',
    );
  });

  it('resolves references and falls back to text for unknown ids', () => {
    expect(html('[guide|1] [guide|1|Do this] [guide|9|Missing] [guide|9]')).toBe(
      '<p><a href="/Guide/Battery/1" rel="nofollow noopener noreferrer">Battery Replacement</a> ' +
        '<a href="/Guide/Battery/1" rel="nofollow noopener noreferrer">Do this</a> Missing [guide|9]</p>',
    );
    expect(html('[document|2] [wiki|Device|iPhone 6] [wiki|Info|X|x] [product|IF1|kit]')).toBe(
      '<p><a href="/Document/2" rel="nofollow noopener noreferrer">Schematic</a> ' +
        '<a href="/Device/iPhone_6" rel="nofollow noopener noreferrer">iPhone 6</a> x ' +
        '<a href="/Products/IF1" rel="nofollow noopener noreferrer">kit</a></p>',
    );
  });

  it('renders images with the size variant and alignment, inline or as a figure', () => {
    expect(html('[image|5|align=left|size=large]')).toBe(
      '<figure class="wiki-image align-left size-large"><img src="https://img.example/5.large" alt="" /></figure>',
    );
    expect(html('See [image|5]')).toBe(
      '<p>See <span class="wiki-image size-standard"><img src="https://img.example/5.standard" alt="" /></span></p>',
    );
    expect(html('[image|5|size=huge]')).toContain('https://img.example/5.standard');
    expect(html('[image|6]')).toBe('');
  });

  it('renders links, new windows and unsafe links as text', () => {
    expect(html('[https://a.example|A] [mailto:x@y.example|mail|new_window=true] [javascript:alert(1)|bad]')).toBe(
      '<p><a href="https://a.example" rel="nofollow noopener noreferrer">A</a> ' +
        '<a href="mailto:x@y.example" rel="nofollow noopener noreferrer" target="_blank">mail</a> bad</p>',
    );
    expect(html('[video|https://v.example/1]')).toBe(
      '<p><a href="https://v.example/1" class="wiki-video" rel="nofollow noopener noreferrer" target="_blank">https://v.example/1</a></p>',
    );
  });

  it('renders hard breaks', () => {
    expect(html('a[br]\nb')).toBe('<p>a<br />b</p>');
  });
});

describe('extractReferences', () => {
  it('lists every reference once, ignoring code blocks', () => {
    expect(
      extractReferences(
        '[guide|1] [guide|1|x] [image|5] [document|2]\n\n* [wiki|Device|A] [wiki|Device|A|y] [product|P1]\n\n[quote]\n[guide|3]\n[/quote]\n\n[code]\n[guide|4]\n[/code]',
      ),
    ).toEqual({
      guideids: [1, 3],
      imageids: [5],
      documentids: [2],
      wikis: [{ namespace: 'Device', title: 'A' }],
      products: ['P1'],
    });
  });
});
