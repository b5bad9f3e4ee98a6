import { parseBracket } from './bracket-syntax';
import { MarkType, NodeType, markSetsEqual, sortMarks } from './schema';
import type { WikiMark, WikiNode } from './types';

/** Marks written as a doubled character that opens and closes the same way (`++u++`). */
const PAIR_MARKS: Record<number, string> = {
  43: MarkType.underline, // ++
  44: MarkType.subscript, // ,,
  94: MarkType.superscript, // ^^
  96: MarkType.code, // ``
  126: MarkType.strikethrough, // ~~
};

const APOSTROPHE = 39;
const OPEN_BRACKET = 91;
const NEWLINE = 10;

type Token =
  | { kind: 'text'; text: string }
  | { kind: 'toggle'; mark: string; literal: string; live: boolean }
  | { kind: 'linkOpen'; mark: WikiMark }
  | { kind: 'linkClose' }
  | { kind: 'atom'; node: WikiNode };

/**
 * Meaning of a run of n apostrophes as toggles of strong/em, chosen so that every run the
 * serializer can write (closes followed by opens) reads back as the same net change:
 * 7 = close em, close strong, reopen em; 8 = close strong, close em, reopen strong.
 */
function apostropheRun(n: number): { literal: number; toggles: string[] } {
  switch (n) {
    case 2:
      return { literal: 0, toggles: [MarkType.em] };
    case 3:
      return { literal: 0, toggles: [MarkType.strong] };
    case 4:
      return { literal: 1, toggles: [MarkType.strong] };
    case 5:
      return { literal: 0, toggles: [MarkType.strong, MarkType.em] };
    case 6:
      return { literal: 1, toggles: [MarkType.strong, MarkType.em] };
    case 7:
      return { literal: 0, toggles: [MarkType.strong] };
    case 8:
      return { literal: 0, toggles: [MarkType.em] };
    default:
      return { literal: n - 5, toggles: [MarkType.strong, MarkType.em] };
  }
}

function isSpace(code: number): boolean {
  if (code <= 32) return true;
  if (code < 128) return false;
  return /\s/.test(String.fromCharCode(code));
}

const MARKER_TEXT: Record<string, string> = {
  [MarkType.em]: "''",
  [MarkType.strong]: "'''",
  [MarkType.underline]: '++',
  [MarkType.subscript]: ',,',
  [MarkType.superscript]: '^^',
  [MarkType.code]: '``',
  [MarkType.strikethrough]: '~~',
};

class Tokenizer {
  readonly tokens: Token[] = [];
  private readonly open = new Set<string>();
  private nextClose = -1;
  private nextOpen = -1;
  private nextNewline = -1;

  constructor(private readonly src: string) {}

  /** A toggle may open only before a non-space and close only after a non-space. */
  private canToggle(mark: string, before: number, after: number): boolean {
    if (this.open.has(mark)) return before >= 0 && !isSpace(this.src.charCodeAt(before));
    return after < this.src.length && !isSpace(this.src.charCodeAt(after));
  }

  private pushText(text: string): void {
    if (text !== '') this.tokens.push({ kind: 'text', text });
  }

  private pushToggles(marks: string[], literalPrefix: string): void {
    this.pushText(literalPrefix);
    // Closing toggles first, then opening ones: the order the serializer writes them.
    const ordered = [...marks.filter((m) => this.open.has(m)), ...marks.filter((m) => !this.open.has(m))];
    for (const mark of ordered) {
      this.tokens.push({ kind: 'toggle', mark, literal: MARKER_TEXT[mark], live: true });
      if (this.open.has(mark)) this.open.delete(mark);
      else this.open.add(mark);
    }
  }

  /** Offset of the `]` closing a construct opened at `start`, or -1 when there is none on this line. */
  private bracketEnd(start: number, end: number): number {
    const src = this.src;
    if (this.nextClose !== -2 && this.nextClose <= start) {
      const found = src.indexOf(']', start + 1);
      this.nextClose = found === -1 ? -2 : found;
    }
    if (this.nextClose === -2 || this.nextClose >= end) return -1;
    if (this.nextOpen !== -2 && this.nextOpen <= start) {
      const found = src.indexOf('[', start + 1);
      this.nextOpen = found === -1 ? -2 : found;
    }
    if (this.nextOpen !== -2 && this.nextOpen < this.nextClose) return -1;
    if (this.nextNewline !== -2 && this.nextNewline <= start) {
      const found = src.indexOf('\n', start + 1);
      this.nextNewline = found === -1 ? -2 : found;
    }
    if (this.nextNewline !== -2 && this.nextNewline < this.nextClose) return -1;
    return this.nextClose;
  }

