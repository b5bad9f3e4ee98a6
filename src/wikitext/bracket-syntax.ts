import { MAX_ID_DIGITS } from './limits';
import { MarkType, NodeType } from './schema';
import type { WikiMark, WikiNode } from './types';

/** What a `[…]` construct on one line means. Ranges are offsets into the block source. */
export type BracketMeaning =
  { kind: 'atom'; node: WikiNode } | { kind: 'link'; mark: WikiMark; textFrom: number; textTo: number };

interface Segment {
  from: number;
  to: number;
  value: string;
}

const SHORT_LINK_HREF = /^(?:[A-Za-z][A-Za-z0-9+.-]{0,31}:|[/#])\S*$/;
const ID = new RegExp(`^\\d{1,${MAX_ID_DIGITS}}$`);
const OPTION = /^([a-z_]{1,32})=(.*)$/;
const NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** Whether `href` can be written as `[href|text]` rather than `[link|href|text]`. */
export function isShortLinkHref(href: string): boolean {
  return href.length <= 4096 && SHORT_LINK_HREF.test(href);
}

function splitSegments(src: string, from: number, to: number): Segment[] {
  const segments: Segment[] = [];
  let start = from;
  for (let i = from; i <= to; i++) {
    if (i === to || src.charCodeAt(i) === 124 /* | */) {
      segments.push({ from: start, to: i, value: src.slice(start, i) });
      start = i + 1;
    }
  }
  return segments;
}

function textOf(segments: Segment[]): string | null {
  if (segments.length === 0) return null;
  const text = segments
    .map((s) => s.value)
    .join('|')
    .trim();
  return text === '' ? null : text;
}

function parseLink(src: string, href: string, rest: Segment[]): BracketMeaning | null {
  href = href.trim();
  if (href === '') return null;
  let target: string | null = null;
  let end = rest.length;
  while (end > 0) {
    const option = /^new_window=(true|false)$/.exec(rest[end - 1].value.trim());
    if (!option) break;
    if (option[1] === 'true') target = '_blank';
    end--;
  }
  const textSegments = rest.slice(0, end);
  const mark: WikiMark = { type: MarkType.link, attrs: { href, title: '', target } };
  if (textSegments.length === 0 || textOf(textSegments) === null) {
    // `[https://example.com]`: the URL is its own text; textFrom === -1 signals that.
    return { kind: 'link', mark, textFrom: -1, textTo: -1 };
  }
  return {
    kind: 'link',
    mark,
    textFrom: textSegments[0].from,
    textTo: textSegments[textSegments.length - 1].to,
  };
}

function parseImage(segments: Segment[]): WikiNode | null {
  const id = segments[1]?.value.trim() ?? '';
  if (!ID.test(id)) return null;
  let align: string | null = null;
  let size: string | null = null;
  for (const segment of segments.slice(2)) {
    const option = OPTION.exec(segment.value.trim());
    if (!option) continue;
    if (option[1] === 'align' && /^[a-z]{1,16}$/.test(option[2])) align = option[2];
    if (option[1] === 'size' && /^[A-Za-z0-9_]{1,32}$/.test(option[2])) size = option[2];
  }
  return { type: NodeType.image, attrs: { imageid: Number(id), align, size } };
}

function parseIdReference(type: string, idAttr: string, segments: Segment[]): WikiNode | null {
  const id = segments[1]?.value.trim() ?? '';
  if (!ID.test(id)) return null;
  return { type, attrs: { [idAttr]: Number(id), text: textOf(segments.slice(2)) } };
}

function parseWiki(segments: Segment[]): WikiNode | null {
  const namespace = segments[1]?.value.trim() ?? '';
  const title = segments[2]?.value.trim() ?? '';
  if (!NAME.test(namespace) || title === '') return null;
  return { type: NodeType.wikiLink, attrs: { namespace, title, text: textOf(segments.slice(3)) } };
}

function parseProduct(segments: Segment[]): WikiNode | null {
  const code = segments[1]?.value.trim() ?? '';
  if (!NAME.test(code)) return null;
  return { type: NodeType.productLink, attrs: { code, text: textOf(segments.slice(2)) } };
}

function parseVideo(segments: Segment[]): WikiNode | null {
  const url = segments[1]?.value.trim() ?? '';
  if (url === '' || /\s/.test(url)) return null;
  return { type: NodeType.video, attrs: { src: url } };
}

/**
 * Interprets the content between `[` and `]` (exclusive offsets). Returns null for anything
 * unknown or malformed; the caller then keeps the brackets as literal text.
 */
export function parseBracket(src: string, from: number, to: number): BracketMeaning | null {
  const segments = splitSegments(src, from, to);
  const keyword = segments[0].value;
  const atom = (node: WikiNode | null): BracketMeaning | null => (node ? { kind: 'atom', node } : null);
  switch (keyword) {
    case 'br':
      return segments.length === 1 ? { kind: 'atom', node: { type: NodeType.hardBreak } } : null;
    case 'link':
      return segments.length >= 2 ? parseLink(src, segments[1].value, segments.slice(2)) : null;
    case 'image':
      return atom(parseImage(segments));
    case 'guide':
      return atom(parseIdReference(NodeType.guideLink, 'guideid', segments));
    case 'document':
      return atom(parseIdReference(NodeType.documentLink, 'documentid', segments));
    case 'wiki':
      return atom(parseWiki(segments));
    case 'product':
      return atom(parseProduct(segments));
    case 'video':
      return atom(parseVideo(segments));
    default:
      return isShortLinkHref(keyword) ? parseLink(src, keyword, segments.slice(1)) : null;
  }
}
