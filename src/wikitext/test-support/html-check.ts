import { Parser } from 'htmlparser2';
import { WIKI_HTML_ALLOWLIST } from '../sanitize-policy';

// eslint-disable-next-line no-control-regex -- control characters are exactly what this strips
const CONTROL_AND_SPACE = /[\s\u0000-\u001F\u007F-\u009F\u00AD\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF]/g;

function decodeEntitiesAgain(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_m, hex: string) => String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff)))
    .replace(/&#(\d+);?/g, (_m, dec: string) => String.fromCodePoint(Math.min(parseInt(dec, 10), 0x10ffff)))
    .replace(/&colon;?/gi, ':')
    .replace(/&tab;?/gi, '\t')
    .replace(/&newline;?/gi, '\n');
}

/** True when a URL attribute is http(s), mailto or relative after decoding and stripping controls. */
export function isAllowedUrl(value: string): boolean {
  const normalized = decodeEntitiesAgain(value).replace(CONTROL_AND_SPACE, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(normalized);
  if (scheme) return (WIKI_HTML_ALLOWLIST.allowedSchemes as readonly string[]).includes(scheme[1].toLowerCase());
  const cut = normalized.search(/[/?#]/);
  const head = cut === -1 ? normalized : normalized.slice(0, cut);
  return !head.includes(':') && !normalized.startsWith('//');
}

/** Parses HTML with htmlparser2 and lists every violation of the allow-list. */
export function htmlViolations(html: string): string[] {
  const problems: string[] = [];
  const tags = WIKI_HTML_ALLOWLIST.allowedTags as readonly string[];
  const attributes = WIKI_HTML_ALLOWLIST.allowedAttributes;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (!tags.includes(name)) problems.push(`tag <${name}>`);
        for (const [attr, value] of Object.entries(attribs)) {
          if (attr.toLowerCase().startsWith('on')) problems.push(`event handler ${attr} on <${name}>`);
          if (!(attributes[name] ?? []).includes(attr)) problems.push(`attribute ${attr} on <${name}>`);
          if ((attr === 'href' || attr === 'src') && !isAllowedUrl(value)) {
            problems.push(`url ${attr}=${JSON.stringify(value)} on <${name}>`);
          }
        }
      },
      onprocessinginstruction(name) {
        problems.push(`processing instruction ${name}`);
      },
      oncomment() {
        problems.push('comment');
      },
      oncdatastart() {
        problems.push('cdata');
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  return problems;
}
