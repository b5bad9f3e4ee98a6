/**
 * sanitize-html's answer for HTML of the shape the renderer writes, without parsing it with htmlparser2 (that
 * parse was most of the cost of rendering wiki text). `sanitizeKnownHtml` reads the HTML with a strict grammar and
 * answers exactly what sanitize-html answers for it under SANITIZE_OPTIONS (sanitize-policy.ts), or undefined for
 * anything outside the grammar, which then goes through sanitize-html itself. The grammar:
 * - text without `<`, `>`, NUL or CR, whose `&` start only `&amp;` `&lt;` `&gt;` `&quot;` `&#39;`;
 * - tags in lower case from the allowlist, attributes ` name="value"` of that tag's allowlist, each once, values
 *   by the same rule as text (an empty value only for `alt`); URL attributes with an allowed scheme or a relative
 *   reference that is not protocol-relative, and no character below U+0021;
 * - every element closed in order by its own end tag (void elements `br` and `img` have none), and never opened
 *   where htmlparser2 would close an open `p` or `li` first.
 * For such input sanitize-html keeps every tag and attribute, and writes text and values decoded and escaped
 * again (`&<>` in text, `&<>"` in values) and void elements as `<br />`; this writes the same. Tested against
 * sanitize-html on the wiki-text vectors and on generated markup (known-html.spec.ts).
 */
import { IMAGE_URL_SCHEMES, WIKI_HTML_ALLOWLIST } from './html-allowlist';

const ALLOWED_TAGS = new Set<string>(WIKI_HTML_ALLOWLIST.allowedTags);
const VOID_TAGS = new Set(['br', 'img']);
const URL_ATTRIBUTES = new Set<string>(WIKI_HTML_ALLOWLIST.urlAttributes);
/** htmlparser2's openImpliesClose, for the tags of the allowlist: opening one of these closes an open `p`. */
const CLOSES_P = new Set(['p', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'figure', 'ol', 'pre', 'ul']);

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const ENTITY = /&(?:amp|lt|gt|quot|#39);/g;
const TEXT = /^[^<>\0\r]*$/;
const TAG = /<(\/?)([a-z][a-z0-9]*)((?: [a-z]+="[^"<>]*")*)( ?\/)?>/y;
const ATTRIBUTE = / ([a-z]+)="([^"]*)"/g;
const SCHEME = /^([a-zA-Z][a-zA-Z0-9.\-+]*):/;

/** The decoded text, or undefined when an `&` starts anything but the five entities the renderer writes. */
function decoded(text: string): string | undefined {
  if (!text.includes('&')) return text;
  if (text.replace(ENTITY, '').includes('&')) return undefined;
  return text.replace(ENTITY, (entity) => ENTITIES[entity]);
}

const escapeText = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeValue = (value: string): string => escapeText(value).replace(/"/g, '&quot;');

/** Whether sanitize-html keeps this URL (launder's naughtyHref, for values with no character below U+0021). */
function keepsUrl(tag: string, url: string): boolean | undefined {
  // eslint-disable-next-line no-control-regex -- launder removes these before it looks: leave such values to it
  if (/[\x00-\x20]/.test(url) || url.includes('<!--')) return undefined;
  const scheme = SCHEME.exec(url);
  if (!scheme) return !/^[/\\]{2}/.test(url);
  return (tag === 'img' ? IMAGE_URL_SCHEMES : WIKI_HTML_ALLOWLIST.allowedSchemes).includes(scheme[1].toLowerCase());
}

/** The attributes of an opening tag as sanitize-html writes them, or undefined outside the grammar. */
function attributes(tag: string, source: string): string | undefined {
  if (!source) return '';
  const allowed = WIKI_HTML_ALLOWLIST.allowedAttributes[tag];
  if (!allowed) return undefined;
  const seen = new Set<string>();
  let written = '';
  for (const [, name, raw] of source.matchAll(ATTRIBUTE)) {
    if (!allowed.includes(name) || seen.has(name)) return undefined;
    seen.add(name);
    const value = decoded(raw);
    if (value === undefined) return undefined;
    if (value === '') {
      if (name !== 'alt') return undefined;
      written += ' alt=""';
      continue;
    }
    if (URL_ATTRIBUTES.has(name) && keepsUrl(tag, value) !== true) return undefined;
    written += ` ${name}="${escapeValue(value)}"`;
  }
  return written;
}

/** What sanitize-html answers for `html`, when `html` is of the renderer's shape; otherwise undefined. */
export function sanitizeKnownHtml(html: string): string | undefined {
  const open: string[] = [];
  let out = '';
  let at = 0;
  while (at < html.length) {
    const next = html.indexOf('<', at);
    const text = html.slice(at, next === -1 ? html.length : next);
    if (text) {
      if (!TEXT.test(text)) return undefined;
      const plain = decoded(text);
      if (plain === undefined) return undefined;
      out += escapeText(plain);
    }
    if (next === -1) break;
    TAG.lastIndex = next;
    const tag = TAG.exec(html);
    if (!tag) return undefined;
    const [whole, closing, name, attributeSource, selfClosing] = tag;
    if (!ALLOWED_TAGS.has(name)) return undefined;
    if (closing) {
      if (attributeSource || selfClosing || open.pop() !== name) return undefined;
      out += `</${name}>`;
    } else {
      const top = open[open.length - 1];
      if ((top === 'p' && CLOSES_P.has(name)) || (top === 'li' && name === 'li')) return undefined;
      const written = attributes(name, attributeSource);
      if (written === undefined) return undefined;
      if (VOID_TAGS.has(name)) out += `<${name}${written} />`;
      else if (selfClosing) return undefined;
      else {
        open.push(name);
        out += `<${name}${written}>`;
      }
    }
    at = next + whole.length;
  }
  return open.length ? undefined : out;
}
