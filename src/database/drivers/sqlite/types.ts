import type { QueryRunner } from 'typeorm';
import type { RowStatement } from './rows';

/** What the service uses of a better-sqlite3 statement. */
export interface SqliteStatement extends RowStatement {
  reader: boolean;
  readonly: boolean;
  run(...parameters: unknown[]): { changes: number; lastInsertRowid: number | bigint };
}

/** What the service uses of a better-sqlite3 database connection. */
export interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
  close(): void;
  pragma(sql: string, options?: { simple: boolean }): unknown;
  inTransaction: boolean;
}

/** TypeORM's one BetterSqlite3QueryRunner, with the fields the service reads and sets. */
export type SqliteRunner = QueryRunner & {
  driver: { databaseConnection: SqliteConnection; options: { maxQueryExecutionTime?: number } };
  transactionDepth: number;
};

/** Runs one statement for `token` (undefined: outside any transaction); `structured` answers a QueryResult. */
export type RunStatement = (
  sql: string,
  parameters: unknown[],
  structured: boolean,
  token: symbol | undefined,
) => Promise<unknown>;

export interface SqliteTransactions {
  /** Takes the connection for `token` and begins a write transaction (BEGIN IMMEDIATE). */
  begin(token: symbol): Promise<void>;
  commit(token: symbol): Promise<void>;
  rollback(token: symbol): Promise<void>;
}
