import BetterSqlite3 from 'better-sqlite3';
import { QueryFailedError, type DataSource, type QueryRunner } from 'typeorm';
import { QueryResult } from 'typeorm/query-runner/QueryResult';
import { requestContext } from '../common/context/request-context';
import { answerTokensChangedBy, replaceAnswerTokens, replaceAnswerTokensIn } from './answer-sources';
import { DatabaseUnavailableError } from './errors';
import { SqliteGate } from './sqlite-gate';
import { readRows, type RowStatement } from './sqlite-rows';

interface Statement extends RowStatement {
  reader: boolean;
  readonly: boolean;
  run(...parameters: unknown[]): { changes: number; lastInsertRowid: number | bigint };
}

interface Connection {
  prepare(sql: string): Statement;
  close(): void;
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

  const cached = (cache: Map<string, Statement>, on: Connection, sql: string): Statement => {
    let statement = cache.get(sql);
    if (!statement) {
      statement = on.prepare(sql);
      cache.set(sql, statement);
      if (cache.size > cacheSize) cache.delete(cache.keys().next().value as string);
    }
    return statement;
  };
  const prepared = (sql: string): Statement => cached(statements, connection(), sql);

  /**
   * A second connection to a database file, for statements outside transactions that only read: in WAL
   * mode it reads the last committed state whatever transaction is open on the main connection, so reads
   * neither wait for writers nor see their uncommitted work. (An in-memory database has one connection.) Work
   * reading the latest (RequestContext.latest) stays on the main connection, behind any group commit in progress.
   */
  const file = dataSource.options.database as string | undefined;
  const reads = file && file !== ':memory:' && !file.startsWith('file:') ? openReader(file) : undefined;
  const readStatements = new Map<string, Statement>();
  /** The reading connection's statement for `sql`, or undefined when `sql` must run on the main one. */
  const readerFor = (sql: string): Statement | undefined => {
    if (!reads || /^\s*pragma/i.test(sql)) return undefined;
    let statement: Statement;
    try {
      statement = cached(readStatements, reads, sql);
    } catch {
      return undefined; // the main connection reports the error
    }
    return statement.readonly && statement.reader ? statement : undefined;
  };
  if (reads) {
    const destroy = dataSource.destroy.bind(dataSource);
    dataSource.destroy = async () => {
      reads.close();
      return destroy();
    };
  }

  /**
   * A statement changed rows kept answers are built from (answer-sources.ts): in a transaction their tokens are
   * replaced before its COMMIT; outside one, at once (this runs synchronously after the write, at the gate).
   */
  const answersChanged = (sql: string) => {
    const names = answerTokensChangedBy(sql);
    if (!names) return;
    const tx = requestContext.current()?.tx;
    if (tx) replaceAnswerTokensIn(tx, 'sqlite', names);
    else {
      const [replace, parameters] = replaceAnswerTokens('sqlite', names);
      prepared(replace).run(...parameters);
    }
  };

