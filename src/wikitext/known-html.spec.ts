import * as fs from 'fs';
import * as path from 'path';
import { renderDocUnsanitized } from './html-renderer';
import { sanitizeKnownHtml } from './known-html';
import { sanitizeRenderedHtml, sanitizeWithLibrary } from './sanitize-policy';
import { XSS_CONTEXTS, XSS_PAYLOADS, XSS_URLS, XSS_URL_CONTEXTS } from './test-support/xss-payloads';
import { parseWikiText } from './wiki-parser';
import type { WikiDoc, WikiTextResolver } from './types';

/**
 * sanitizeKnownHtml answers what sanitize-html answers, or nothing: every HTML below goes through both, and where
 * the strict reader answers, the answers must be equal byte for byte.
 */
const compare = (html: string): 'known' | 'library' => {
  const known = sanitizeKnownHtml(html);
  if (known === undefined) return 'library';
  expect(known).toBe(sanitizeWithLibrary(html));
  return 'known';
};

const counts = (htmls: string[]) => {
  const paths = htmls.map(compare);
  return { known: paths.filter((p) => p === 'known').length, library: paths.filter((p) => p === 'library').length };
};

const resolver: WikiTextResolver = {
  guide: (id) => ({ title: `Guide "${id}" & <more>`, url: `https://guides.test/Guide/Fan_%26_Co/${id}` }),
  document: (id) => ({ title: `Document ${id}`, url: `/Document/${id}` }),
  wiki: (namespace, title) => ({ title, url: `https://guides.test/Wiki/${encodeURIComponent(title)}` }),
  product: (code) => ({ title: `Product ${code}`, url: `https://shop.test/p/${code}?ref=a&b=c` }),
  image: (id) => ({
    id,
    urls: { standard: `https://media.test/${id}.standard`, large: `https://media.test/${id}.large` },
  }),
};

const hostile = (payload: string): WikiTextResolver => ({
  guide: () => ({ title: payload, url: payload }),
  document: () => ({ title: payload, url: '/Document/1' }),
  wiki: () => ({ title: payload, url: payload }),
  product: () => ({ title: payload, url: payload }),
  image: (id) => ({ id, urls: { standard: payload, large: payload } }),
});

