import { Injectable } from '@nestjs/common';
import { collectReferences, emptyDoc, renderDoc, wikiReferenceKey, wikiTextFromDoc } from '../../wikitext';
import type {
  RenderedWikiText,
  ResolvedImage,
  ResolvedLink,
  WikiDoc,
  WikiReferences,
  WikiTextResolver,
} from '../../wikitext';
import { WikiTextCache } from './wikitext-cache';

export type WikiRef = { namespace: string; title: string };

/** Batch loaders, each called at most once per render call with the union of ids. */
export interface WikiTextLoaders {
  guide: (ids: number[]) => Promise<Map<number, ResolvedLink>>;
  document: (ids: number[]) => Promise<Map<number, ResolvedLink>>;
  image: (ids: number[]) => Promise<Map<number, ResolvedImage>>;
  /** Result keyed by `wikiReferenceKey(namespace, title)`. */
  wiki: (refs: WikiRef[]) => Promise<Map<string, ResolvedLink>>;
  product: (codes: string[]) => Promise<Map<string, ResolvedLink>>;
}

export type WikiTextReferenceKind = keyof WikiTextLoaders;

/**
 * Exposes the wiki-text engine to the app. Content modules (guides, wikis, media…) register
 * their batch loaders at startup, so this module never imports them.
 */
@Injectable()
export class WikiTextService {
  private readonly loaders: Partial<WikiTextLoaders> = {};
  private readonly cache = new WikiTextCache();

  registerLoader<K extends WikiTextReferenceKind>(kind: K, loader: WikiTextLoaders[K]): void {
    this.loaders[kind] = loader;
  }

  async render(raw: string | null | undefined): Promise<RenderedWikiText> {
    const [result] = await this.renderMany([raw ?? '']);
    return result;
  }

  /**
   * Parses all texts, loads every referenced entity with one call per kind, then renders. Trees are
   * shared and frozen (see WikiTextCache): callers must not change them.
   */
  async renderMany(raws: (string | null | undefined)[]): Promise<RenderedWikiText[]> {
    const texts = raws.map((raw) => (typeof raw === 'string' ? raw : ''));
    const docs = texts.map((text) => (text === '' ? emptyDoc() : this.cache.doc(text)));
    const resolver = await this.loadResolver(collectReferences(docs));
    return docs.map((json, index) => {
      const raw = texts[index];
      return { raw, rendered: raw === '' ? renderDoc(json, resolver) : this.cache.html(raw, resolver), json };
    });
  }

  toRaw(doc: WikiDoc): string {
    return wikiTextFromDoc(doc);
  }

  private async loadResolver(refs: WikiReferences): Promise<WikiTextResolver> {
    const { guide, document, image, wiki, product } = this.loaders;
    const [guides, documents, images, wikis, products] = await Promise.all([
      guide && refs.guideids.length > 0 ? guide(refs.guideids) : undefined,
      document && refs.documentids.length > 0 ? document(refs.documentids) : undefined,
      image && refs.imageids.length > 0 ? image(refs.imageids) : undefined,
      wiki && refs.wikis.length > 0 ? wiki(refs.wikis) : undefined,
      product && refs.products.length > 0 ? product(refs.products) : undefined,
    ]);
    return {
      guide: (id) => guides?.get(id),
      document: (id) => documents?.get(id),
      image: (id) => images?.get(id),
      wiki: (namespace, title) => wikis?.get(wikiReferenceKey(namespace, title)),
      product: (code) => products?.get(code),
    };
  }
}
