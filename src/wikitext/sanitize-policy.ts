import sanitizeHtml from 'sanitize-html';
import { IMAGE_URL_SCHEMES, WIKI_HTML_ALLOWLIST } from './html-allowlist';
import { sanitizeKnownHtml } from './known-html';

export { WIKI_HTML_ALLOWLIST } from './html-allowlist';

const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...WIKI_HTML_ALLOWLIST.allowedTags],
  allowedAttributes: WIKI_HTML_ALLOWLIST.allowedAttributes,
  allowedSchemes: [...WIKI_HTML_ALLOWLIST.allowedSchemes],
  allowedSchemesByTag: { img: [...IMAGE_URL_SCHEMES] },
  allowedSchemesAppliedToAttributes: [...WIKI_HTML_ALLOWLIST.urlAttributes],
  allowProtocolRelative: false,
  allowedStyles: {},
  disallowedTagsMode: 'escape',
  selfClosing: ['br', 'img'],
};

/** What sanitize-html answers for the HTML under the allowlist; HTML of the renderer's shape is read without it. */
export function sanitizeRenderedHtml(html: string): string {
  return sanitizeKnownHtml(html) ?? sanitizeHtml(html, SANITIZE_OPTIONS);
}

/** sanitize-html alone (tests compare sanitizeKnownHtml with it). */
export function sanitizeWithLibrary(html: string): string {
  return sanitizeHtml(html, SANITIZE_OPTIONS);
}