  run(from: number, to: number, allowBrackets: boolean): void {
    const src = this.src;
    let textStart = from;
    let i = from;
    while (i < to) {
      const code = src.charCodeAt(i);
      if (code === APOSTROPHE) {
        let j = i + 1;
        while (j < to && src.charCodeAt(j) === APOSTROPHE) j++;
        const n = j - i;
        if (n >= 2) {
          const run = apostropheRun(n);
          if (run.toggles.every((mark) => this.canToggle(mark, i - 1, j))) {
            this.pushText(src.slice(textStart, i));
            this.pushToggles(run.toggles, src.slice(i, i + run.literal));
            textStart = j;
          }
        }
        i = j;
        continue;
      }
      const pairMark = PAIR_MARKS[code];
      if (pairMark !== undefined && i + 1 < to && src.charCodeAt(i + 1) === code) {
        if (this.canToggle(pairMark, i - 1, i + 2)) {
          this.pushText(src.slice(textStart, i));
          this.pushToggles([pairMark], '');
          textStart = i + 2;
        }
        i += 2;
        continue;
      }
      if (code === OPEN_BRACKET && allowBrackets) {
        const end = this.bracketEnd(i, to);
        const meaning = end === -1 ? null : parseBracket(src, i + 1, end);
        if (meaning) {
          this.pushText(src.slice(textStart, i));
          if (meaning.kind === 'atom') {
            this.tokens.push({ kind: 'atom', node: meaning.node });
          } else {
            this.tokens.push({ kind: 'linkOpen', mark: meaning.mark });
            if (meaning.textFrom === -1) {
              const href = meaning.mark.attrs?.href;
              this.pushText(typeof href === 'string' ? href : '');
            } else this.run(meaning.textFrom, meaning.textTo, false);
            this.tokens.push({ kind: 'linkClose' });
          }
          i = end + 1;
          // `[br]` at the end of a line owns that newline (the serializer writes `[br]\n`).
          if (meaning.kind === 'atom' && meaning.node.type === NodeType.hardBreak && src.charCodeAt(i) === NEWLINE) i++;
          textStart = i;
          continue;
        }
      }
      i++;
    }
    this.pushText(src.slice(textStart, to));
  }
}

/** Unmatched toggles (the last one of an odd count per mark) become literal text. */
function dropUnmatchedToggles(tokens: Token[]): void {
  const lastLive = new Map<string, number>();
  const counts = new Map<string, number>();
  tokens.forEach((token, index) => {
    if (token.kind !== 'toggle') return;
    counts.set(token.mark, (counts.get(token.mark) ?? 0) + 1);
    lastLive.set(token.mark, index);
  });
  for (const [mark, count] of counts) {
    if (count % 2 === 1) {
      const token = tokens[lastLive.get(mark) as number];
      if (token.kind === 'toggle') token.live = false;
    }
  }
}

class InlineBuilder {
  readonly nodes: WikiNode[] = [];
  private readonly toggled = new Set<string>();
  private link: WikiMark | null = null;
  private marks: WikiMark[] = [];

  private refreshMarks(): void {
    const marks: WikiMark[] = [];
    if (this.link) marks.push(this.link);
    for (const type of this.toggled) marks.push({ type });
    this.marks = sortMarks(marks);
  }

  toggle(mark: string): void {
    if (this.toggled.has(mark)) this.toggled.delete(mark);
    else this.toggled.add(mark);
    this.refreshMarks();
  }

  setLink(mark: WikiMark | null): void {
    this.link = mark;
    this.refreshMarks();
  }

  text(text: string): void {
    const last = this.nodes[this.nodes.length - 1];
    if (last && last.type === NodeType.text && markSetsEqual(last.marks ?? [], this.marks)) {
      last.text += text;
      return;
    }
    const node: WikiNode = { type: NodeType.text, text };
    if (this.marks.length > 0) node.marks = this.marks.map((m) => ({ ...m }));
    this.nodes.push(node);
  }

  atom(node: WikiNode): void {
    if (this.marks.length > 0) node.marks = this.marks.map((m) => ({ ...m }));
    this.nodes.push(node);
  }
}

/** Parses one block's inline wiki text into ProseMirror-style inline nodes. */
export function parseInline(src: string): WikiNode[] {
  const tokenizer = new Tokenizer(src);
  tokenizer.run(0, src.length, true);
  const tokens = tokenizer.tokens;
  dropUnmatchedToggles(tokens);
  const builder = new InlineBuilder();
  // Text pieces are concatenated lazily so long runs of plain text stay linear.
  let pending = '';
  const flush = (): void => {
    if (pending !== '') builder.text(pending);
    pending = '';
  };
  for (const token of tokens) {
    switch (token.kind) {
      case 'text':
        pending += token.text;
        break;
      case 'toggle':
        if (token.live) {
          flush();
          builder.toggle(token.mark);
        } else {
          pending += token.literal;
        }
        break;
      case 'linkOpen':
        flush();
        builder.setLink(token.mark);
        break;
      case 'linkClose':
        flush();
        builder.setLink(null);
        break;
      case 'atom':
        flush();
        builder.atom(token.node);
        break;
    }
  }
  flush();
  return builder.nodes;
}
