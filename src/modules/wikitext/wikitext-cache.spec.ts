import { parseWikiText, renderDoc } from '../../wikitext';
import type { ResolvedLink } from '../../wikitext';
import { WikiTextCache } from './wikitext-cache';

const guides = (titles: Record<number, string>) => ({
  guide: (id: number): ResolvedLink | undefined =>
    titles[id] === undefined ? undefined : { title: titles[id], url: `/Guide/${id}` },
});

describe('WikiTextCache', () => {
  it('parses a text once and shares the frozen tree', () => {
    const cache = new WikiTextCache();
    const doc = cache.doc("'''bold''' text");
    expect(doc).toEqual(parseWikiText("'''bold''' text"));
    expect(cache.doc("'''bold''' text")).toBe(doc);
    expect(Object.isFrozen(doc.content[0])).toBe(true);
  });

  it('renders as renderDoc does, again only when a lookup answers differently', () => {
    const cache = new WikiTextCache();
    const text = 'See [guide|1] and [guide|2|that one]';
    const first = guides({ 1: 'Battery', 2: 'Screen' });
    const html = cache.html(text, first);
    expect(html).toBe(renderDoc(parseWikiText(text), first));
    expect(cache.html(text, guides({ 1: 'Battery', 2: 'Screen' }))).toBe(html);
    const renamed = guides({ 1: 'Battery (new)', 2: 'Screen' });
    expect(cache.html(text, renamed)).toBe(renderDoc(parseWikiText(text), renamed));
    const gone = guides({ 2: 'Screen' });
    expect(cache.html(text, gone)).toBe(renderDoc(parseWikiText(text), gone));
    expect(cache.html('plain', {})).toBe('<p>plain</p>');
  });

  it('drops the least recently used texts beyond its budget', () => {
    const cache = new WikiTextCache(30);
    const a = cache.doc('a'.repeat(10));
    const b = cache.doc('b'.repeat(10));
    expect(cache.doc('a'.repeat(10))).toBe(a);
    cache.doc('c'.repeat(15));
    expect(cache.doc('a'.repeat(10))).toBe(a);
    expect(cache.doc('b'.repeat(10))).not.toBe(b);
  });
});
