import { XMLBuilder } from 'fast-xml-parser';

const XML_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const ATTR = '@_';

/**
 * What XML output writes instead of a character: markup escaped, and CR (and, in attribute values, tab and LF) as
 * character references because a parser would turn them into LF or spaces. Code points XML 1.0 forbids (C0
 * controls other than tab, LF and CR; U+FFFE, U+FFFF; lone surrogates) have no reference at all: they become
 * U+FFFD. JSON answers keep every character as stored.
 */
const TEXT_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  "'": '&apos;',
  '"': '&quot;',
  '\r': '&#xD;',
};
const ATTRIBUTE_ESCAPES: Record<string, string> = { ...TEXT_ESCAPES, '\t': '&#x9;', '\n': '&#xA;' };
// eslint-disable-next-line no-control-regex -- matching the control characters XML forbids is the point
const TEXT_SPECIAL = /[\u0000-\u0008\u000B-\u001F&<>'"\uFFFE\uFFFF]|[\uD800-\uDFFF]/gu;
// eslint-disable-next-line no-control-regex -- as TEXT_SPECIAL, plus tab and LF
const ATTRIBUTE_SPECIAL = /[\u0000-\u001F&<>'"\uFFFE\uFFFF]|[\uD800-\uDFFF]/gu;
const REPLACEMENT = '\uFFFD';

/** A string as XML character data (one pass, linear in its length). */
export const xmlText = (value: string): string => value.replace(TEXT_SPECIAL, (c) => TEXT_ESCAPES[c] ?? REPLACEMENT);

/** A string as the value of a double-quoted XML attribute. */
export const xmlAttribute = (value: string): string =>
  value.replace(ATTRIBUTE_SPECIAL, (c) => ATTRIBUTE_ESCAPES[c] ?? REPLACEMENT);

/**
 * Turns a JSON value into the element tree fast-xml-parser builds from, its strings already escaped: arrays
 * become repeated `<item>` children of their field's element, and keys that are not valid XML names (such as
 * the `140x105` image size, or any key taken from input) become `<entry key="140x105">`.
 */
function toXmlTree(value: unknown): unknown {
  if (Array.isArray(value)) return { item: value.map(toXmlTree) };
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return xmlText(value);
  if (typeof value !== 'object') return value;
  const tree: Record<string, unknown> = {};
  const entries: unknown[] = [];
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (XML_NAME.test(key) && !key.toLowerCase().startsWith('xml')) tree[key] = toXmlTree(child);
    else entries.push(wrapEntry(xmlAttribute(key), toXmlTree(child)));
  }
  if (entries.length) tree.entry = entries;
  return tree;
}

function wrapEntry(key: string, child: unknown): unknown {
  if (child !== null && typeof child === 'object') return { [`${ATTR}key`]: key, ...child };
  return { [`${ATTR}key`]: key, '#text': child };
}

export function toXml(root: string, value: unknown, pretty: boolean): string {
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    attributeNamePrefix: ATTR,
    format: pretty,
    suppressEmptyNode: false,
    suppressBooleanAttributes: false,
    // toXmlTree escapes every string itself (the builder's escaping knows nothing of forbidden characters).
    processEntities: false,
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ [root]: toXmlTree(value) })}`;
}
