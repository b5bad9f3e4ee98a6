import { NodeType, numberAttr, stringAttr } from './schema';
import { walkTree } from './tree-text';
import { parseWikiText } from './wiki-parser';
import type { WikiDoc, WikiNode, WikiReferences } from './types';

/** Key for a wiki reference in maps and sets: titles that differ only by case name the same wiki. */
export function wikiReferenceKey(namespace: string, title: string): string {
  return `${namespace}\u0000${title.toLowerCase()}`;
}

/** Every guide, image, document, wiki and product referenced by one tree or several, deduplicated in order. */
export function collectReferences(docs: WikiDoc | readonly WikiDoc[]): WikiReferences {
  const guideids = new Set<number>();
  const imageids = new Set<number>();
  const documentids = new Set<number>();
  const products = new Set<string>();
  const wikis = new Map<string, { namespace: string; title: string }>();
  const visit = (node: WikiNode) => {
    switch (node.type) {
      case NodeType.guideLink: {
        const id = numberAttr(node, 'guideid');
        if (id !== null) guideids.add(id);
        break;
      }
      case NodeType.image: {
        const id = numberAttr(node, 'imageid');
        if (id !== null) imageids.add(id);
        break;
      }
      case NodeType.documentLink: {
        const id = numberAttr(node, 'documentid');
        if (id !== null) documentids.add(id);
        break;
      }
      case NodeType.wikiLink: {
        const namespace = stringAttr(node, 'namespace');
        const title = stringAttr(node, 'title');
        if (namespace && title) wikis.set(wikiReferenceKey(namespace, title), { namespace, title });
        break;
      }
      case NodeType.productLink: {
        const code = stringAttr(node, 'code');
        if (code) products.add(code);
        break;
      }
    }
  };
  const list: readonly WikiDoc[] = 'type' in docs ? [docs] : docs;
  for (const doc of list) walkTree(doc, visit);
  return {
    guideids: [...guideids],
    imageids: [...imageids],
    documentids: [...documentids],
    wikis: [...wikis.values()],
    products: [...products],
  };
}

/** References in raw wiki text (references inside `[code]` blocks do not count). */
export function extractReferences(raw: string): WikiReferences {
  return collectReferences(parseWikiText(raw));
}
