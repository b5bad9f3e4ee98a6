import type { Logger } from 'pino';

/** The process's root pino logger (Fastify's), injectable where request context is not available. */
export const LOG_ROOT = Symbol('LOG_ROOT');
export interface RootLogger {
  logger: Logger | undefined;
}
