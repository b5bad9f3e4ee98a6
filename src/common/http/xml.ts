import { XMLBuilder } from 'fast-xml-parser';

const XML_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const ATTR = '@_';

/**
 * Turns a JSON value into the element tree fast-xml-parser builds from: arrays become repeated
 * `<item>` children of their field's element, and keys that are not valid XML names (such as the
 * `140x105` image size) become `<entry key="140x105">`.
 */
function toXmlTree(value: unknown): unknown {
  if (Array.isArray(value)) return { item: value.map(toXmlTree) };
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return value;
  const tree: Record<string, unknown> = {};
  const entries: unknown[] = [];
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (XML_NAME.test(key) && !key.toLowerCase().startsWith('xml')) tree[key] = toXmlTree(child);
    else entries.push(wrapEntry(key, toXmlTree(child)));
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
    processEntities: true,
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ [root]: toXmlTree(value) })}`;
}
