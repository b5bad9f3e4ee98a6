import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';

/** Nest's start-up chatter (a line per module and per route): debug, so the info log says what matters. */
const WIRING = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

/**
 * Nest logs an error that stops start-up before throwing it; the caller reports it (main.ts prints one line).
 * "NestApplication" says "successfully started" before the server listens: main.ts says when it listens.
 */
const REPORTED_BY_CALLER = 'ExceptionHandler';

/** Routes Nest's own log lines into the same pino logger Fastify uses for requests. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly pino: Logger) {}

  private write(level: 'info' | 'warn' | 'error' | 'debug' | 'trace' | 'fatal', message: unknown, params: unknown[]) {
    const context = params.length ? params[params.length - 1] : undefined;
    const extra = typeof context === 'string' ? { context } : {};
    // `logger.error({ err, requestId }, 'what happened')`: Nest passes the text before the context.
    const text = (typeof context === 'string' ? params.slice(0, -1) : params).find((p) => typeof p === 'string');
    if (message instanceof Error) this.pino[level]({ ...extra, err: message }, message.message);
    else if (typeof message === 'object' && message !== null) this.pino[level]({ ...extra, ...message }, text);
    else this.pino[level](extra, String(message));
  }

  log(message: unknown, ...params: unknown[]) {
    const context = params[params.length - 1];
    this.write(typeof context === 'string' && WIRING.has(context) ? 'debug' : 'info', message, params);
  }
  error(message: unknown, ...params: unknown[]) {
    this.write(params[params.length - 1] === REPORTED_BY_CALLER ? 'debug' : 'error', message, params);
  }
  warn(message: unknown, ...params: unknown[]) {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]) {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]) {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]) {
    this.write('fatal', message, params);
  }
}
