import type { Logger } from 'typeorm';
import type { AppConfig } from '../../config/app-config';
import type { Clock } from '../../platform/clock/clock';

/** What the driver specs (library-internals.spec.ts beside each driver) share. */
export const silentLogger = (statements: string[]): Logger => ({
  logQuery: (sql) => void statements.push(sql),
  logQueryError: () => undefined,
  logQuerySlow: () => undefined,
  logSchemaBuild: () => undefined,
  logMigration: () => undefined,
  log: () => undefined,
});

export const limits = (overrides: Partial<AppConfig['databaseLimits']> = {}) =>
  ({
    databaseLimits: { busyTimeoutMs: 200, queryTimeoutMs: 5000, connectTimeoutMs: 5000, poolSize: 2, ...overrides },
  }) as AppConfig;
export const clock = { now: () => Date.now() } as Clock;
