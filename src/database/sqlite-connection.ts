import { QueryFailedError, type DataSource, type QueryRunner } from 'typeorm';
import { QueryResult } from 'typeorm/query-runner/QueryResult';
import { requestContext } from '../common/context/request-context';
import { DatabaseUnavailableError } from './errors';
import { SqliteGate } from './sqlite-gate';

interface Statement {
  reader: boolean;
  all(...parameters: unknown[]): unknown[];
  run(...parameters: unknown[]): { changes: number; lastInsertRowid: number | bigint };
}

interface Connection {
  prepare(sql: string): Statement;
  pragma(sql: string, options?: { simple: boolean }): unknown;
  inTransaction: boolean;
}

type Runner = QueryRunner & {
  driver: { databaseConnection: Connection; options: { maxQueryExecutionTime?: number } };
  transactionDepth: number;
};

export interface SqliteTransactions {
  /** Takes the connection for `token` and begins a write transaction (BEGIN IMMEDIATE). */
  begin(token: symbol): Promise<void>;
  commit(token: symbol): Promise<void>;
  rollback(token: symbol): Promise<void>;
}

const isBusy = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Makes TypeORM's single better-sqlite3 connection safe for concurrent requests and for several
 * processes on one file:
 * - a statement runs only when no other work's transaction is open (the gate), and runs synchronously
 *   once admitted, so nothing can slip in between the check and the statement;
 * - write transactions begin with BEGIN IMMEDIATE, so they hold the file's write lock from their
 *   first statement and never fail half-way with SQLITE_BUSY_SNAPSHOT;
 * - when another process holds the write lock, waiting happens off the event loop: the connection's
 *   busy timeout is 0 and a busy statement is retried with backoff until `busyTimeoutMs`, then fails
 *   with DatabaseUnavailableError (503).
 * Installed after migrations; TypeORM's own transaction calls on this connection become no-ops,
 * because TransactionService owns every transaction.
 */
export function installSqliteConnection(dataSource: DataSource, busyTimeoutMs: number): SqliteTransactions {
  const runner = dataSource.createQueryRunner() as Runner;
  const gate = new SqliteGate();
  const connection = () => runner.driver.databaseConnection;
  connection().pragma('busy_timeout = 0');
  const cacheSize = 1000;
  const statements = new Map<string, Statement>();
  const logger = dataSource.logger;

  const prepared = (sql: string): Statement => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = connection().prepare(sql);
      statements.set(sql, statement);
      if (statements.size > cacheSize) statements.delete(statements.keys().next().value as string);
    }
    return statement;
  };

  const execute = (sql: string, parameters: unknown[], structured: boolean): unknown => {
    const values = parameters.map((p) => (typeof p === 'boolean' ? +p : p));
    logger.logQuery(sql, values, runner);
    const started = Date.now();
    try {
      const statement = prepared(sql);
      const result = new QueryResult();
      if (statement.reader) {
        result.raw = statement.all(...values);
        result.records = result.raw as unknown[];
      } else {
        const outcome = statement.run(...values);
        result.affected = outcome.changes;
        result.raw = outcome.lastInsertRowid;
      }
      const elapsed = Date.now() - started;
      const slow = runner.driver.options.maxQueryExecutionTime;
      if (slow && elapsed > slow) logger.logQuerySlow(elapsed, sql, values, runner);
      return structured ? result : result.raw;
    } catch (error) {
      if (!isBusy(error)) logger.logQueryError(error as Error, sql, values, runner);
      throw new QueryFailedError(sql, values, error as Error);
    }
  };

  /** Runs one statement for `token` (undefined: outside any transaction), waiting at the gate and on busy. */
  const run = async (sql: string, parameters: unknown[], structured: boolean, token: symbol | undefined) => {
    const deadline = Date.now() + busyTimeoutMs;
    for (let attempt = 0; ; attempt += 1) {
      while (!gate.admits(token)) await gate.whenFree();
      try {
        return execute(sql, parameters, structured);
      } catch (error) {
        const driverError = (error as QueryFailedError).driverError;
        if (!isBusy(driverError)) throw error;
        if (Date.now() >= deadline) {
          throw new DatabaseUnavailableError('The database is busy (locked by another process)', driverError);
        }
        await pause(Math.min(2 ** attempt, 50) + Math.random() * 5);
      }
    }
  };

  runner.query = ((sql: string, parameters: unknown[] = [], structured?: boolean) =>
    run(sql, parameters, structured === true, requestContext.current()?.tx?.token)) as Runner['query'];
  // Transactions belong to TransactionService; TypeORM's implicit ones (save()) run as plain statements.
  runner.startTransaction = () => Promise.resolve();
  runner.commitTransaction = () => Promise.resolve();
  runner.rollbackTransaction = () => Promise.resolve();

  const finish = async (token: symbol, sql: 'COMMIT' | 'ROLLBACK') => {
    try {
      if (sql === 'COMMIT' || connection().inTransaction) await run(sql, [], false, token);
    } finally {
      if (sql === 'ROLLBACK' || !connection().inTransaction) {
        (runner as { isTransactionActive: boolean }).isTransactionActive = false;
        runner.transactionDepth = 0;
        gate.release(token);
      }
    }
  };

  return {
    async begin(token) {
      await gate.acquire(token);
      try {
        await run('BEGIN IMMEDIATE', [], false, token);
      } catch (error) {
        gate.release(token);
        throw error;
      }
      (runner as { isTransactionActive: boolean }).isTransactionActive = true;
      runner.transactionDepth = 1;
    },
    commit: (token) => finish(token, 'COMMIT'),
    rollback: (token) => finish(token, 'ROLLBACK'),
  };
}
