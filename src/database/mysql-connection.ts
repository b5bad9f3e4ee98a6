import { QueryFailedError, QueryRunnerAlreadyReleasedError, type DataSource, type QueryRunner } from 'typeorm';
import { QueryResult } from 'typeorm/query-runner/QueryResult';
import { requestContext } from '../common/context/request-context';
import { answerTokenSlotOf, type AnswerToken } from '../platform/versions/content-versions';
import { answerTokensChangedBy, replaceAnswerTokens, replaceAnswerTokensIn } from './answer-sources';
import { acceptDeferredWrites } from './deferred-writes';
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
// As TypeORM's MysqlQueryRunner sends them.
const START = 'START TRANSACTION';
const COMMIT = 'COMMIT';
const ROLLBACK = 'ROLLBACK';

/**
 * The pool's connections accept several statements per query (multipleStatements), for the runner's own batches
 * only: SQL a caller gives it must be one statement, so text built from input by mistake cannot append one. A `;`
 * outside quotes, backticks and comments fails the call before anything is sent.
 */
export function assertOneStatement(sql: string): void {
  if (!sql.includes(';')) return;
  let quote: string | undefined;
  for (let i = 0; i < sql.length; i += 1) {
    const c = sql[i];
    if (quote) {
      if (c === '\\') i += 1;
      else if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '-' && sql[i + 1] === '-') i = lineEnd(sql, i);
    else if (c === '#') i = lineEnd(sql, i);
    else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 1;
    } else if (c === ';' && sql.slice(i + 1).trim() !== '') throw new Error('One SQL statement per query');
  }
}

const lineEnd = (sql: string, from: number): number => {
  const end = sql.indexOf('\n', from);
  return end < 0 ? sql.length : end;
};

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
 *
 * Inside a transaction, statements travel together (one query with several statements, one socket write and one
 * reply): each query a request sends costs the service and the server CPU on both ends (a guide create spent a
 * quarter of its time in socket writes). START TRANSACTION is held until the transaction's first statement and
 * sent with it (a transaction that sends nothing sends neither START nor COMMIT); deferred writes
 * (deferred-writes.ts) are held until COMMIT. A COMMIT that fails, with or without writes sent with it, is
 * followed by a ROLLBACK, so the connection never goes back to the pool inside the transaction.
 */
export function installMysqlQuery(queryRunner: QueryRunner): QueryRunner {
  const runner = queryRunner as MysqlRunner;
  const dataSource = runner.connection;
  const { maxQueryExecutionTime, enableQueryTimeout } = (dataSource.driver as unknown as MysqlDriverLike).options;
  const timeout = enableQueryTimeout ? maxQueryExecutionTime : undefined;
  const send = (connection: CallbackConnection, sql: string, parameters: unknown[] | undefined): Promise<unknown> => {
    const stats = requestContext.current()?.stats;
    if (stats) stats.sqlRoundTrips = (stats.sqlRoundTrips ?? 0) + 1;
    return new Promise<unknown>((resolve, reject) =>
      connection.query({ sql, timeout }, parameters, (error: Error | null, result: unknown) =>
        error ? reject(error) : resolve(result),
      ),
    );
  };
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
    await send(connection, sql, parameters);
  };
  /** START TRANSACTION not sent yet, and the deferred writes not sent yet (see above). */
  let startPending = false;
  const held: { sql: string; parameters: unknown[] }[] = [];
  /** Held writes that failed when sent before another statement: the transaction must not commit. */
  let heldFailure: Error | undefined;
  /** Registered when the runner begins a transaction: a runner of one statement outside any never holds writes. */
  const hold = (sql: string, parameters: unknown[]): boolean => {
    // A write of an answer source must be seen now: its tokens are replaced in this transaction.
    if (!runner.isTransactionActive || runner.isReleased || answerTokensChangedBy(sql)) return false;
    assertOneStatement(sql);
    dataSource.logger.logQuery(sql, parameters, runner);
    held.push({ sql, parameters });
    return true;
  };
  /** Sends `sql` with what waits for it: a pending START TRANSACTION always; held writes when it is the COMMIT. */
  const sendCarrying = async (connection: CallbackConnection, sql: string, parameters: unknown[] | undefined) => {
    const writes = held.splice(0);
    if (sql === COMMIT && heldFailure) throw heldFailure;
    const heldValues = writes.flatMap((write) => write.parameters);
    const statements = startPending ? [START] : [];
    startPending = false;
    if (writes.length && sql !== COMMIT) {
      // Sent before the statement, on their own: an error the statement answers is then its own (callers catch
      // duplicate keys and go on). If they fail, the caller sees their error, and the COMMIT fails with it.
      const sending = [...statements, ...writes.map((write) => write.sql)].join(';\n');
      await send(connection, sending, heldValues).catch((error: Error) => {
        heldFailure = error;
        throw error;
      });
      return send(connection, sql, parameters);
    }
    statements.push(...writes.map((write) => write.sql));
    if (!statements.length) return send(connection, sql, parameters);
    const values = [...heldValues, ...(parameters ?? [])];
    const results = (await send(
      connection,
      [...statements, sql.replace(/;\s*$/, '')].join(';\n'),
      values,
    )) as unknown[];
    return results[statements.length];
  };
  runner.query = (async (sql: string, parameters?: unknown[], structured = false) => {
    if (runner.isReleased) throw new QueryRunnerAlreadyReleasedError();
    const logger = dataSource.logger;
    const skipped = () => {
      logger.logQuery(sql, parameters, runner);
      return structured ? new QueryResult() : undefined;
    };
    if (sql === START) {
      acceptDeferredWrites(queryRunner, hold);
      startPending = true;
      heldFailure = undefined;
      return skipped();
    }
    if (sql === ROLLBACK) held.length = 0;
    if ((sql === ROLLBACK || sql === COMMIT) && startPending && !held.length) {
      // Nothing was sent since the transaction began: there is nothing to end.
      startPending = false;
      return skipped();
    }
    assertOneStatement(sql);
    const connection: CallbackConnection = await runner.connect();
    logger.logQuery(sql, parameters, runner);
    const started = Date.now();
    const slow = () => {
      const elapsed = Date.now() - started;
      if (maxQueryExecutionTime && elapsed > maxQueryExecutionTime)
        logger.logQuerySlow(elapsed, sql, parameters, runner);
    };
    try {
      const raw = await sendCarrying(connection, sql, parameters);
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
      // A COMMIT that failed (or a write sent with it) leaves the transaction open: it must not go back to the pool.
      else if (sql === COMMIT) await send(connection, ROLLBACK, []).catch(() => runner.databaseConnection?.destroy());
      throw new QueryFailedError(sql, parameters, error as Error);
    }
  }) as QueryRunner['query'];
  return queryRunner;
}
