import { Logger as TypeOrmLogger } from 'typeorm';
import type { Logger as PinoLogger } from 'pino';
import { requestContext } from '../common/context/request-context';

/** Counts SQL statements per request (for tests and the benchmark) and sends database errors to pino. */
export class SqlLogger implements TypeOrmLogger {
  constructor(private readonly pino?: PinoLogger) {}

  logQuery(query: string): void {
    const context = requestContext.current();
    if (context) context.stats.sqlStatements += 1;
    this.pino?.trace({ sql: query }, 'sql');
  }

  logQueryError(error: string | Error, query: string): void {
    const context = requestContext.current();
    if (context) context.stats.sqlStatements += 1;
    this.pino?.warn({ err: error, sql: query }, 'sql error');
  }

  logQuerySlow(time: number, query: string): void {
    this.pino?.warn({ ms: time, sql: query }, 'slow sql');
  }

  logSchemaBuild(message: string): void {
    this.pino?.debug(message);
  }

  logMigration(message: string): void {
    this.pino?.info(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.pino?.warn(String(message));
    else this.pino?.debug(String(message));
  }
}
