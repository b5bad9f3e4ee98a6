import { isShortLinkHref } from './bracket-syntax';
import { MAX_NESTING_DEPTH } from './limits';
import { MarkType, NodeType, hasMark, linkHref, linkTarget, markRank, numberAttr, stringAttr } from './schema';
import { plainTextOf } from './tree-text';
import type { WikiDoc, WikiMark, WikiNode } from './types';

const SIMPLE_MARK_SYNTAX: Record<string, string> = {
  [MarkType.em]: "''",
  [MarkType.strong]: "'''",
  [MarkType.underline]: '++',
  [MarkType.strikethrough]: '~~',
  [MarkType.subscript]: ',,',
  [MarkType.superscript]: '^^',
  [MarkType.code]: '``',
};

/** How far ahead the serializer looks to decide which newly opened mark should nest outside. */
const PERSISTENCE_LOOKAHEAD = 64;

interface InlineOptions {
  /** Paragraphs write `[br]` followed by a newline; headings and list items keep one line. */
  breakNewline: boolean;
}

function cleanHref(href: string): string {
  return href
    .replace(/[\r\n\t]/g, '')
    .replace(/\|/g, '%7C')
    .replace(/\[/g, '%5B')
    .replace(/\]/g, '%5D')
    .trim();
}

/** Text inside `[…|text]` and reference labels cannot contain brackets or line breaks. */
function cleanLabel(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/\[/g, '(')
    .replace(/\]/g, ')');
}

function markOpen(mark: WikiMark): string {
  if (mark.type === MarkType.link) {
    const href = cleanHref(linkHref(mark));
    return isShortLinkHref(href) ? `[${href}|` : `[link|${href}|`;
  }
  return SIMPLE_MARK_SYNTAX[mark.type] ?? '';
}

function markClose(mark: WikiMark): string {
  if (mark.type === MarkType.link) return linkTarget(mark) === '_blank' ? '|new_window=true]' : ']';
  return SIMPLE_MARK_SYNTAX[mark.type] ?? '';
}

function usableMarks(node: WikiNode): WikiMark[] {
  const result: WikiMark[] = [];
  for (const mark of node.marks ?? []) {
    if (!mark || typeof mark.type !== 'string') continue;
    if (mark.type === MarkType.link) {
      if (node.type !== NodeType.text || cleanHref(linkHref(mark)) === '') continue;
    } else if (SIMPLE_MARK_SYNTAX[mark.type] === undefined) {
      continue;
    }
    if (!hasMark(result, mark)) result.push(mark);
  }
  return result;
}

function optionalLabel(node: WikiNode): string {
  const text = stringAttr(node, 'text');
  return text && text.trim() !== '' ? `|${cleanLabel(text.trim())}` : '';
}

/** Wiki syntax of an inline atom (image, break, references). Exported for the renderer's fallbacks. */
export function atomSyntax(node: WikiNode, options: InlineOptions = { breakNewline: false }): string {
  switch (node.type) {
    case NodeType.hardBreak:
      return options.breakNewline ? '[br]\n' : '[br]';
    case NodeType.image: {
      const id = numberAttr(node, 'imageid');
      if (id === null) return '';
      const align = stringAttr(node, 'align');
      const size = stringAttr(node, 'size');
      const alignPart = align && /^[a-z]{1,16}$/.test(align) ? `|align=${align}` : '';
      const sizePart = size && /^[A-Za-z0-9_]{1,32}$/.test(size) ? `|size=${size}` : '';
      return `[image|${id}${alignPart}${sizePart}]`;
    }
    case NodeType.guideLink:
    case NodeType.documentLink: {
      const isGuide = node.type === NodeType.guideLink;
      const id = numberAttr(node, isGuide ? 'guideid' : 'documentid');
      if (id === null) return cleanLabel(stringAttr(node, 'text') ?? '');
      return `[${isGuide ? 'guide' : 'document'}|${id}${optionalLabel(node)}]`;
    }
    case NodeType.wikiLink: {
      const namespace = stringAttr(node, 'namespace')?.trim() ?? '';
      const title = cleanLabel(stringAttr(node, 'title') ?? '')
        .replace(/\|/g, ' ')
        .trim();
      if (!/^[A-Za-z0-9_.-]{1,64}$/.test(namespace) || title === '') {
        return cleanLabel(stringAttr(node, 'text') ?? '');
      }
      return `[wiki|${namespace}|${title}${optionalLabel(node)}]`;
    }
    case NodeType.productLink: {
      const code = stringAttr(node, 'code')?.trim() ?? '';
      if (!/^[A-Za-z0-9_.-]{1,64}$/.test(code)) return cleanLabel(stringAttr(node, 'text') ?? '');
      return `[product|${code}${optionalLabel(node)}]`;
    }
    case NodeType.video: {
      const src = stringAttr(node, 'src')?.trim() ?? '';
      if (src === '' || /[\s|\]]/.test(src)) return '';
      return `[video|${src}]`;
    }
    default:
      return typeof node.text === 'string' ? cleanLabel(node.text) : '';
  }
}

