import { renderDocUnsanitized } from './html-renderer';
import { renderDoc, renderWikiText } from './index';
import { htmlViolations, isAllowedUrl } from './test-support/html-check';
import { XSS_CONTEXTS, XSS_PAYLOADS, XSS_URLS, XSS_URL_CONTEXTS } from './test-support/xss-payloads';
import { MarkType, NodeType } from './schema';
import type { WikiDoc, WikiTextResolver } from './types';

/** A resolver that hands back hostile data, as a compromised database row might. */
const hostileResolver = (payload: string): WikiTextResolver => ({
  guide: () => ({ title: payload, url: payload }),
  document: () => ({ title: payload, url: '/Document/1' }),
  wiki: () => ({ title: payload, url: payload }),
  product: () => ({ title: payload, url: payload }),
  image: (id) => ({ id, urls: { standard: payload, large: payload } }),
});

const attackTexts = [
  ...XSS_PAYLOADS.flatMap((payload) => XSS_CONTEXTS.map((context) => context(payload))),
  ...XSS_URLS.flatMap((url) => XSS_URL_CONTEXTS.map((context) => context(url))),
];

describe('XSS corpus', () => {
  it('has well over 100 attack strings', () => {
    expect(XSS_PAYLOADS.length + XSS_URLS.length).toBeGreaterThanOrEqual(90);
    expect(attackTexts.length).toBeGreaterThanOrEqual(100);
  });

  it.each(attackTexts.map((text) => [text]))('renders only allowed HTML: %j', (text) => {
    const { rendered, json } = renderWikiText(text, hostileResolver(text));
    expect(htmlViolations(rendered)).toEqual([]);
    // The renderer alone (before sanitize-html) must already be safe.
    expect(htmlViolations(renderDocUnsanitized(json, hostileResolver(text)))).toEqual([]);
  });

  it.each(XSS_URLS.map((url) => [url]))('never turns %j into a link or image', (url) => {
    const resolver: WikiTextResolver = {
      guide: () => ({ title: 'Guide', url }),
      image: (id) => ({ id, urls: { standard: url } }),
    };
    const text = `[${url}|a] [link|${url}|b] [video|${url}] [guide|1|c] [image|2]`;
    const html = renderWikiText(text, resolver).rendered;
    expect(htmlViolations(html)).toEqual([]);
    expect(html).not.toMatch(/<a |<img /);
  });

  it('escapes raw HTML instead of passing it through', () => {
    const html = renderWikiText('<b onclick="x()">hi</b> & <i>').rendered;
    expect(html).toBe('<p>&lt;b onclick="x()"&gt;hi&lt;/b&gt; &amp; &lt;i&gt;</p>');
  });

  it('drops hostile link marks and attributes in a tree that did not come from the parser', () => {
    const doc: WikiDoc = {
      type: 'doc',
      content: [
        {
          type: NodeType.paragraph,
          content: [
            { type: 'text', text: 'x', marks: [{ type: MarkType.link, attrs: { href: 'javascript:alert(1)' } }] },
            { type: 'text', text: 'y', marks: [{ type: 'script' }, { type: 'onclick' }] },
            { type: NodeType.image, attrs: { imageid: 'x', src: 'javascript:alert(1)' } },
            { type: NodeType.image, attrs: { imageid: 3, src: 'https://ok.example/a.jpg', align: '" onload="x' } },
          ],
        },
        { type: NodeType.heading, attrs: { level: '<script>' }, content: [{ type: 'text', text: 'h' }] },
        { type: NodeType.blockquote, attrs: { format: '"><script>', attribute: '<img src=x onerror=1>' } },
        { type: '<script>', content: [{ type: 'text', text: '<script>' }] },
      ],
    };
    const html = renderDoc(doc);
    expect(htmlViolations(html)).toEqual([]);
    expect(htmlViolations(renderDocUnsanitized(doc))).toEqual([]);
    expect(html).toContain('<img src="https://ok.example/a.jpg"');
  });

  it('has a checker that does catch bad HTML', () => {
    expect(htmlViolations('<p onclick="x">a</p>')).not.toEqual([]);
    expect(htmlViolations('<script>x</script>')).not.toEqual([]);
    expect(htmlViolations('<a href="jav&#x09;ascript:alert(1)">x</a>')).not.toEqual([]);
    expect(isAllowedUrl('/Guide/Foo')).toBe(true);
    expect(isAllowedUrl('mailto:a@b.example')).toBe(true);
    expect(isAllowedUrl('data:text/html,x')).toBe(false);
  });
});
