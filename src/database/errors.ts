/** True when a write failed on a unique index (MySQL/MariaDB ER_DUP_ENTRY, SQLite UNIQUE constraint). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; driverError?: { code?: string }; message?: string };
  const code = e?.driverError?.code ?? e?.code;
  return (
    code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '')
  );
}

/** The database cannot be reached, answers too slowly, or is locked: the request is answered 503. */
export class DatabaseUnavailableError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
    /** What the 503 body says instead of the general message. */
    readonly clientMessage?: string,
  ) {
    super(message);
    this.name = 'DatabaseUnavailableError';
  }
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_ENQUEUE_AFTER_QUIT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_QUERY_INTERRUPTED',
  'ER_CLIENT_INTERACTION_TIMEOUT',
  'POOL_CLOSED',
  'QUERY_TIMEOUT',
]);

/**
 * SQLite: locked by another process, or the file cannot be read or written (I/O error, disk full, the
 * file removed or moved away, no longer writable); each code has extended variants (SQLITE_IOERR_WRITE…).
 */
const UNAVAILABLE_SQLITE = /^SQLITE_(BUSY|IOERR|FULL|CANTOPEN|READONLY)(_|$)/;

/** True when an error means the database is away (connection refused, lost, timed out, shut down, locked). */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; driverError?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    depth += 1
  ) {
    if (e instanceof DatabaseUnavailableError) return true;
    if (typeof e.code === 'string' && (UNAVAILABLE_CODES.has(e.code) || UNAVAILABLE_SQLITE.test(e.code))) return true;
    if ((e as { fatal?: boolean }).fatal === true) return true;
    e = (e.driverError ?? e.cause) as typeof e;
  }
  return false;
}

/** The DatabaseUnavailableError in an error's chain, if any (it may carry the message for the client). */
export function databaseUnavailableErrorIn(error: unknown): DatabaseUnavailableError | undefined {
  for (let e = error as { driverError?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth += 1) {
    if (e instanceof DatabaseUnavailableError) return e;
    e = (e.driverError ?? e.cause) as typeof e;
  }
  return undefined;
}