describe('sanitizeKnownHtml: sanitize-html without the parse, for HTML of the renderer', () => {
  it('answers as sanitize-html for every wiki-text vector rendered, and reads nearly all of them itself', () => {
    const file = path.resolve(__dirname, '../../test/fixtures/wikitext/prosemirror-wikitext-vectors.json');
    const vectors = JSON.parse(fs.readFileSync(file, 'utf8')) as { doc: WikiDoc; wikitext: string }[];
    const htmls = vectors.flatMap((v) => [
      renderDocUnsanitized(v.doc, resolver),
      renderDocUnsanitized(parseWikiText(v.wikitext), resolver),
    ]);
    const { known, library } = counts(htmls);
    expect(known).toBeGreaterThanOrEqual(htmls.length - 2);
    expect(known + library).toBe(htmls.length);
  });

  it('answers as sanitize-html for the XSS corpus, rendered with plain and hostile references', () => {
    const texts = [
      ...XSS_PAYLOADS.flatMap((payload) => XSS_CONTEXTS.map((context) => context(payload))),
      ...XSS_URLS.flatMap((url) => XSS_URL_CONTEXTS.map((context) => context(url))),
    ];
    const htmls = texts.flatMap((text) => [
      renderDocUnsanitized(parseWikiText(text), resolver),
      renderDocUnsanitized(parseWikiText(text), hostile(text)),
    ]);
    const { known } = counts(htmls);
    expect(known).toBeGreaterThan(htmls.length / 2);
    // The payloads themselves, as raw HTML, are never of the renderer's shape (those without markup are text).
    for (const payload of XSS_PAYLOADS.filter((p) => p.includes('<'))) expect(compare(payload)).toBe('library');
  });

  it.each([
    ['<p>a &amp; b &lt;c&gt; &quot;d&quot; &#39;e&#39;</p>', 'known'],
    ['<p>one<br>two<br />three<br/>four</p>', 'known'],
    ['<figure class="image left"><img src="https://media.test/1.jpg" alt="" class="x" /></figure>', 'known'],
    [
      '<p><a href="https://x.test/?a=1&amp;b=&quot;2&quot;" rel="nofollow noopener noreferrer" target="_blank">x</a></p>',
      'known',
    ],
    ['<ul><li>a<ul><li>b</li></ul></li></ul>', 'known'],
    ['<p><a href="/Guide/1">relative</a> <a href="mailto:a@b.test">mail</a></p>', 'known'],
    ['<pre><code>x &lt; y</code></pre><h2>T</h2><blockquote class="q"><p>z</p></blockquote>', 'known'],
    ['<p>"quoted" and \'single\'</p>', 'known'],
    ['', 'known'],
    ['plain text', 'known'],
    ['<a href="javascript:alert(1)">x</a>', 'library'],
    ['<a href="JAVASCRIPT:alert(1)">x</a>', 'library'],
    ['<a href="//evil.test/">x</a>', 'library'],
    ['<a href="\\\\evil.test/">x</a>', 'library'],
    ['<a href=" https://x.test">x</a>', 'library'],
    ['<img src="mailto:a@b.test" />', 'library'],
    ['<img src="data:image/png;base64,AAAA" />', 'library'],
    ['<a href="">x</a>', 'library'],
    ['<p class="">x</p>', 'library'],
    ['<p><ul><li>x</li></ul></p>', 'library'],
    ['<li>a<li>b</li></li>', 'library'],
    ['<p>x', 'library'],
    ['x</p>', 'library'],
    ['<br></br>', 'library'],
    ['<em><strong>x</em></strong>', 'library'],
    ['<P>x</P>', 'library'],
    ['<p onclick="x()">x</p>', 'library'],
    ['<p class="a" class="b">x</p>', 'library'],
    ['<script>alert(1)</script>', 'library'],
    ['<p>a &nbsp; b</p>', 'library'],
    ['<p>a &amp b</p>', 'library'],
    ['<p>a & b</p>', 'library'],
    ['<p>a > b</p>', 'library'],
    ['<p>a < b</p>', 'library'],
    ['<!-- c --><p>x</p>', 'library'],
    ['<p>x\r\ny</p>', 'library'],
    ["<p class='x'>y</p>", 'library'],
    ['<p  class="x">y</p>', 'library'],
    ['<span/>', 'library'],
    ['<div>x</div>', 'library'],
  ])('%j: the %s path, with sanitize-html’s answer', (html, path) => {
    expect(compare(html)).toBe(path);
    expect(sanitizeRenderedHtml(html)).toBe(sanitizeWithLibrary(html));
  });

  it('answers as sanitize-html for 20,000 strings generated from pieces of markup', () => {
    const pieces = [
      '<p>',
      '</p>',
      '<em>',
      '</em>',
      '<strong>',
      '</strong>',
      '<ul>',
      '</ul>',
      '<ol>',
      '</ol>',
      '<li>',
      '</li>',
      '<h2>',
      '</h2>',
      '<pre>',
      '</pre>',
      '<code>',
      '</code>',
      '<blockquote>',
      '</blockquote>',
      '<figure>',
      '</figure>',
      '<span class="s">',
      '</span>',
      '<br>',
      '<br />',
      '<img src="https://m.test/1" alt="a" />',
      '<img src="/m/2" alt="" />',
      '<img src="http://m.test/3">',
      '<img src="mailto:x@y.test" />',
      '<a href="https://x.test/a?b=1&amp;c=2">',
      '</a>',
      '<a href="mailto:x@y.test" rel="nofollow">',
      '<a href="/Guide/1" target="_blank">',
      '<a href="javascript:x">',
      '<a href="//h.test/">',
      '<a href="ftp://h.test/">',
      '<a href="a:b">',
      '<a href="">',
      '<p class="">',
      '<div>',
      '</div>',
      '<script>',
      '</script>',
      '<P>',
      '<br/>',
      '</br>',
      '<img>',
      '<a>',
      '<u>',
      '</u>',
      '<sub>',
      '</sub>',
      'text',
      ' ',
      'é',
      '"',
      "'",
      '&amp;',
      '&lt;',
      '&gt;',
      '&quot;',
      '&#39;',
      '&nbsp;',
      '&',
      '<',
      '>',
      '\n',
      '\t',
      '&amp;amp;',
      '<!--x-->',
      '</p',
      '<p',
      'x="y"',
    ];
    let seed = 20261128;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const htmls: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const length = 1 + Math.floor(random() * 12);
      let html = '';
      for (let k = 0; k < length; k++) html += pieces[Math.floor(random() * pieces.length)];
      htmls.push(html);
    }
    // Balanced ones as well: random markup is rarely closed in order.
    const texts = [
      'text',
      ' ',
      'é',
      '"',
      "'",
      '&amp;',
      '&lt;',
      '&gt;',
      '&quot;',
      '&#39;',
      '\n',
      '<br>',
      '<br />',
      '&nbsp;',
    ];
    const tags = ['p', 'em', 'strong', 'span class="c"', 'code', 'blockquote', 'h3', 'a href="https://x.test/&amp;"'];
    for (let i = 0; i < 5_000; i++) {
      const open = tags[Math.floor(random() * tags.length)];
      const inner = texts[Math.floor(random() * texts.length)] + pieces[Math.floor(random() * pieces.length)];
      htmls.push(`<${open}>${inner}</${open.split(' ')[0]}>`);
    }
    const { known } = counts(htmls);
    expect(known).toBeGreaterThan(1_500);
  });
});