function leadingSpaceLength(text: string): number {
  let i = 0;
  while (i < text.length && /\s/.test(text[i])) i++;
  return i;
}

function trailingSpaceStart(text: string): number {
  let i = text.length;
  while (i > 0 && /\s/.test(text[i - 1])) i--;
  return i;
}

/**
 * Writes inline nodes, opening and closing marks like a stack. Marks still open from the
 * previous node are kept as a prefix; newly opened marks nest by how long they last (longest
 * outside), which reproduces the iFixit vectors for interleaved marks. Whitespace at the edge
 * of a mark is moved outside it, so markers always touch text.
 */
export function serializeInline(nodes: WikiNode[], options: InlineOptions): string {
  const marksOf = nodes.map(usableMarks);
  const active: WikiMark[] = [];
  let out = '';
  let pendingSpace = '';
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    const nextMarks = i + 1 < nodes.length ? marksOf[i + 1] : [];
    let text = node.type === NodeType.text && typeof node.text === 'string' ? node.text : null;
    if (text === '') continue;
    const isAtom = text === null;
    let marks = marksOf[i];
    if (node.type === NodeType.hardBreak) marks = marks.filter((m) => hasMark(nextMarks, m));
    const mayOpen = !(node.type === NodeType.hardBreak || (text !== null && text.trim() === ''));

    let keep = 0;
    while (keep < active.length && hasMark(marks, active[keep])) keep++;
    while (active.length > keep) out += markClose(active.pop() as WikiMark);
    out += pendingSpace;
    pendingSpace = '';

    const toOpen = mayOpen ? marks.filter((m) => !hasMark(active, m)) : [];
    if (toOpen.length > 0 && text !== null) {
      const lead = leadingSpaceLength(text);
      out += text.slice(0, lead);
      text = text.slice(lead);
    }
    const persistence = (mark: WikiMark): number => {
      let n = 1;
      while (n < PERSISTENCE_LOOKAHEAD && i + n < nodes.length && hasMark(marksOf[i + n], mark)) n++;
      return n;
    };
    const ranked = toOpen.map((mark) => ({ mark, lasts: persistence(mark) }));
    ranked.sort((a, b) => b.lasts - a.lasts || markRank(a.mark) - markRank(b.mark));
    for (const { mark } of ranked) {
      out += markOpen(mark);
      active.push(mark);
    }

    if (isAtom) {
      out += atomSyntax(node, options);
      continue;
    }
    let body = text as string;
    if (active.some((m) => !hasMark(nextMarks, m))) {
      const end = trailingSpaceStart(body);
      pendingSpace = body.slice(end);
      body = body.slice(0, end);
    }
    if (active.some((m) => m.type === MarkType.link)) body = cleanLabel(body);
    out += body;
  }
  while (active.length > 0) out += markClose(active.pop() as WikiMark);
  return out + pendingSpace;
}

/** A following line that would read as block syntax must not start a line inside a paragraph. */
function startsBlock(line: string): boolean {
  if (line.trim() === '') return true;
  const first = line.charCodeAt(0);
  if (first === 42 || first === 35) return true; // * #
  if (line.startsWith('==') || line.startsWith('[code]') || line.startsWith('[quote')) return true;
  const end = line.trimEnd();
  return end.endsWith('[/quote]') || end.endsWith('[/code]');
}

