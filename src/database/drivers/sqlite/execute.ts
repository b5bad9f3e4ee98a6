import { QueryFailedError, type Logger } from 'typeorm';
import { QueryResult } from 'typeorm/query-runner/QueryResult';
import { isBusy } from './busy-retry';
import { readRows } from './rows';
import type { StatementCache } from './statement-cache';
import type { SqliteRunner, SqliteStatement } from './types';

/** Runs one statement synchronously on `reader` or on the main connection, as BetterSqlite3QueryRunner.query would. */
export type Execute = (sql: string, parameters: unknown[], structured: boolean, reader?: SqliteStatement) => unknown;

/**
 * TypeORM's statement execution (logging, slow-query log, the structured result, QueryFailedError) without
 * its awaits, so that a statement admitted at the gate runs before anything else can. TypeORM's query
 * subscribers are not called: the service has none. `changed` is told of every statement that changed rows.
 */
export function statementExecutor(
  runner: SqliteRunner,
  logger: Logger,
  statements: StatementCache,
  changed: (sql: string) => void,
): Execute {
  return (sql, parameters, structured, reader) => {
    const values = parameters.map((p) => (typeof p === 'boolean' ? +p : p));
    logger.logQuery(sql, values, runner);
    const started = Date.now();
    try {
      const statement = reader ?? statements.prepared(sql);
      const result = new QueryResult();
      if (statement.reader) {
        const rows = readRows(statement, values);
        // A write with RETURNING answers the rows it wrote.
        if (!statement.readonly && rows.length > 0) changed(sql);
        result.raw = rows;
        result.records = rows;
      } else {
        const outcome = statement.run(...values);
        if (outcome.changes > 0) changed(sql);
        result.affected = outcome.changes;
        result.raw = outcome.lastInsertRowid;
      }
      const elapsed = Date.now() - started;
      const slow = runner.driver.options.maxQueryExecutionTime;
      if (slow && elapsed > slow) logger.logQuerySlow(elapsed, sql, values, runner);
      return structured ? result : (result.raw as unknown);
    } catch (error) {
      if (!isBusy(error)) logger.logQueryError(error as Error, sql, values, runner);
      throw new QueryFailedError(sql, values, error as Error);
    }
  };
}
