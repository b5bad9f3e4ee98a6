import { renderDoc } from './html-renderer';
import { parseWikiText } from './wiki-parser';
import type { RenderedWikiText, WikiTextResolver } from './types';

export * from './types';
export { parseWikiText } from './wiki-parser';
export { wikiTextFromDoc } from './wiki-serializer';
export { renderDoc } from './html-renderer';
export { extractReferences, collectReferences, wikiReferenceKey } from './references';
export { WIKI_HTML_ALLOWLIST, sanitizeRenderedHtml } from './sanitize-policy';
export { ALLOWED_URL_SCHEMES, safeUrl } from './url-policy';
export { MAX_INPUT_LENGTH, MAX_NESTING_DEPTH } from './limits';
export { NodeType, MarkType, emptyDoc } from './schema';

/** Parses raw wiki text and renders it: `{ raw, rendered (sanitized HTML), json (tree) }`. */
export function renderWikiText(raw: string, resolver: WikiTextResolver = {}): RenderedWikiText {
  const text = typeof raw === 'string' ? raw : '';
  const json = parseWikiText(text);
  return { raw: text, rendered: renderDoc(json, resolver), json };
}
