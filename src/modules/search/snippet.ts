import { fold } from './search-query';

/** Characters of text a snippet shows (before escaping and marks). */
export const SNIPPET_LENGTH = 200;
/** How much text before the first match a snippet keeps. */
const LEAD = 60;

const WORD = /[\p{L}\p{N}]+/gu;

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/**
 * Plain text of wiki text or HTML for the index and snippets: tags, link brackets and markup characters
 * go; `[link|target|label]` keeps its words. Whitespace collapses to single spaces.
 */
export function plainText(markup: string): string {
  return markup
    .replace(/<\/?[a-z][^<>]*>/gi, ' ')
    .replace(/&[a-z]+;|&#\d+;/gi, ' ')
    .replace(/'{2,}|={2,}|\[|\]|\{\{|\}\}|\|/g, ' ')
    .replace(/^[*#:;]+/gm, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

interface WordSpan {
  start: number;
  end: number;
  hit: boolean;
}

/**
 * An HTML snippet of `text` around its first word that matches one of `words` (folded; a text word
 * matches when it starts with a query word, so "batt" marks "Battery" and "resume" marks "Résumé"):
 * everything escaped, each matching word in `<mark>`, `…` where text was cut. Without a match, the
 * start of the text. Pure.
 */
export function snippet(text: string, words: string[], length = SNIPPET_LENGTH): string {
  const folded = words.map(fold).filter((w) => w.length > 0);
  const spans: WordSpan[] = [];
  for (const match of text.matchAll(WORD)) {
    const start = match.index ?? 0;
    const word = fold(match[0]);
    spans.push({ start, end: start + match[0].length, hit: folded.some((w) => word.startsWith(w)) });
  }
  const first = spans.find((span) => span.hit);
  let from = 0;
  if (first && first.start > LEAD) {
    // Start at a word boundary about LEAD characters before the match.
    const before = spans.find((span) => span.start >= first.start - LEAD);
    from = before ? before.start : first.start;
  }
  let to = Math.min(text.length, from + length);
  if (to < text.length) {
    // End after the last whole word that fits (a word longer than the whole snippet is cut).
    const last = [...spans].reverse().find((span) => span.end <= to && span.start >= from);
    if (last && last.end > from) to = last.end;
  }
  let html = from > 0 ? '…' : '';
  let at = from;
  for (const span of spans) {
    if (!span.hit || span.start < from || span.end > to) continue;
    html += `${escapeHtml(text.slice(at, span.start))}<mark>${escapeHtml(text.slice(span.start, span.end))}</mark>`;
    at = span.end;
  }
  html += escapeHtml(text.slice(at, to));
  if (to < text.length) html += '…';
  return html;
}

/** Whether any word of `text` starts with one of `words` (folded). */
export function mentions(text: string, words: string[]): boolean {
  const folded = words.map(fold).filter((w) => w.length > 0);
  for (const match of text.matchAll(WORD)) {
    const word = fold(match[0]);
    if (folded.some((w) => word.startsWith(w))) return true;
  }
  return false;
}
