import type { DataSource, EntityManager, QueryRunner, ReplicationMode } from 'typeorm';
import { requestContext } from '../common/context/request-context';
import { installMysqlLimits, installMysqlQuery } from './mysql-connection';
import { installSqliteConnection, type SqliteTransactions } from './sqlite-connection';

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
 * - SQLite gets its connection gate and BEGIN IMMEDIATE transactions (sqlite-connection.ts);
 * - MySQL statements and connection waits get time limits, so a frozen server fails requests instead of
 *   hanging them (mysql-connection.ts).
 */
export function prepareDataSource(dataSource: DataSource, settings: ConnectionSettings): void {
  if (prepared.has(dataSource)) return;
  prepared.add(dataSource);
  const base = dataSource.manager;
  Object.defineProperty(dataSource, 'manager', {
    configurable: true,
    get: (): EntityManager => requestContext.current()?.tx?.manager ?? base,
  });

  const sqlite = dataSource.options.type === 'better-sqlite3';
  const createQueryRunner = dataSource.createQueryRunner.bind(dataSource);
  dataSource.createQueryRunner = (mode: ReplicationMode = 'master'): QueryRunner => {
    const runner = createQueryRunner(mode === 'slave' && requestContext.current()?.primary !== false ? 'master' : mode);
    return sqlite ? runner : installMysqlQuery(runner);
  };

  if (sqlite) {
    sqliteTransactions.set(dataSource, installSqliteConnection(dataSource, settings.busyTimeoutMs));
  } else {
    installMysqlLimits(dataSource, settings);
  }
}
