import type { DataSource } from 'typeorm';
import { answerTokensHook } from './answer-tokens';
import { gatedRun } from './busy-retry';
import { statementExecutor } from './execute';
import { SqliteGate } from './gate';
import { GroupCommit } from './group-commit';
import { openReadingConnection } from './reading-connection';
import { patchSqliteRunner } from './runner-patches';
import { StatementCache } from './statement-cache';
import type { SqliteRunner, SqliteTransactions } from './types';

export type { SqliteTransactions } from './types';

/**
 * Makes TypeORM's single better-sqlite3 connection safe for concurrent requests and for several
 * processes on one file:
 * - a statement runs only when no other work's transaction is open (the gate), and runs synchronously
 *   once admitted, so nothing can slip in between the check and the statement (execute.ts);
 * - write transactions begin with BEGIN IMMEDIATE and share COMMITs (group-commit.ts);
 * - reads outside transactions run on a second connection (reading-connection.ts);
 * - when another process holds the write lock, waiting happens off the event loop (busy-retry.ts).
 * Installed after migrations; TypeORM's own transaction calls on this connection become no-ops
 * (runner-patches.ts), because TransactionService owns every transaction.
 */
export function installSqliteConnection(dataSource: DataSource, busyTimeoutMs: number): SqliteTransactions {
  const runner = dataSource.createQueryRunner() as SqliteRunner;
  const gate = new SqliteGate();
  const connection = () => runner.driver.databaseConnection;
  connection().pragma('busy_timeout = 0');
  const statements = new StatementCache(connection);
  const reads = openReadingConnection(dataSource);
  const execute = statementExecutor(runner, dataSource.logger, statements, answerTokensHook(statements));
  const run = gatedRun(gate, execute, reads, busyTimeoutMs);
  patchSqliteRunner(runner, run);
  return new GroupCommit(runner, gate, run, reads !== undefined);
}
