import { wikiReferenceKey } from '../../wikitext';
import type { ResolvedImage, ResolvedLink } from '../../wikitext';
import { WikiTextService } from './wikitext.service';
import type { WikiRef } from './wikitext.service';

function countingLoaders() {
  const calls: Record<string, unknown[][]> = { guide: [], document: [], image: [], wiki: [], product: [] };
  return {
    calls,
    guide: async (ids: number[]) => {
      calls.guide.push(ids);
      return new Map<number, ResolvedLink>(
        ids.filter((id) => id !== 404).map((id) => [id, { title: `Guide ${id}`, url: `/Guide/${id}` }]),
      );
    },
    document: async (ids: number[]) => {
      calls.document.push(ids);
      return new Map<number, ResolvedLink>(ids.map((id) => [id, { title: `Doc ${id}`, url: `/Document/${id}` }]));
    },
    image: async (ids: number[]) => {
      calls.image.push(ids);
      return new Map<number, ResolvedImage>(
        ids.map((id) => [
          id,
          { id, urls: { standard: `https://img.example/${id}.standard`, large: `https://img.example/${id}.large` } },
        ]),
      );
    },
    wiki: async (refs: WikiRef[]) => {
      calls.wiki.push(refs);
      return new Map<string, ResolvedLink>(
        refs.map((r) => [
          wikiReferenceKey(r.namespace, r.title),
          { title: r.title, url: `/${r.namespace}/${encodeURIComponent(r.title)}` },
        ]),
      );
    },
    product: async (codes: string[]) => {
      calls.product.push(codes);
      return new Map<string, ResolvedLink>(
        codes.map((code) => [code, { title: `Product ${code}`, url: `/Products/${code}` }]),
      );
    },
  };
}

function serviceWithLoaders() {
  const loaders = countingLoaders();
  const service = new WikiTextService();
  service.registerLoader('guide', loaders.guide);
  service.registerLoader('document', loaders.document);
  service.registerLoader('image', loaders.image);
  service.registerLoader('wiki', loaders.wiki);
  service.registerLoader('product', loaders.product);
  return { service, calls: loaders.calls };
}

describe('WikiTextService', () => {
  it('renders one text with resolved references', async () => {
    const { service } = serviceWithLoaders();
    const result = await service.render('See [guide|7|the guide] and [image|3|size=large]');
    expect(result.raw).toBe('See [guide|7|the guide] and [image|3|size=large]');
    expect(result.rendered).toContain('<a href="/Guide/7" rel="nofollow noopener noreferrer">the guide</a>');
    expect(result.rendered).toContain('src="https://img.example/3.large"');
    expect(result.json.type).toBe('doc');
  });

  it('calls each loader once with the union of ids across many texts', async () => {
    const { service, calls } = serviceWithLoaders();
    const results = await service.renderMany([
      '[guide|1] [guide|2] [image|10] [wiki|Device|iPhone 6]',
      '[guide|2|again] [guide|3] [image|10] [image|11] [document|5]',
      '[wiki|Device|iPhone 6|phone] [product|IF145-307] [guide|404|missing]',
      'plain text',
    ]);
    expect(results).toHaveLength(4);
    expect(calls.guide).toEqual([[1, 2, 3, 404]]);
    expect(calls.image).toEqual([[10, 11]]);
    expect(calls.document).toEqual([[5]]);
    expect(calls.wiki).toEqual([[{ namespace: 'Device', title: 'iPhone 6' }]]);
    expect(calls.product).toEqual([['IF145-307']]);
    expect(results[0].rendered).toContain('>Guide 1</a>');
    expect(results[2].rendered).toContain('href="/Device/iPhone%206"');
    expect(results[2].rendered).toContain('missing');
    expect(results[2].rendered).not.toContain('/Guide/404');
  });

  it('does not call loaders when nothing is referenced, and handles null input', async () => {
    const { service, calls } = serviceWithLoaders();
    const result = await service.render(null);
    expect(result).toEqual({ raw: '', rendered: '', json: { type: 'doc', content: [{ type: 'paragraph' }] } });
    await service.renderMany(['no references here']);
    expect(Object.values(calls).every((list) => list.length === 0)).toBe(true);
  });

  it('renders references as plain text when no loader is registered', async () => {
    const service = new WikiTextService();
    const result = await service.render('[guide|1|Battery guide]');
    expect(result.rendered).toBe('<p>Battery guide</p>');
  });

  it('serializes a tree back to raw wiki text', () => {
    const service = new WikiTextService();
    expect(
      service.toRaw({
        type: 'doc',
        content: [{ type: 'paragraph', content: [{ type: 'text', text: 'x', marks: [{ type: 'strong' }] }] }],
      }),
    ).toBe("'''x'''");
  });
});
