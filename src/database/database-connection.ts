import type { DataSource } from 'typeorm';
import { installMysqlLimits } from './drivers/mysql/limits';
import { wrapCreateQueryRunner } from './drivers/query-runners';
import { installSqliteConnection, type SqliteTransactions } from './drivers/sqlite/connection';
import { answerTransactionManager } from './drivers/transaction-manager';

const sqliteTransactions = new WeakMap<DataSource, SqliteTransactions>();
const prepared = new WeakSet<DataSource>();

export function sqliteTransactionsOf(dataSource: DataSource): SqliteTransactions | undefined {
  return sqliteTransactions.get(dataSource);
}

export interface ConnectionSettings {
  /** SQLite: how long a write waits for another process's write lock before answering 503. */
  busyTimeoutMs: number;
  /** MySQL: a statement that takes longer fails (and its connection is dropped). */
  queryTimeoutMs: number;
  /** MySQL: taking a connection from the pool (or opening one) that takes longer fails. */
  connectTimeoutMs: number;
}

/**
 * Wires the request context into the data source, after migrations have run:
 * - `dataSource.manager` answers the open transaction's manager when there is one, so repositories
 *   that use it join the transaction instead of running beside it (or deadlocking against it);
 * - with read replicas, work that may write (see RequestContext.primary) reads from the primary;
 * - SQLite gets its connection gate and BEGIN IMMEDIATE transactions (drivers/sqlite/connection.ts);
 * - MySQL statements and connection waits get time limits, so a frozen server fails requests instead of
 *   hanging them (drivers/mysql/limits.ts).
 * Every TypeORM internal this changes is listed in drivers/README.md.
 */
export function prepareDataSource(dataSource: DataSource, settings: ConnectionSettings): void {
  if (prepared.has(dataSource)) return;
  prepared.add(dataSource);
  answerTransactionManager(dataSource);
  wrapCreateQueryRunner(dataSource);

  if (dataSource.options.type === 'better-sqlite3') {
    sqliteTransactions.set(dataSource, installSqliteConnection(dataSource, settings.busyTimeoutMs));
  } else {
    installMysqlLimits(dataSource, settings);
  }
}
