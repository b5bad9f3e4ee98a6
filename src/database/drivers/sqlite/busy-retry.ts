import type { QueryFailedError } from 'typeorm';
import { requestContext } from '../../../common/context/request-context';
import { DatabaseUnavailableError } from '../../errors';
import type { Execute } from './execute';
import type { SqliteGate } from './gate';
import type { ReadingConnection } from './reading-connection';
import type { RunStatement } from './types';

export const isBusy = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs each statement when the gate admits it (reads outside transactions on the reading connection, without
 * waiting). When another process holds the file's write lock, the connection's busy timeout is 0 and the
 * statement is retried with backoff off the event loop until `busyTimeoutMs`, then fails with
 * DatabaseUnavailableError (503). Work reading the latest (RequestContext.latest) stays on the main connection,
 * behind any group commit in progress.
 */
export function gatedRun(
  gate: SqliteGate,
  execute: Execute,
  reads: ReadingConnection | undefined,
  busyTimeoutMs: number,
): RunStatement {
  return async (sql, parameters, structured, token) => {
    const deadline = Date.now() + busyTimeoutMs;
    const reader = token === undefined && !requestContext.current()?.latest ? reads?.statementFor(sql) : undefined;
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
}
