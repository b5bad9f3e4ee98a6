import type { QueryRunner } from 'typeorm';

/** What the service uses of a mysql2 pool connection. */
export interface PooledConnection {
  release(): void;
  destroy(): void;
}

/** A mysql2 connection through its callback API (not `connection.promise()`, as TypeORM uses it). */
export interface CallbackConnection extends PooledConnection {
  query(
    options: { sql: string; timeout?: number },
    values: unknown[] | undefined,
    callback: (error: Error | null, result: unknown) => void,
  ): void;
}

/** TypeORM's MysqlDriver, with the fields the service reads and replaces. */
export interface MysqlDriverLike {
  options: { enableQueryTimeout?: boolean; maxQueryExecutionTime?: number };
  obtainMasterConnection(): Promise<PooledConnection>;
  obtainSlaveConnection(): Promise<PooledConnection>;
}

/** TypeORM's MysqlQueryRunner, with the fields the service reads. */
export type MysqlRunner = Omit<QueryRunner, 'connect'> & {
  isReleased: boolean;
  connect(): Promise<CallbackConnection>;
  databaseConnection?: CallbackConnection;
};

/** Sends one query (one statement, or the runner's own batch) on `connection`. */
export type Send = (connection: CallbackConnection, sql: string, parameters: unknown[] | undefined) => Promise<unknown>;

// As TypeORM's MysqlQueryRunner sends them.
export const START = 'START TRANSACTION';
export const COMMIT = 'COMMIT';
export const ROLLBACK = 'ROLLBACK';
