/** A mark on an inline node, ProseMirror-style. */
export interface WikiMark {
  type: string;
  attrs?: Record<string, unknown>;
}

/** A node of the document tree, ProseMirror-style JSON. */
export interface WikiNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: WikiNode[];
  marks?: WikiMark[];
  text?: string;
}

/** The root node: `{ type: 'doc', content: [...] }`. */
export interface WikiDoc extends WikiNode {
  type: 'doc';
  content: WikiNode[];
}

export interface ResolvedLink {
  title: string;
  url: string;
}

export interface ResolvedImage {
  id: number;
  guid?: string;
  /** Size variant name (standard, medium, large, original, …) -> URL. */
  urls: Record<string, string>;
}

/**
 * Synchronous lookups for references. Callers batch-load everything that
 * `extractReferences` reported before rendering; a missing entry renders as plain text.
 */
export interface WikiTextResolver {
  guide?(id: number): ResolvedLink | undefined;
  document?(id: number): ResolvedLink | undefined;
  wiki?(namespace: string, title: string): ResolvedLink | undefined;
  image?(id: number): ResolvedImage | undefined;
  product?(code: string): ResolvedLink | undefined;
}

export interface WikiReferences {
  guideids: number[];
  imageids: number[];
  documentids: number[];
  wikis: { namespace: string; title: string }[];
  products: string[];
}

export interface RenderedWikiText {
  raw: string;
  rendered: string;
  json: WikiDoc;
}
