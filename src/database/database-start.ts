import type { AppConfig } from '../config/app-config';
import { StartupError } from '../bootstrap/startup-error';
import { describeDatabaseStartFailure } from './startup-failure';

export const DATABASE_START_ATTEMPTS = 10;
export const DATABASE_RETRY_DELAY_MS = 3000;

const target = (database: AppConfig['database']) =>
  database.type === 'mysql'
    ? `database "${database.primary.database}" on ${database.primary.host}:${database.primary.port}`
    : `SQLite database ${database.path}`;

/**
 * Runs a start-up step that needs the database: a transient failure (server starting, refused, timed out)
 * is retried with its reason on each retry line; a permanent one (unknown database, access denied, file or
 * folder read-only) fails at once with a StartupError; anything else is thrown as it is.
 */
export async function withDatabaseRetry<T>(
  config: Pick<AppConfig, 'database'>,
  log: { warn(message: string): void },
  step: () => Promise<T>,
  options: { attempts?: number; delayMs?: number } = {},
): Promise<T> {
  const attempts = options.attempts ?? DATABASE_START_ATTEMPTS;
  const delayMs = options.delayMs ?? DATABASE_RETRY_DELAY_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      const failure = describeDatabaseStartFailure(error, config.database);
      if (!failure) throw error;
      if (!failure.transient) throw failure.error;
      if (attempt >= attempts) {
        throw new StartupError(
          `Cannot reach the ${target(config.database)} after ${attempts} attempts (${failure.reason}). Start the database server, or check DB_HOST/DB_PORT (or DATABASE_URL).`,
          { cause: error },
        );
      }
      log.warn(
        `cannot reach the ${target(config.database)} (${failure.reason}); retrying in ${delayMs / 1000} s (attempt ${attempt + 1} of ${attempts})`,
      );
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}