function joinParagraphLines(text: string): string {
  if (!text.includes('\n')) return text;
  const lines = text.split('\n');
  let out = lines[0];
  for (let k = 1; k < lines.length; k++) out += (startsBlock(lines[k]) ? ' ' : '\n') + lines[k];
  return out;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

function inlineContent(node: WikiNode): WikiNode[] {
  return Array.isArray(node.content) ? node.content : [];
}

function serializeParagraph(node: WikiNode): string {
  return joinParagraphLines(serializeInline(inlineContent(node), { breakNewline: true }).trim());
}

function serializeLine(node: WikiNode): string {
  return oneLine(serializeInline(inlineContent(node), { breakNewline: false }).trim());
}

function serializeHeading(node: WikiNode): string {
  const level = Math.min(6, Math.max(2, numberAttr(node, 'level') ?? 2));
  const text = serializeLine(node);
  if (text === '') return '';
  const marks = '='.repeat(level);
  return `${marks} ${text} ${marks}`;
}

function serializeQuote(node: WikiNode, depth: number): string {
  const attribute = node.attrs?.attribute ?? node.attrs?.attribution;
  let attribution = '';
  if (attribute && typeof attribute === 'object') attribution = serializeLine(attribute as WikiNode);
  else if (typeof attribute === 'string' && attribute !== 'null') attribution = oneLine(attribute.trim());
  attribution = attribution.replace(/\]/g, ')');
  const format = stringAttr(node, 'format');
  let head = '[quote';
  if (attribution !== '') head += `|${attribution}`;
  if (format && format !== 'long' && /^[a-z_]{1,32}$/.test(format)) head += `|format=${format}`;
  head += ']';
  return `${head}\n${serializeBlocks(inlineContent(node), depth + 1)}\n\n[/quote]`;
}

function serializeCode(node: WikiNode): string {
  return `[code]\n${plainTextOf(node)}\n[/code]`;
}

function serializeList(list: WikiNode, depth: number, lines: string[]): void {
  const marker = (list.type === NodeType.orderedList ? '#' : '*').repeat(Math.min(depth, MAX_NESTING_DEPTH));
  if (depth > MAX_NESTING_DEPTH * 3) {
    lines.push(`${marker} ${oneLine(plainTextOf(list)).trim()}`);
    return;
  }
  for (const item of inlineContent(list)) {
    const children = item.type === NodeType.listItem ? inlineContent(item) : [item];
    for (const child of children) {
      if (child.type === NodeType.bulletList || child.type === NodeType.orderedList) {
        serializeList(child, depth + 1, lines);
        continue;
      }
      const text =
        child.type === NodeType.paragraph || child.type === NodeType.heading
          ? serializeLine(child)
          : oneLine(plainTextOf(child)).trim();
      lines.push(text === '' ? marker : `${marker} ${text}`);
    }
  }
}

function serializeBlock(node: WikiNode, depth: number): string {
  if (depth > MAX_NESTING_DEPTH * 3) return oneLine(plainTextOf(node)).trim();
  switch (node.type) {
    case NodeType.paragraph:
      return serializeParagraph(node);
    case NodeType.heading:
      return serializeHeading(node);
    case NodeType.codeBlock:
      return serializeCode(node);
    case NodeType.blockquote:
      return serializeQuote(node, depth);
    case NodeType.bulletList:
    case NodeType.orderedList: {
      const lines: string[] = [];
      serializeList(node, 1, lines);
      return lines.join('\n');
    }
    case NodeType.text:
      return serializeParagraph({ type: NodeType.paragraph, content: [node] });
    default:
      if (Array.isArray(node.content)) return serializeBlocks(node.content, depth + 1);
      return serializeParagraph({ type: NodeType.paragraph, content: [node] });
  }
}

function serializeBlocks(nodes: WikiNode[], depth: number): string {
  const parts: string[] = [];
  for (const node of nodes) {
    if (!node || typeof node !== 'object') continue;
    const part = serializeBlock(node, depth);
    if (part !== '') parts.push(part);
  }
  return parts.join('\n\n');
}

/** Serializes a document tree back to wiki text. */
export function wikiTextFromDoc(doc: WikiDoc): string {
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.content)) return '';
  return serializeBlocks(doc.content, 0);
}
