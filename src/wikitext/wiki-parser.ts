import { blockEvents } from './block-lines';
import { parseInline } from './inline-parser';
import { MAX_INPUT_LENGTH, MAX_NESTING_DEPTH } from './limits';
import { NodeType } from './schema';
import type { WikiDoc, WikiNode } from './types';

type ListType = typeof NodeType.bulletList | typeof NodeType.orderedList;

interface OpenList {
  list: WikiNode;
  depth: number;
  type: ListType;
}

/** Cuts input to MAX_INPUT_LENGTH (never inside a surrogate pair) and normalizes newlines. */
export function normalizeInput(raw: string): string {
  let text = raw;
  if (text.length > MAX_INPUT_LENGTH) {
    let end = MAX_INPUT_LENGTH;
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--;
    text = text.slice(0, end);
  }
  if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this strips
  if (text.includes('\u0000')) text = text.replace(/\u0000/g, '\uFFFD');
  return text;
}

function paragraph(inline: WikiNode[]): WikiNode {
  return inline.length > 0 ? { type: NodeType.paragraph, content: inline } : { type: NodeType.paragraph };
}

function headingOf(line: string): WikiNode | null {
  if (line.charCodeAt(0) !== 61 || line.charCodeAt(1) !== 61) return null;
  const trimmed = line.trimEnd();
  let leading = 0;
  while (leading < trimmed.length && trimmed.charCodeAt(leading) === 61) leading++;
  if (leading === trimmed.length) return null;
  let trailing = 0;
  while (trailing < trimmed.length && trimmed.charCodeAt(trimmed.length - 1 - trailing) === 61) trailing++;
  const level = Math.min(leading, trailing, 6);
  if (level < 2) return null;
  const text = trimmed.slice(level, trimmed.length - level).trim();
  if (text === '') return null;
  const content = parseInline(text);
  const node: WikiNode = { type: NodeType.heading, attrs: { level } };
  if (content.length > 0) node.content = content;
  return node;
}

function listLineOf(line: string): { depth: number; type: ListType; text: string } | null {
  const marker = line.charCodeAt(0);
  if (marker !== 42 /* * */ && marker !== 35 /* # */) return null;
  let depth = 0;
  while (depth < line.length && line.charCodeAt(depth) === marker) depth++;
  const after = line.charCodeAt(depth);
  if (depth < line.length && after !== 32 && after !== 9) return null;
  return {
    depth: Math.min(depth, MAX_NESTING_DEPTH),
    type: marker === 42 ? NodeType.bulletList : NodeType.orderedList,
    text: line.slice(depth).trim(),
  };
}

function quoteNode(spec: string): WikiNode {
  // spec is the tag without brackets: "quote", "quote|Attribution", "quote|…|format=featured".
  const parts = spec.split('|').slice(1);
  let format = 'long';
  const attribution: string[] = [];
  for (const part of parts) {
    const option = /^format=([a-z_]{1,32})$/.exec(part.trim());
    if (option) format = option[1];
    else attribution.push(part);
  }
  const attributionText = attribution.join('|').trim();
  // The iFixit schema stores a missing attribution as the string "null".
  const attribute = attributionText === '' ? 'null' : paragraph(parseInline(attributionText));
  return { type: NodeType.blockquote, attrs: { format, attribute }, content: [] };
}

class BlockBuilder {
  readonly doc: WikiDoc = { type: 'doc', content: [] };
  private readonly containers: WikiNode[] = [this.doc];
  private paragraphLines: string[] = [];
  private lists: OpenList[] = [];

  private get container(): WikiNode[] {
    return this.containers[this.containers.length - 1].content as WikiNode[];
  }

  flushParagraph(): void {
    if (this.paragraphLines.length === 0) return;
    this.container.push(paragraph(parseInline(this.paragraphLines.join('\n'))));
    this.paragraphLines = [];
  }

  flushAll(): void {
    this.flushParagraph();
    this.lists = [];
  }

  openQuote(spec: string): void {
    this.flushAll();
    const quote = quoteNode(spec);
    this.container.push(quote);
    this.containers.push(quote);
  }

  closeQuote(): void {
    this.flushAll();
    if (this.containers.length > 1) this.containers.pop();
  }

  block(node: WikiNode): void {
    this.flushAll();
    this.container.push(node);
  }

  paragraphLine(line: string): void {
    this.lists = [];
    this.paragraphLines.push(line);
  }

  listItem(depth: number, type: ListType, text: string): void {
    this.flushParagraph();
    const lists = this.lists;
    while (lists.length > 0 && lists[lists.length - 1].depth > depth) lists.pop();
    const top = lists[lists.length - 1];
    if (top && top.depth === depth && top.type !== type) lists.pop();
    if (lists.length === 0) {
      const root = newList(type);
      this.container.push(root);
      lists.push({ list: root, depth: 1, type });
    }
    let current = lists[lists.length - 1];
    while (current.depth < depth) {
      const items = current.list.content as WikiNode[];
      let parentItem = items[items.length - 1];
      if (!parentItem) {
        parentItem = { type: NodeType.listItem, content: [] };
        items.push(parentItem);
      }
      const nested = newList(type);
      (parentItem.content as WikiNode[]).push(nested);
      current = { list: nested, depth: current.depth + 1, type };
      lists.push(current);
    }
    (current.list.content as WikiNode[]).push({
      type: NodeType.listItem,
      content: [paragraph(parseInline(text))],
    });
  }
}

function newList(type: ListType): WikiNode {
  return type === NodeType.orderedList ? { type, attrs: { order: 1 }, content: [] } : { type, content: [] };
}

/** Parses wiki text into a ProseMirror-style document. Never throws on any string input. */
export function parseWikiText(raw: string): WikiDoc {
  const builder = new BlockBuilder();
  const text = normalizeInput(typeof raw === 'string' ? raw : '');
  for (const event of blockEvents(text)) {
    switch (event.kind) {
      case 'code': {
        const node: WikiNode = { type: NodeType.codeBlock };
        if (event.text !== '') node.content = [{ type: NodeType.text, text: event.text }];
        builder.block(node);
        break;
      }
      case 'quoteOpen':
        builder.openQuote(event.spec);
        break;
      case 'quoteClose':
        builder.closeQuote();
        break;
      case 'line': {
        const line = event.text;
        if (line.trim() === '') {
          builder.flushAll();
          break;
        }
        const heading = headingOf(line);
        if (heading) {
          builder.block(heading);
          break;
        }
        const listLine = listLineOf(line);
        if (listLine) builder.listItem(listLine.depth, listLine.type, listLine.text);
        else builder.paragraphLine(line);
        break;
      }
    }
  }
  builder.flushAll();
  const doc = builder.doc;
  if (doc.content.length === 0) doc.content.push({ type: NodeType.paragraph });
  return doc;
}
