import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';

/** Routes Nest's own log lines into the same pino logger Fastify uses for requests. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly pino: Logger) {}

  private write(level: 'info' | 'warn' | 'error' | 'debug' | 'trace' | 'fatal', message: unknown, params: unknown[]) {
    const context = params.length ? params[params.length - 1] : undefined;
    const extra = typeof context === 'string' ? { context } : {};
    if (message instanceof Error) this.pino[level]({ ...extra, err: message }, message.message);
    else if (typeof message === 'object' && message !== null) this.pino[level]({ ...extra, ...message });
    else this.pino[level](extra, String(message));
  }

  log(message: unknown, ...params: unknown[]) {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]) {
    this.write('error', message, params);
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
