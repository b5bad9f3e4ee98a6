/**
 * The user's search text, parsed once and never passed to an engine as written: only runs of letters
 * and digits survive, so quotes, operators and SQL or FTS syntax (`"`, `*`, `-`, `+`, `NEAR`, `(`, `'`)
 * are plain text. Pure functions (unit-tested in search-query.spec.ts).
 */

/** More words than this are ignored (an engine's query stays small whatever the input). */
export const MAX_QUERY_WORDS = 16;
/** InnoDB's innodb_ft_max_token_size: longer words are cut to it. */
export const MAX_WORD_LENGTH = 84;

export interface SearchQuery {
  /** Single words, each matched by prefix ("batt" finds "battery"), folded (lower case, no accents). */
  terms: string[];
  /** Quoted phrases: each a list of folded words that must appear in this order. */
  phrases: string[][];
}

const WORD = /[\p{L}\p{N}]+/gu;

/** Lower case without accents: "Résumé" → "resume". */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** The words of a text, folded, in order. */
export function wordsOf(text: string): string[] {
  return (fold(text).match(WORD) ?? []).map((word) => word.slice(0, MAX_WORD_LENGTH));
}

/**
 * Splits the text into quoted phrases and single words (words joined with AND). An unclosed quote runs
 * to the end. A quoted single word is a whole-word match. Repeated words count once.
 */
export function parseSearchQuery(raw: string): SearchQuery {
  const terms: string[] = [];
  const phrases: string[][] = [];
  const seen = new Set<string>();
  let budget = MAX_QUERY_WORDS;
  const parts = raw.split('"');
  parts.forEach((part, i) => {
    const words = wordsOf(part).slice(0, Math.max(budget, 0));
    budget -= words.length;
    const quoted = i % 2 === 1;
    if (quoted && words.length) {
      const key = `"${words.join(' ')}"`;
      if (!seen.has(key)) {
        seen.add(key);
        phrases.push(words);
      }
      return;
    }
    for (const word of words) {
      if (seen.has(word)) continue;
      seen.add(word);
      terms.push(word);
    }
  });
  return { terms, phrases };
}

export const isEmptyQuery = (query: SearchQuery): boolean => !query.terms.length && !query.phrases.length;

/** Every word of the query (what snippets mark). */
export const queryWords = (query: SearchQuery): string[] => [...query.terms, ...query.phrases.flat()];

/**
 * An FTS5 MATCH expression: `"word"*` per term, `"w1 w2"` per phrase, joined with AND. Every word is a
 * quoted string, so FTS5 keywords (AND, OR, NOT, NEAR) and column filters are text. `column` limits
 * the whole expression to one column (`{title} : (…)`).
 */
export function toFts5(query: SearchQuery, column?: string): string {
  const parts = [
    ...query.terms.map((term) => `"${term}"*`),
    ...query.phrases.map((words) => (words.length === 1 ? `"${words[0]}"` : `"${words.join(' ')}"`)),
  ];
  const expression = parts.join(' AND ');
  return column ? `{${column}} : (${expression})` : expression;
}

/**
 * InnoDB's default full-text stopwords (INFORMATION_SCHEMA.INNODB_FT_DEFAULT_STOPWORD): the index does
 * not hold them, so a required stopword would match nothing.
 */
export const INNODB_STOPWORDS = new Set([
  'a', 'about', 'an', 'are', 'as', 'at', 'be', 'by', 'com', 'de', 'en', 'for', 'from', 'how', 'i', 'in', 'is',
  'it', 'la', 'of', 'on', 'or', 'that', 'the', 'this', 'to', 'was', 'what', 'when', 'where', 'who', 'will',
  'with', 'und', 'www',
]); // prettier-ignore

/** innodb_ft_min_token_size: shorter words are not in the index (a prefix of longer words still matches). */
export const INNODB_MIN_TOKEN = 3;

/**
 * A MATCH … AGAINST (… IN BOOLEAN MODE) string: `+word*` per term, `+"w1 w2"` per phrase. Stopword
 * terms, and phrases of stopwords only, are left out (the index does not hold them); words shorter than the minimum token size are optional
 * (`word*`: they rank, but a word like "6" that no indexed word starts with would otherwise match
 * nothing) unless they are all the query has. Null when nothing searchable is left.
 */
export function toInnoDbBoolean(query: SearchQuery): string | null {
  const terms = query.terms.filter((term) => !INNODB_STOPWORDS.has(term));
  const long = terms.filter((term) => term.length >= INNODB_MIN_TOKEN);
  const phrases = query.phrases.filter((words) => words.some((word) => !INNODB_STOPWORDS.has(word)));
  const requireShort = !long.length && !phrases.length;
  const parts = [
    ...terms.map((term) => `${term.length >= INNODB_MIN_TOKEN || requireShort ? '+' : ''}${term}*`),
    ...phrases.map((words) => `+"${words.join(' ')}"`),
  ];
  return parts.length ? parts.join(' ') : null;
}
