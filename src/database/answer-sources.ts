import { requestContext, type ActiveTransaction } from '../common/context/request-context';
import {
  answerTokenRow,
  documentTokenName,
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
/** Per token whose answers are each one document's: the tables holding rows of one document. */
const documentTables = new Map<AnswerToken, Set<string>>();

/**
 * Declares tables the answers kept under `token` are built from. `perDocument`: those of them whose rows each
 * belong to one document (a guide's revisions, steps, comments): a transaction that declared which documents it
 * changes (changesDocument) replaces those documents' tokens for its writes of these tables, not `token`.
 */
export function registerAnswerSources(
  tables: readonly string[],
  token: AnswerToken = 'answers',
  perDocument: readonly string[] = [],
): void {
  tokens.add(token);
  if (perDocument.length) documentTables.set(token, new Set(perDocument.map((table) => table.toLowerCase())));
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
 * rows in the writing connection's `slot` (ANSWER_TOKEN_SLOTS). `documents`: documents' tokens (documentTokenName),
 * one row each.
 */
export function replaceAnswerTokens(
  dialect: 'sqlite' | 'mysql',
  names: Iterable<AnswerToken>,
  slot?: number,
  documents: Iterable<string> = [],
): [sql: string, parameters: string[]] {
  const rows = [...new Set(names)].map((name) => (slot === undefined ? name : answerTokenRow(name, slot)));
  rows.push(...new Set(documents));
  rows.sort();
  return [replaceTokenSql(dialect, rows.length), rows.flatMap((name) => [name, newVersionToken()])];
}

interface Replacing {
  slot?: number;
  waiting: Set<AnswerToken>;
  replaced: Set<AnswerToken>;
  /** Tokens whose per-document tables were written: the declared documents' tokens are replaced, or the token. */
  documentWrites: Set<AnswerToken>;
  /** Per token, the documents the transaction declared it changes. */
  documents: Map<AnswerToken, Set<number>>;
  replacedDocuments: Set<string>;
  scheduled: boolean;
}

const replacing = new WeakMap<ActiveTransaction, Replacing>();

function stateOf(tx: ActiveTransaction, slot?: number): Replacing {
  let state = replacing.get(tx);
  if (!state) {
    state = {
      slot,
      waiting: new Set(),
      replaced: new Set(),
      documentWrites: new Set(),
      documents: new Map(),
      replacedDocuments: new Set(),
      scheduled: false,
    };
    replacing.set(tx, state);
  }
  state.slot ??= slot;
  return state;
}

/**
 * The open transaction changes document `documentid` of `token`'s answers (a guide it locked to write): its
 * writes of that token's per-document tables replace the tokens of the documents it declared, and keep the
 * answers of every other document. A transaction that writes such a table without declaring any document
 * replaces `token` itself. Outside a transaction every write replaces `token`, so this does nothing.
 */
export function changesDocument(token: AnswerToken, documentid: number): void {
  const tx = requestContext.current()?.tx;
  if (!tx) return;
  const state = stateOf(tx);
  const ids = state.documents.get(token) ?? new Set<number>();
  ids.add(documentid);
  state.documents.set(token, ids);
}

/**
 * `sql`, a write of `tx`, changed a source of these tokens: they are replaced in `tx` when its work is done, each
 * once, in one statement (on MySQL the rows of the connection's slot, locked only from then to COMMIT; always in
 * name order, so two writers of one slot never wait for each other's rows crosswise). A source written by a later
 * before-commit task gets a task of its own.
 */
export function replaceAnswerTokensIn(
  tx: ActiveTransaction,
  dialect: 'sqlite' | 'mysql',
  names: ReadonlySet<AnswerToken>,
  sql: string,
  slot?: number,
): void {
  const state = stateOf(tx, slot);
  const table = writtenTable(sql);
  for (const name of names) {
    if (table !== undefined && documentTables.get(name)?.has(table)) state.documentWrites.add(name);
    else if (!state.replaced.has(name)) state.waiting.add(name);
  }
  if (state.scheduled || (!state.waiting.size && !state.documentWrites.size)) return;
  const current = state;
  current.scheduled = true;
  tx.beforeCommit(async () => {
    current.scheduled = false;
    const documents: string[] = [];
    for (const name of current.documentWrites) {
      const ids = current.documents.get(name);
      if (!ids?.size) {
        if (!current.replaced.has(name)) current.waiting.add(name);
        continue;
      }
      for (const id of ids) {
        const document = documentTokenName(name, id);
        if (!current.replacedDocuments.has(document)) documents.push(document);
        current.replacedDocuments.add(document);
      }
    }
    current.documentWrites.clear();
    const due = [...current.waiting];
    current.waiting.clear();
    for (const name of due) current.replaced.add(name);
    if (due.length || documents.length)
      await deferWrite(tx.manager, ...replaceAnswerTokens(dialect, due, current.slot, documents));
  });
}
