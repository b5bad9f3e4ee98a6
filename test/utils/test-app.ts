import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { DataSource } from 'typeorm';
import { createApp, type CreateAppOptions } from '../../src/bootstrap/create-app';
import type { AppConfig } from '../../src/config/app-config';
import { resetBeforeStart } from './reset-database';
import { closeReplicaSync, waitForReplica } from './replica-sync';
import { testConfig } from './test-config';

/** light-my-request's options, with any method name (tests send methods they read from the OpenAPI document). */
export type TestRequest = Omit<InjectOptions, 'method'> & { method?: string };

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  dataSource: DataSource;
  inject(options: TestRequest): Promise<LightMyRequestResponse>;
  /** Shorthand for a request with `Authorization: api <token>`. */
  as(token: string | undefined, options: TestRequest): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * Boots the real application (Fastify, database, migrations, startup tasks) on an empty database:
 * SQLite in memory is new for every app; the run's MySQL database is emptied first unless keepData.
 */
export async function createTestApp(
  options: CreateAppOptions & { env?: Record<string, string>; keepData?: boolean } = {},
): Promise<TestApp> {
  const config = testConfig(options.env);
  if (!options.keepData) await resetBeforeStart(config);
  const app = await createApp(config, { exposeSqlCount: true, ...options });
  const dataSource = app.get(DataSource);
  const fastify = app.getHttpAdapter().getInstance();
  const replicated = config.database.type === 'mysql' && config.database.replicas.length > 0;
  const inject = replicated
    ? async (request: TestRequest) => {
        await waitForReplica();
        return fastify.inject(request as InjectOptions);
      }
    : (request: TestRequest) => fastify.inject(request as InjectOptions);
  return {
    app,
    config,
    dataSource,
    inject,
    as: (token, request) =>
      inject({ ...request, headers: { ...(token ? { authorization: `api ${token}` } : {}), ...request.headers } }),
    close: async () => {
      await app.close();
      if (replicated) await closeReplicaSync();
    },
  };
}

export const sqlCount = (response: LightMyRequestResponse): number => Number(response.headers['x-sql-statements']);
