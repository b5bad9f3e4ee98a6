import { MAX_NESTING_DEPTH } from './limits';

/** The block-level shape of the input after code blocks and quotes have been matched. */
export type BlockEvent =
  | { kind: 'line'; text: string; source: number }
  | { kind: 'code'; text: string }
  | { kind: 'quoteOpen'; spec: string; literal: string; source: number }
  | { kind: 'quoteClose'; literal: string; source: number };

const CODE_OPEN = '[code]';
const CODE_CLOSE = '[/code]';
const QUOTE_CLOSE = '[/quote]';

function endsWithCodeClose(line: string, minStart: number): boolean {
  const trimmed = line.trimEnd();
  return trimmed.endsWith(CODE_CLOSE) && trimmed.length - CODE_CLOSE.length >= minStart;
}

function stripOneNewline(text: string): string {
  let start = 0;
  let end = text.length;
  if (text.charCodeAt(0) === 10) start = 1;
  if (end > start && text.charCodeAt(end - 1) === 10) end--;
  return text.slice(start, end);
}

/** `[quote]`, `[quote|…]` at the start of a line: returns the offset of its `]`, or -1. */
function quoteOpenEnd(line: string): number {
  if (!line.startsWith('[quote')) return -1;
  const next = line.charCodeAt(6);
  if (next !== 93 /* ] */ && next !== 124 /* | */) return -1;
  return line.indexOf(']', 6);
}

function codeBlockText(lines: string[], start: number, end: number): string {
  const first = lines[start].slice(CODE_OPEN.length);
  if (start === end) {
    const trimmed = first.trimEnd();
    return trimmed.slice(0, trimmed.length - CODE_CLOSE.length);
  }
  const parts = [first];
  for (let k = start + 1; k < end; k++) parts.push(lines[k]);
  const last = lines[end].trimEnd();
  parts.push(last.slice(0, last.length - CODE_CLOSE.length));
  return stripOneNewline(parts.join('\n'));
}

/** Splits lines into events, finding `[code]` blocks and quote openers/closers in one pass. */
function scanLines(lines: string[]): BlockEvent[] {
  // nextCodeClose[i]: first line >= i that ends with [/code] (linear backward pass).
  const nextCodeClose = new Int32Array(lines.length + 1).fill(-1);
  for (let k = lines.length - 1; k >= 0; k--) {
    nextCodeClose[k] = endsWithCodeClose(lines[k], 0) ? k : nextCodeClose[k + 1];
  }
  const events: BlockEvent[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith(CODE_OPEN)) {
      let end = nextCodeClose[i];
      if (end === i && !endsWithCodeClose(line, CODE_OPEN.length)) end = nextCodeClose[i + 1];
      if (end !== -1) {
        events.push({ kind: 'code', text: codeBlockText(lines, i, end) });
        i = end;
        continue;
      }
    }
    let body = line;
    let opened = false;
    const openEnd = quoteOpenEnd(line);
    if (openEnd !== -1) {
      const literal = line.slice(0, openEnd + 1);
      events.push({ kind: 'quoteOpen', spec: line.slice(1, openEnd), literal, source: i });
      body = line.slice(openEnd + 1);
      opened = true;
    }
    const trimmed = body.trimEnd();
    if (trimmed.endsWith(QUOTE_CLOSE)) {
      const before = trimmed.slice(0, trimmed.length - QUOTE_CLOSE.length);
      if (before.trim() !== '') events.push({ kind: 'line', text: before, source: i });
      events.push({ kind: 'quoteClose', literal: body.slice(before.length), source: i });
    } else if (!opened || body.trim() !== '') {
      events.push({ kind: 'line', text: body, source: i });
    }
  }
  return events;
}

/**
 * Pairs quote openers with closers. Unpaired ones, and pairs nested deeper than
 * MAX_NESTING_DEPTH, become literal text (merged back into their source line).
 */
function matchQuotes(events: BlockEvent[]): BlockEvent[] {
  const keep = new Uint8Array(events.length);
  const stack: number[] = [];
  events.forEach((event, index) => {
    if (event.kind === 'quoteOpen') {
      stack.push(index);
    } else if (event.kind === 'quoteClose' && stack.length > 0) {
      const depth = stack.length;
      const opener = stack.pop() as number;
      if (depth <= MAX_NESTING_DEPTH) {
        keep[opener] = 1;
        keep[index] = 1;
      }
    }
  });
  const result: BlockEvent[] = [];
  events.forEach((event, index) => {
    if ((event.kind === 'quoteOpen' || event.kind === 'quoteClose') && !keep[index]) {
      event = { kind: 'line', text: event.literal, source: event.source };
    }
    const previous = result[result.length - 1];
    // Two line events from one source line only happen when a quote tag on it stayed literal.
    if (event.kind === 'line' && previous?.kind === 'line' && previous.source === event.source) {
      previous.text += event.text;
      return;
    }
    result.push(event);
  });
  return result;
}

export function blockEvents(text: string): BlockEvent[] {
  return matchQuotes(scanLines(text.split('\n')));
}
