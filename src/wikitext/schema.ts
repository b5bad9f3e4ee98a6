import type { WikiDoc, WikiMark, WikiNode } from './types';

/** Block and inline node names (the first group follows the iFixit ProseMirror vectors). */
export const NodeType = {
  doc: 'doc',
  paragraph: 'paragraph',
  text: 'text',
  heading: 'heading',
  bulletList: 'bullet_list',
  orderedList: 'ordered_list',
  listItem: 'list_item',
  codeBlock: 'code_block',
  blockquote: 'blockquote',
  image: 'image',
  hardBreak: 'hard_break',
  // Our own inline atoms for references (not covered by the vectors).
  guideLink: 'guide_link',
  documentLink: 'document_link',
  wikiLink: 'wiki_link',
  productLink: 'product_link',
  video: 'video',
} as const;

export const MarkType = {
  link: 'link',
  em: 'em',
  strong: 'strong',
  underline: 'underline',
  strikethrough: 'strikethrough',
  subscript: 'subscript',
  superscript: 'superscript',
  code: 'code',
} as const;

/** Schema order of marks: lower rank nests outside higher rank when nothing else decides. */
const MARK_RANK: Record<string, number> = {
  link: 0,
  em: 1,
  strong: 2,
  underline: 3,
  strikethrough: 4,
  subscript: 5,
  superscript: 6,
  code: 7,
};

export function markRank(mark: WikiMark): number {
  return MARK_RANK[mark.type] ?? 99;
}

export function sortMarks(marks: WikiMark[]): WikiMark[] {
  return [...marks].sort((a, b) => markRank(a) - markRank(b));
}

export function marksEqual(a: WikiMark, b: WikiMark): boolean {
  if (a.type !== b.type) return false;
  if (a.type !== MarkType.link) return true;
  return linkHref(a) === linkHref(b) && linkTarget(a) === linkTarget(b);
}

export function markSetsEqual(a: readonly WikiMark[], b: readonly WikiMark[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((mark) => b.some((other) => marksEqual(mark, other)));
}

export function hasMark(marks: readonly WikiMark[] | undefined, mark: WikiMark): boolean {
  return !!marks && marks.some((other) => marksEqual(mark, other));
}

export function linkHref(mark: WikiMark): string {
  const href = mark.attrs?.href;
  return typeof href === 'string' ? href : '';
}

export function linkTarget(mark: WikiMark): string | null {
  const target = mark.attrs?.target;
  return typeof target === 'string' && target !== '' ? target : null;
}

export function emptyDoc(): WikiDoc {
  return { type: 'doc', content: [{ type: NodeType.paragraph }] };
}

export function isBlockWithInlineContent(node: WikiNode): boolean {
  return node.type === NodeType.paragraph || node.type === NodeType.heading;
}

export function stringAttr(node: WikiNode | WikiMark, name: string): string | null {
  const value = node.attrs?.[name];
  return typeof value === 'string' ? value : null;
}

export function numberAttr(node: WikiNode | WikiMark, name: string): number | null {
  const value = node.attrs?.[name];
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return null;
}
