/** URL schemes that may appear in rendered href/src attributes (besides relative URLs). */
export const ALLOWED_URL_SCHEMES = ['http', 'https', 'mailto'] as const;

const MAX_URL_LENGTH = 2048;
// Whitespace, C0/C1 controls, zero-width and bidi controls, BOM, and characters that must be
// percent-encoded in URLs (< > " `): never accepted inside a URL we emit.
// eslint-disable-next-line no-control-regex -- control characters are exactly what this strips
const FORBIDDEN_CHARS = /[\s<>"`\u0000-\u001F\u007F-\u009F\u00AD\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF]/;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

function decodeNumericEntities(text: string): string {
  return text.replace(/&#(x[0-9a-f]{1,8}|\d{1,10});?/gi, (_match, code: string) => {
    const value = code[0] === 'x' || code[0] === 'X' ? parseInt(code.slice(1), 16) : parseInt(code, 10);
    return value > 0 && value <= 0x10ffff ? String.fromCodePoint(value) : '';
  });
}

function schemeIsSafe(url: string, schemes: readonly string[]): boolean {
  const match = SCHEME.exec(url);
  if (match) return schemes.includes(match[1].toLowerCase());
  // No scheme: only plain relative references. Anything that could still be read as a scheme
  // (a colon, an entity or escape before the first path character) or a protocol-relative
  // host is refused.
  const cut = url.search(/[/?#]/);
  const head = cut === -1 ? url : url.slice(0, cut);
  if (/[:&%\\]/.test(head)) return false;
  return !/^[/\\]{2}/.test(url) && !/^\/\\/.test(url);
}

/**
 * Returns the URL when it is safe to place in an href/src attribute (http, https, mailto or a
 * relative reference), otherwise null. Entity-encoded and control-character tricks are refused.
 */
export function safeUrl(url: unknown, schemes: readonly string[] = ALLOWED_URL_SCHEMES): string | null {
  if (typeof url !== 'string') return null;
  const trimmed = url.trim();
  if (trimmed === '' || trimmed.length > MAX_URL_LENGTH || FORBIDDEN_CHARS.test(trimmed)) return null;
  if (!schemeIsSafe(trimmed, schemes)) return null;
  const decoded = decodeNumericEntities(trimmed).replace(new RegExp(FORBIDDEN_CHARS.source, 'g'), '');
  if (decoded !== trimmed && !schemeIsSafe(decoded, schemes)) return null;
  return trimmed;
}

/** Image sources: http(s) or relative, never mailto. */
export function safeImageUrl(url: unknown): string | null {
  return safeUrl(url, ['http', 'https']);
}
