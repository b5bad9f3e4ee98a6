import { QueryFailedError, QueryRunnerAlreadyReleasedError, type DataSource, type QueryRunner } from 'typeorm';
import { QueryResult } from 'typeorm/query-runner/QueryResult';
import { requestContext } from '../common/context/request-context';
import { answerTokenSlotOf, type AnswerToken } from '../platform/versions/content-versions';
import { answerTokensChangedBy, replaceAnswerTokens, replaceAnswerTokensIn } from './answer-sources';
import { DatabaseUnavailableError } from './errors';

interface PooledConnection {
  release(): void;
  destroy(): void;
}

interface MysqlDriverLike {
  options: { enableQueryTimeout?: boolean; maxQueryExecutionTime?: number };
  obtainMasterConnection(): Promise<PooledConnection>;
  obtainSlaveConnection(): Promise<PooledConnection>;
}

export interface MysqlLimits {
  /** A statement that runs longer fails (503) and its connection is dropped. */
  queryTimeoutMs: number;
  /** Taking a connection (from the pool, or opening one) fails (503) after this long. */
  connectTimeoutMs: number;
}

const STATEMENT_TIMEOUT = 'PROTOCOL_SEQUENCE_TIMEOUT';

const timedOut = (error: unknown): boolean => {
  const e = error as { code?: unknown; driverError?: { code?: unknown } } | undefined;
  return (e?.driverError?.code ?? e?.code) === STATEMENT_TIMEOUT;
};

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
 * - every statement gets mysql2's query time-out;
 * - taking a connection waits at most `connectTimeoutMs`: mysql2's pool queues callers without limit
 *   while all its connections are busy.
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

interface CallbackConnection extends PooledConnection {
  query(
    options: { sql: string; timeout?: number },
    values: unknown[] | undefined,
    callback: (error: Error | null, result: unknown) => void,
  ): void;
}

type MysqlRunner = Omit<QueryRunner, 'connect'> & {
  isReleased: boolean;
  connect(): Promise<CallbackConnection>;
  databaseConnection?: CallbackConnection;
};

/**
 * Every statement of a MySQL query runner, as TypeORM's MysqlQueryRunner.query runs it (logging, slow-query
 * log, the structured result with `affected`, QueryFailedError) but through mysql2's callback API: TypeORM
 * goes through `connection.promise()`, which builds a wrapper object and captures a stack trace for every
 * statement, about a tenth of a quiz submit's CPU. (TypeORM's query subscribers are not called; the service
 * has none, and its SQLite connection does not call them either.)
 *
 * When a statement times out, mysql2 only stops waiting for it: the connection, its statement still
 * pending on the server and its transaction still open, would go back to the pool, and every statement
 * given to it next would queue behind the stuck one with no time limit (and a later ROLLBACK with them).
 * Destroying it instead makes the server roll the transaction back and the pool open a fresh connection.
 */
export function installMysqlQuery(queryRunner: QueryRunner): QueryRunner {
  const runner = queryRunner as MysqlRunner;
  const dataSource = runner.connection;
  const { maxQueryExecutionTime, enableQueryTimeout } = (dataSource.driver as unknown as MysqlDriverLike).options;
  const timeout = enableQueryTimeout ? maxQueryExecutionTime : undefined;
  /**
   * A statement changed rows kept answers are built from (answer-sources.ts): in the work's transaction their
   * tokens are replaced before its COMMIT; in a transaction of another kind, or outside any, at once on this
   * connection (so in that transaction, or right after the write).
   */
  const answersChanged = async (connection: CallbackConnection, names: ReadonlySet<AnswerToken>): Promise<void> => {
    const tx = requestContext.current()?.tx;
    if (tx && runner.isTransactionActive && tx.manager.queryRunner === queryRunner) {
      replaceAnswerTokensIn(tx, 'mysql', names, answerTokenSlotOf(connection));
      return;
    }
    const [sql, parameters] = replaceAnswerTokens('mysql', names, answerTokenSlotOf(connection));
    await new Promise<void>((resolve, reject) =>
      connection.query({ sql, timeout }, parameters, (error: Error | null) => (error ? reject(error) : resolve())),
    );
  };
  runner.query = (async (sql: string, parameters?: unknown[], structured = false) => {
    if (runner.isReleased) throw new QueryRunnerAlreadyReleasedError();
    const connection: CallbackConnection = await runner.connect();
    const logger = dataSource.logger;
    logger.logQuery(sql, parameters, runner);
    const started = Date.now();
    const slow = () => {
      const elapsed = Date.now() - started;
      if (maxQueryExecutionTime && elapsed > maxQueryExecutionTime)
        logger.logQuerySlow(elapsed, sql, parameters, runner);
    };
    try {
      const raw = await new Promise<unknown>((resolve, reject) =>
        connection.query({ sql, timeout }, parameters, (error: Error | null, result: unknown) =>
          error ? reject(error) : resolve(result),
        ),
      );
      slow();
      // A write answers its header, or with RETURNING (MariaDB) the rows it wrote.
      const changed = Array.isArray(raw) ? raw.length : (raw as { affectedRows?: number } | null)?.affectedRows;
      const names = changed && changed > 0 ? answerTokensChangedBy(sql) : undefined;
      if (names) await answersChanged(connection, names);
      if (!structured) return raw;
      const result = new QueryResult();
      result.raw = raw;
      if (Array.isArray(raw)) result.records = raw as unknown[];
      const affected = (raw as { affectedRows?: number } | null)?.affectedRows;
      if (affected !== undefined) result.affected = affected;
      return result;
    } catch (error) {
      slow();
      logger.logQueryError(error as Error, sql, parameters, runner);
      if (timedOut(error)) runner.databaseConnection?.destroy();
      throw new QueryFailedError(sql, parameters, error as Error);
    }
  }) as QueryRunner['query'];
  return queryRunner;
}
