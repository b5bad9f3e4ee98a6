import { userInfo } from 'node:os';
import type { AppConfig, MysqlConnection } from '../config/app-config';
import { StartupError } from '../bootstrap/startup-error';

/** Connection failures that may pass by themselves (the server is starting, the network is slow): retried. */
const TRANSIENT_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused: is the server running?',
  ECONNRESET: 'connection reset by the server',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host name not found (yet)',
  EAI_AGAIN: 'host name lookup failed for now',
  PROTOCOL_CONNECTION_LOST: 'connection lost',
  PROTOCOL_SEQUENCE_TIMEOUT: 'server did not answer in time',
  ER_CON_COUNT_ERROR: 'the server has too many connections',
  ER_SERVER_SHUTDOWN: 'the server is shutting down',
  SQLITE_BUSY: 'the file is locked by another process',
};

export type DatabaseStartFailure =
  { transient: true; reason: string } | { transient: false; error: StartupError } | undefined;

export function processUser(): string {
  try {
    return userInfo().username;
  } catch {
    return `uid ${process.getuid?.() ?? '?'}`;
  }
}

const codeOf = (error: unknown): string | undefined => {
  const e = error as { code?: unknown; driverError?: { code?: unknown } } | undefined;
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
};

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function mysqlFailure(error: unknown, code: string, db: MysqlConnection): DatabaseStartFailure {
  const server = `${db.host}:${db.port}`;
  const fail = (message: string) => ({ transient: false as const, error: new StartupError(message, { cause: error }) });
  switch (code) {
    case 'ER_BAD_DB_ERROR':
      return fail(
        `Database "${db.database}" does not exist on the MySQL/MariaDB server ${server}. Create it (CREATE DATABASE \`${db.database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci) or set DB_NAME (or DATABASE_URL) to an existing one.`,
      );
    case 'ER_ACCESS_DENIED_ERROR':
    case 'ER_DBACCESS_DENIED_ERROR':
    case 'ER_TABLEACCESS_DENIED_ERROR':
    case 'ER_NOT_SUPPORTED_AUTH_MODE':
      return fail(
        `Access denied to database "${db.database}" on ${server} for user "${db.user}" (${messageOf(error)}). Check DB_USER and DB_PASSWORD (or DATABASE_URL) and that the user has all privileges on "${db.database}".`,
      );
    default:
      return undefined;
  }
}

function sqliteFailure(error: unknown, code: string, path: string): DatabaseStartFailure {
  if (!/^SQLITE_(CANTOPEN|READONLY|PERM|AUTH)/.test(code)) return undefined;
  return {
    transient: false,
    error: new StartupError(
      `Cannot write the SQLite database ${path} (${code}: ${messageOf(error)}). Make the file and its folder writable by user "${processUser()}", or set DB_PATH to a writable location.`,
      { cause: error },
    ),
  };
}

/**
 * What a failure to connect to (or open) the database at start-up means: transient (retried, with the
 * reason), permanent (one line naming the cause, the database and the fix), or unknown (undefined:
 * reported as it is).
 */
export function describeDatabaseStartFailure(error: unknown, database: AppConfig['database']): DatabaseStartFailure {
  if (error instanceof StartupError) return { transient: false, error };
  const code = codeOf(error);
  if (!code) return undefined;
  if (code in TRANSIENT_CODES) return { transient: true, reason: `${code}: ${TRANSIENT_CODES[code]}` };
  return database.type === 'mysql'
    ? mysqlFailure(error, code, database.primary)
    : sqliteFailure(error, code, database.path);
}