  const execute = (sql: string, parameters: unknown[], structured: boolean, reader?: Statement): unknown => {
    const values = parameters.map((p) => (typeof p === 'boolean' ? +p : p));
    logger.logQuery(sql, values, runner);
    const started = Date.now();
    try {
      const statement = reader ?? prepared(sql);
      const result = new QueryResult();
      if (statement.reader) {
        const rows = readRows(statement, values);
        // A write with RETURNING answers the rows it wrote.
        if (!statement.readonly && rows.length > 0) answersChanged(sql);
        result.raw = rows;
        result.records = rows;
      } else {
        const outcome = statement.run(...values);
        if (outcome.changes > 0) answersChanged(sql);
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
    const reader = token === undefined && !requestContext.current()?.latest ? readerFor(sql) : undefined;
    for (let attempt = 0; ; attempt += 1) {
      if (!reader) while (!gate.admits(token)) await gate.whenFree();
      try {
        return execute(sql, parameters, structured, reader);
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

  /**
   * Group commit. Transactions on this connection run one after another anyway; when one finishes its
   * work while others wait for the gate, the next one continues in the same SQLite transaction (inside a
   * savepoint, so that a failure undoes only its own work) and one COMMIT ends them all. Each member's
   * commit() resolves only after that COMMIT, so nothing is acknowledged before it is durable. Writes
   * outside transactions wait at the gate until then; reads run on the reading connection, which sees only
   * what was committed.
   */
  let group: { size: number; waiting: { resolve: () => void; reject: (error: unknown) => void }[] } | undefined;
  /** The members of the open group still at work: the first began the transaction, the others a savepoint. */
  const members = new Map<symbol, 'first' | 'savepoint'>();

  const setActive = (active: boolean) => {
    (runner as { isTransactionActive: boolean }).isTransactionActive = active;
    runner.transactionDepth = active ? 1 : 0;
  };

  /** Ends the group with `sql`, answers its waiting members, frees the gate. Throws what COMMIT threw. */
  const closeGroup = async (token: symbol, sql: 'COMMIT' | 'ROLLBACK', failure?: unknown): Promise<void> => {
    const waiting = group?.waiting ?? [];
    group = undefined;
    let error = failure;
    try {
      if (sql === 'COMMIT') await run('COMMIT', [], false, token);
      else if (connection().inTransaction) await run('ROLLBACK', [], false, token);
    } catch (caught) {
      error ??= caught;
      if (connection().inTransaction) await run('ROLLBACK', [], false, token).catch(() => undefined);
    } finally {
      setActive(false);
      gate.release(token);
    }
    if (error === undefined) waiting.forEach((member) => member.resolve());
    else {
      const lost = unavailable('The transaction could not be committed', error);
      waiting.forEach((member) => member.reject(lost));
      if (sql === 'COMMIT') throw lost;
    }
  };

  /** Whether the open group may take another transaction. */
  const mayGrow = (): boolean => group !== undefined && group.size < GROUP_MAX;
  /** Hands the open group to the next waiting transaction when it may grow; false when it must close. */
  const passOn = (token: symbol): boolean => mayGrow() && gate.passOn(token);

  return {
    async begin(token) {
      await gate.acquire(token);
      const joining = group !== undefined;
      try {
        await run(joining ? 'SAVEPOINT member' : 'BEGIN IMMEDIATE', [], false, token);
      } catch (error) {
        if (joining) await closeGroup(token, 'COMMIT').catch(() => undefined);
        else gate.release(token);
        throw error;
      }
      if (group) group.size += 1;
      else group = { size: 1, waiting: [] };
      members.set(token, joining ? 'savepoint' : 'first');
      setActive(true);
    },

    async commit(token) {
      if (members.get(token) === 'savepoint') await run('RELEASE member', [], false, token);
      members.delete(token);
      // With reads on their own connection, requests that arrived meanwhile reach their transaction
      // within one turn of the event loop: waiting for it lets them share this COMMIT.
      if (reads && mayGrow() && gate.queued === 0) await new Promise(setImmediate);
      if (mayGrow() && gate.queued > 0) {
        // Queued first: the next member may end the group before this returns.
        const committed = new Promise<void>((resolve, reject) => group!.waiting.push({ resolve, reject }));
        gate.passOn(token);
        return committed;
      }
      await closeGroup(token, 'COMMIT');
    },

    async rollback(token) {
      const kind = members.get(token);
      // Not at work: its group already ended (a COMMIT that failed rejected it).
      if (kind === undefined) return;
      members.delete(token);
      if (kind === 'first') return closeGroup(token, 'ROLLBACK');
      try {
        await run('ROLLBACK TO member', [], false, token);
        await run('RELEASE member', [], false, token);
      } catch (error) {
        // SQLite rolled the whole transaction back (it does after some I/O errors): so are the members before.
        return closeGroup(token, 'ROLLBACK', error);
      }
      if (passOn(token)) return;
      await closeGroup(token, 'COMMIT').catch(() => undefined);
    },
  };
}

/** Transactions that one COMMIT ends at most: the first of a group waits for the others' work. */
const GROUP_MAX = 8;

/** The reading connection. As on the main one, a busy file is waited for off the event loop (see run). */
function openReader(file: string): Connection {
  const reader = new BetterSqlite3(file, { fileMustExist: true }) as unknown as Connection;
  reader.pragma('busy_timeout = 0');
  return reader;
}

const unavailable = (message: string, cause: unknown): DatabaseUnavailableError =>
  cause instanceof DatabaseUnavailableError ? cause : new DatabaseUnavailableError(message, cause);
