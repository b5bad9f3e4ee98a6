import { requestContext } from '../../../common/context/request-context';
import type { RunStatement, SqliteRunner } from './types';

/**
 * TypeORM's better-sqlite3 driver has one query runner for the whole data source (BetterSqlite3Driver
 * .createQueryRunner answers the same one), so replacing its methods changes every statement TypeORM sends:
 * - `query` runs through `run`, in the current work's transaction (the request context's token);
 * - start/commit/rollback do nothing: transactions belong to TransactionService (group-commit.ts), and
 *   TypeORM's implicit ones (save()) run as plain statements in it. So on SQLite `dataSource.transaction()`
 *   runs without a transaction of its own: use TransactionService.
 * Listed in ../README.md with the test that fails when TypeORM changes what this relies on.
 */
export function patchSqliteRunner(runner: SqliteRunner, run: RunStatement): void {
  runner.query = ((sql: string, parameters: unknown[] = [], structured?: boolean) =>
    run(sql, parameters, structured === true, requestContext.current()?.tx?.token)) as SqliteRunner['query'];
  runner.startTransaction = () => Promise.resolve();
  runner.commitTransaction = () => Promise.resolve();
  runner.rollbackTransaction = () => Promise.resolve();
}
