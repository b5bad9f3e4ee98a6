import { QueryFailedError, QueryRunnerAlreadyReleasedError, type QueryRunner } from 'typeorm';
import { QueryResult } from 'typeorm/query-runner/QueryResult';
import { answerTokensChangedBy } from '../../answer-sources';
import { answerTokensHook } from './answer-tokens';
import { assertOneStatement } from './one-statement';
import { sender } from './send';
import { TransactionBatch } from './transaction-batch';
import { COMMIT, ROLLBACK, START, type CallbackConnection, type MysqlDriverLike, type MysqlRunner } from './types';

const STATEMENT_TIMEOUT = 'PROTOCOL_SEQUENCE_TIMEOUT';

const timedOut = (error: unknown): boolean => {
  const e = error as { code?: unknown; driverError?: { code?: unknown } } | undefined;
  return (e?.driverError?.code ?? e?.code) === STATEMENT_TIMEOUT;
};

/**
 * Replaces `query` of a TypeORM MysqlQueryRunner: every statement runs as TypeORM's MysqlQueryRunner.query runs
 * it (logging, slow-query log, the structured result with `affected`, QueryFailedError) but through mysql2's
 * callback API: TypeORM goes through `connection.promise()`, which builds a wrapper object and captures a stack
 * trace for every statement, about a tenth of a quiz submit's CPU. (TypeORM's query subscribers are not called;
 * the service has none, and its SQLite connection does not call them either.) Inside a transaction, statements
 * travel together (transaction-batch.ts).
 *
 * When a statement times out, mysql2 only stops waiting for it: the connection, its statement still
 * pending on the server and its transaction still open, would go back to the pool, and every statement
 * given to it next would queue behind the stuck one with no time limit (and a later ROLLBACK with them).
 * Destroying it instead makes the server roll the transaction back and the pool open a fresh connection.
 * A COMMIT that fails, with or without writes sent with it, is followed by a ROLLBACK, so the connection
 * never goes back to the pool inside the transaction.
 */
export function installMysqlQuery(queryRunner: QueryRunner): QueryRunner {
  const runner = queryRunner as unknown as MysqlRunner;
  const dataSource = queryRunner.connection;
  const { maxQueryExecutionTime, enableQueryTimeout } = (dataSource.driver as unknown as MysqlDriverLike).options;
  const send = sender(enableQueryTimeout ? maxQueryExecutionTime : undefined);
  const batch = new TransactionBatch(queryRunner, send);
  const answersChanged = answerTokensHook(queryRunner, send);

  /** Sends `sql` (with what the batch holds for it) and replaces the answer tokens of the rows it changed. */
  const execute = async (connection: CallbackConnection, sql: string, parameters: unknown[] | undefined) => {
    const logger = dataSource.logger;
    logger.logQuery(sql, parameters, queryRunner);
    const started = Date.now();
    const slow = () => {
      const elapsed = Date.now() - started;
      if (maxQueryExecutionTime && elapsed > maxQueryExecutionTime)
        logger.logQuerySlow(elapsed, sql, parameters, queryRunner);
    };
    try {
      const raw = await batch.sendWith(connection, sql, parameters);
      slow();
      // A write answers its header, or with RETURNING (MariaDB) the rows it wrote.
      const changed = Array.isArray(raw) ? raw.length : (raw as { affectedRows?: number } | null)?.affectedRows;
      const names = changed && changed > 0 ? answerTokensChangedBy(sql) : undefined;
      if (names) await answersChanged(connection, names, sql);
      return raw;
    } catch (error) {
      slow();
      logger.logQueryError(error as Error, sql, parameters, queryRunner);
      if (timedOut(error)) runner.databaseConnection?.destroy();
      // A COMMIT that failed (or a write sent with it) leaves the transaction open: it must not go back to the pool.
      else if (sql === COMMIT) await send(connection, ROLLBACK, []).catch(() => runner.databaseConnection?.destroy());
      throw new QueryFailedError(sql, parameters, error as Error);
    }
  };

  queryRunner.query = (async (sql: string, parameters?: unknown[], structured = false) => {
    if (runner.isReleased) throw new QueryRunnerAlreadyReleasedError();
    if (sql === START) batch.start();
    if (sql === START || batch.ends(sql)) {
      // Nothing to send: START waits for the first statement; nothing was sent since it, so there is nothing to end.
      dataSource.logger.logQuery(sql, parameters, queryRunner);
      return structured ? new QueryResult() : undefined;
    }
    assertOneStatement(sql);
    const raw = await execute(await runner.connect(), sql, parameters);
    return structured ? structuredResult(raw) : raw;
  }) as QueryRunner['query'];
  return queryRunner;
}

/** TypeORM's QueryResult for a mysql2 answer. */
function structuredResult(raw: unknown): QueryResult {
  const result = new QueryResult();
  result.raw = raw;
  if (Array.isArray(raw)) result.records = raw as unknown[];
  const affected = (raw as { affectedRows?: number } | null)?.affectedRows;
  if (affected !== undefined) result.affected = affected;
  return result;
}
