import type { ActiveTransaction } from '../common/context/request-context';
import {
  answerTokenRow,
  newVersionToken,
  replaceTokenSql,
  type AnswerToken,
} from '../platform/versions/content-versions';
import { deferWrite } from './drivers/deferred-writes';

/**
 * Whole answers kept in memory by readers (guide detail for anonymous callers, a signed-in caller's quizzes list)
 * are kept under an answers version token (ContentVersions): `answers` for guides and wikis, one more per
 * enterprise family, so that a quiz taken does not drop the guides kept. Readers name the tables their answers
 * are built from here, with their token; the connections (drivers/sqlite/answer-tokens.ts, drivers/mysql/answer-tokens.ts) replace
 * the tokens of a table whenever a statement changes rows of it, whichever code wrote it: in the writing
 * transaction, just before its COMMIT, or right after a write made outside a transaction. A cached answer is
 * served only while its token is the stored one.
 */
const sources = new Map<string, Set<AnswerToken>>();
const tokens = new Set<AnswerToken>();

/** Declares tables the answers kept under `token` are built from. */
export function registerAnswerSources(tables: readonly string[], token: AnswerToken = 'answers'): void {
  tokens.add(token);
  for (const table of tables) {
    const name = table.toLowerCase();
    const of = sources.get(name) ?? new Set<AnswerToken>();
    of.add(token);
    sources.set(name, of);
  }
}

/** The tables registered for `token` (for tests that check a reader declared every table it reads). */
export function answerSources(token: AnswerToken = 'answers'): ReadonlySet<string> {
  return new Set([...sources].filter(([, of]) => of.has(token)).map(([table]) => table));
}

const WRITE =
  /^\s*(?:INSERT(?:\s+OR\s+\w+|\s+IGNORE)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+|\s+IGNORE)?|DELETE\s+FROM)\s+(?:[`"]?\w+[`"]?\.)?[`"]?(\w+)[`"]?/i;

/**
 * The table an INSERT, REPLACE, UPDATE or DELETE writes (lower case); '*' for a data-changing statement of
 * another shape (a WITH before the write): it could write any table; undefined for anything else (reads,
 * BEGIN, COMMIT, SAVEPOINT, PRAGMA, DDL).
 */
export function writtenTable(sql: string): string | undefined {
  const match = WRITE.exec(sql);
  if (match) return match[1].toLowerCase();
  return /^\s*WITH\b/i.test(sql) && /\b(INSERT|REPLACE|UPDATE|DELETE)\b/i.test(sql) ? '*' : undefined;
}

/** The tokens of the cached answers a statement that changed rows may have changed (none: undefined). */
export function answerTokensChangedBy(sql: string): ReadonlySet<AnswerToken> | undefined {
  if (!tokens.size) return undefined;
  const table = writtenTable(sql);
  if (table === '*') return tokens;
  return table === undefined ? undefined : sources.get(table);
}

/**
 * The statement that replaces these tokens (one upsert, rows in name order), and its parameters; on MySQL, their
 * rows in the writing connection's `slot` (ANSWER_TOKEN_SLOTS).
 */
export function replaceAnswerTokens(
  dialect: 'sqlite' | 'mysql',
  names: Iterable<AnswerToken>,
  slot?: number,
): [sql: string, parameters: string[]] {
  const rows = [...new Set(names)].map((name) => (slot === undefined ? name : answerTokenRow(name, slot)));
  rows.sort();
  return [replaceTokenSql(dialect, rows.length), rows.flatMap((name) => [name, newVersionToken()])];
}

interface Replacing {
  slot?: number;
  waiting: Set<AnswerToken>;
  replaced: Set<AnswerToken>;
  scheduled: boolean;
}

const replacing = new WeakMap<ActiveTransaction, Replacing>();

/**
 * A write of `tx` changed a source of these tokens: they are replaced in `tx` when its work is done, each once,
 * in one statement (on MySQL the rows of the connection's slot, locked only from then to COMMIT; always in name
 * order, so two writers of one slot never wait for each other's rows crosswise). A source written by a later
 * before-commit task gets a task of its own.
 */
export function replaceAnswerTokensIn(
  tx: ActiveTransaction,
  dialect: 'sqlite' | 'mysql',
  names: ReadonlySet<AnswerToken>,
  slot?: number,
): void {
  let state = replacing.get(tx);
  if (!state) {
    state = { slot, waiting: new Set(), replaced: new Set(), scheduled: false };
    replacing.set(tx, state);
  }
  for (const name of names) if (!state.replaced.has(name)) state.waiting.add(name);
  if (state.scheduled || !state.waiting.size) return;
  const current = state;
  current.scheduled = true;
  tx.beforeCommit(async () => {
    current.scheduled = false;
    const due = [...current.waiting];
    current.waiting.clear();
    for (const name of due) current.replaced.add(name);
    await deferWrite(tx.manager, ...replaceAnswerTokens(dialect, due, current.slot));
  });
}
