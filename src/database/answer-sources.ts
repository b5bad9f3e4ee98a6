import type { ActiveTransaction } from '../common/context/request-context';
import { newVersionToken, replaceTokenSql } from '../platform/versions/content-versions';

/**
 * Whole answers kept in memory by readers (guide detail for anonymous callers) are kept under the `answers`
 * version token (ContentVersions). Their readers name the tables the answers are built from here; the
 * connections (sqlite-connection.ts, mysql-connection.ts) replace the token whenever a statement changes rows
 * of one of them, whichever code wrote it: in the writing transaction, just before its COMMIT, or right after
 * a write made outside a transaction. A kept answer is served only while its token is the stored one.
 */
const sources = new Set<string>();

/** Declares tables kept answers are built from. */
export function registerAnswerSources(tables: readonly string[]): void {
  for (const table of tables) sources.add(table.toLowerCase());
}

/** The registered tables (for tests that check a reader declared every table it reads). */
export function answerSources(): ReadonlySet<string> {
  return sources;
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

/** Whether a statement that changed rows may have changed a kept answer. */
export function changesAnswers(sql: string): boolean {
  if (!sources.size) return false;
  const table = writtenTable(sql);
  return table === '*' || (table !== undefined && sources.has(table));
}

/** The statement that replaces the `answers` token, and its parameters. */
export function replaceAnswersToken(dialect: 'sqlite' | 'mysql'): [sql: string, parameters: string[]] {
  return [replaceTokenSql(dialect), ['answers', newVersionToken()]];
}

const bumping = new WeakSet<ActiveTransaction>();

/**
 * A write of `tx` changed a source: the token is replaced once, in `tx`, when its work is done (on MySQL the
 * token row stays locked only from then to COMMIT).
 */
export function replaceAnswersTokenIn(tx: ActiveTransaction, dialect: 'sqlite' | 'mysql'): void {
  if (bumping.has(tx)) return;
  bumping.add(tx);
  tx.beforeCommit(async () => {
    await tx.manager.query(...replaceAnswersToken(dialect));
  });
}
