import type { DataSource } from 'typeorm';
import { DatabaseUnavailableError } from '../../errors';
import type { MysqlDriverLike, PooledConnection } from './types';

export interface MysqlLimits {
  /** A statement that runs longer fails (503) and its connection is dropped. */
  queryTimeoutMs: number;
  /** Taking a connection (from the pool, or opening one) fails (503) after this long. */
  connectTimeoutMs: number;
}

/** Answers the connection, or fails after `ms`; a connection that arrives later goes back to the pool. */
function withDeadline(obtain: Promise<PooledConnection>, ms: number): Promise<PooledConnection> {
  return new Promise((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(new DatabaseUnavailableError(`No database connection within ${ms} ms`));
    }, ms);
    obtain.then(
      (connection) => {
        clearTimeout(timer);
        if (late) connection.release();
        else resolve(connection);
      },
      // Passed on as it is: its code says why (ECONNREFUSED, ER_CON_COUNT_ERROR…).
      (error: Error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * Bounds how long a request can wait on MySQL/MariaDB, so that a frozen server (it accepts connections
 * and never answers) fails requests with 503 instead of hanging them:
 * - every statement gets mysql2's query time-out (TypeORM's `enableQueryTimeout` driver option, read by
 *   query.ts);
 * - taking a connection waits at most `connectTimeoutMs`: mysql2's pool queues callers without limit
 *   while all its connections are busy. TypeORM's MysqlDriver.obtainMasterConnection and
 *   obtainSlaveConnection are wrapped (every query runner's connect() calls one of them).
 */
export function installMysqlLimits(dataSource: DataSource, limits: MysqlLimits): void {
  const driver = dataSource.driver as unknown as MysqlDriverLike;
  driver.options.enableQueryTimeout = true;
  driver.options.maxQueryExecutionTime = limits.queryTimeoutMs;
  const master = driver.obtainMasterConnection.bind(driver);
  const slave = driver.obtainSlaveConnection.bind(driver);
  driver.obtainMasterConnection = () => withDeadline(master(), limits.connectTimeoutMs);
  driver.obtainSlaveConnection = () => withDeadline(slave(), limits.connectTimeoutMs);
}
