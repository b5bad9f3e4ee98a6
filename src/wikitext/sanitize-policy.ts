import sanitizeHtml from 'sanitize-html';
import { ALLOWED_URL_SCHEMES } from './url-policy';

/**
 * Everything the renderer may emit. The renderer escapes all text and builds only these
 * elements; sanitize-html then enforces the same list as a second line of defence.
 */
export const WIKI_HTML_ALLOWLIST = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'em',
    'u',
    's',
    'sub',
    'sup',
    'code',
    'pre',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'ul',
    'ol',
    'li',
    'blockquote',
    'cite',
    'a',
    'img',
    'figure',
    'span',
  ],
  allowedAttributes: {
    a: ['href', 'rel', 'target', 'class'],
    img: ['src', 'alt', 'class'],
    figure: ['class'],
    span: ['class'],
    blockquote: ['class'],
    p: ['class'],
  } as Record<string, string[]>,
  allowedSchemes: [...ALLOWED_URL_SCHEMES] as string[],
  /** Attributes whose values are URLs and are checked against allowedSchemes. */
  urlAttributes: ['href', 'src'],
} as const;

const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...WIKI_HTML_ALLOWLIST.allowedTags],
  allowedAttributes: WIKI_HTML_ALLOWLIST.allowedAttributes,
  allowedSchemes: [...WIKI_HTML_ALLOWLIST.allowedSchemes],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: [...WIKI_HTML_ALLOWLIST.urlAttributes],
  allowProtocolRelative: false,
  allowedStyles: {},
  disallowedTagsMode: 'escape',
  selfClosing: ['br', 'img'],
};

export function sanitizeRenderedHtml(html: string): string {
  return sanitizeHtml(html, SANITIZE_OPTIONS);
}
