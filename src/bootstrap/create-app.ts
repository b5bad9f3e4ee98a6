import 'reflect-metadata';
import { RequestMethod, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';
import { AppModule } from '../app.module';
import type { PlatformOptions } from '../platform/platform.module';
import { registerBodyParsers } from '../common/http/body-parser';
import { writeClientError, writeError } from '../common/http/error-writer';
import { PinoNestLogger } from '../common/http/pino-nest-logger';
import { beginClosing, generateRequestId, registerRequestHooks } from '../common/http/request-hooks';
import { registerSerializationHook } from '../common/http/serialization-hook';
import { registerConditionalGetHook } from '../common/http/conditional-get';
import { RouteTable } from '../common/http/route-table';
import { registerRequestBaseUrl } from '../common/http/request-base-url';
import { OneLinePerRequest, REQUEST_LOG_FIELD } from '../common/http/request-log';
import { ResponseCacheFront } from '../platform/response-cache/response-cache-front';
import { RateLimitsService } from '../common/rate-limit/rate-limits.service';
import { MetricsService } from '../modules/operations/metrics.service';
import { TrainingPlayerPage } from '../modules/training-modules/training-player.page';
import { PagesService } from '../modules/pages/pages.service';
import type { AppConfig } from '../config/app-config';
import { API_PREFIX, buildOpenApiDocument, serveOpenApi } from '../openapi/openapi';
import pluginMetadata from '../metadata';

export interface CreateAppOptions {
  /** Where log lines go (default: stdout). Tests pass a capturing stream. */
  logStream?: DestinationStream;
  /** Adds X-Sql-Statements to every response (tests and the benchmark). */
  exposeSqlCount?: boolean;
  /** Additional modules (test-only routes). */
  extraModules?: Type[];
  /** Platform replacements: a FakeClock, a mailer (tests). */
  platform?: PlatformOptions;
}

/** Operations routes live outside /api/2.0 (as do the HTML pages, which PagesService registers itself). */
const OUTSIDE_API_PREFIX = ['health', 'health/live', 'health/ready', 'metrics'];

const CORS_HEADERS = ['Authorization', 'X-App-Id', 'Content-Type', 'X-Request-Id', 'X-Registration-Token'];

/**
 * Errors raised before a route handler (body parsing, limits, URL decoding) go to the one error handler
 * installed when the instance is created. Nest would install its own later, after some routes have
 * captured the first; keeping ours everywhere means one code path writes every error body.
 */
class ServiceFastifyAdapter extends FastifyAdapter {
  override setErrorHandler(): FastifyInstance {
    return this.getInstance<FastifyInstance>();
  }
}

export function createLogger(config: AppConfig, stream?: DestinationStream): Logger {
  const destination =
    stream ??
    (config.logFormat === 'pretty'
      ? // Synchronous, so that lines printed after start-up (main.ts) come after every log line.
        pinoPretty({
          colorize: process.stdout.isTTY,
          translateTime: 'SYS:HH:MM:ss',
          ignore: `pid,hostname,context,${REQUEST_LOG_FIELD}`,
          messageFormat: '{if context}[{context}] {end}{msg}',
          singleLine: true,
          destination: 1,
          sync: true,
        })
      : undefined);
  return pino(
    {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password'], censor: '[redacted]' },
    },
    destination,
  );
}

/** Builds the whole application with every HTTP convention wired, initialized but not listening. */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestFastifyApplication> {
  const logger = createLogger(config, options.logStream);
  const routes = new RouteTable();
  const adapter = new ServiceFastifyAdapter({
    loggerInstance: logger,
    genReqId: generateRequestId,
    logController: new OneLinePerRequest(),
    bodyLimit: Math.max(config.bodyLimit, config.uploadLimit),
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 1000 },
    // Router errors (bad URL encoding, over-long path segment) in the error body, connection kept.
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => {
      void writeError(error, request, reply, routes);
    },
    clientErrorHandler: writeClientError,
    // Fastify takes a hop count too; the adapter's type does not say so.
    trustProxy: config.trustProxy as boolean | string[],
    // After SIGTERM, requests on open connections are served (with Connection: close): see shutdownApp.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
  });
  const fastify: FastifyInstance = adapter.getInstance();
  registerRequestHooks(fastify, { exposeSqlCount: options.exposeSqlCount ?? config.sqlCountHeader });
  // After the request context opens: a 405 it answers carries the request id like any other answer.
  routes.attach(fastify);
  registerSerializationHook(fastify);
  registerConditionalGetHook(fastify);
  registerBodyParsers(fastify, { body: config.bodyLimit, upload: config.uploadLimit });
  fastify.setErrorHandler((error, request, reply) => writeError(error, request, reply, routes));
  await fastify.register(multipart, { limits: { fileSize: config.uploadLimit, files: 1, fields: 10, parts: 20 } });

  await SwaggerModule.loadPluginMetadata(pluginMetadata);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot({
      config,
      routes,
      log: { logger },
      extraModules: options.extraModules,
      platform: options.platform,
    }),
    adapter,
    { logger: new PinoNestLogger(logger), bodyParser: false, abortOnError: false },
  );
  await app.get(RateLimitsService).register(fastify);
  app.get(MetricsService).attach(fastify);
  app.get(ResponseCacheFront).attach(fastify);
  app.get(PagesService).register(fastify);
  app.get(TrainingPlayerPage).register(fastify);
  registerRequestBaseUrl(fastify, config);
  app.setGlobalPrefix(API_PREFIX, {
    exclude: OUTSIDE_API_PREFIX.map((path) => ({ path, method: RequestMethod.GET })),
  });
  app.enableCors({
    origin: '*',
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: CORS_HEADERS,
    exposedHeaders: [
      'X-Request-Id',
      'Retry-After',
      'Allow',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
    ],
    maxAge: 86400,
    optionsSuccessStatus: 204,
  });
  serveOpenApi(app, () => buildOpenApiDocument(app));
  await app.init();
  await fastify.ready();
  return app;
}

/** How long kept-alive connections that carry no request are kept open after SIGTERM. */
export const IDLE_CONNECTION_GRACE_MS = 1500;

/**
 * Graceful stop: the HTTP server stops accepting connections, serves what arrives on the connections it
 * has (each answer with `Connection: close`), then Nest's shutdown hooks run (pending events are
 * delivered, jobs stop, the database pool closes). Nest's own close() would destroy the pool before
 * closing the server.
 *
 * Node's `server.close()` destroys idle kept-alive connections at once, and a request a client is
 * sending on one at that moment is reset: the client cannot tell whether its POST was applied. So idle
 * connections are kept for IDLE_CONNECTION_GRACE_MS: a request that arrives on one is served and
 * answered with `Connection: close`; only connections that stayed silent are closed after it.
 */
export async function shutdownApp(app: NestFastifyApplication, options: { idleGraceMs?: number } = {}): Promise<void> {
  const fastify: FastifyInstance = app.getHttpAdapter().getInstance();
  beginClosing(fastify);
  const server = fastify.server;
  const closeIdleConnections = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => undefined;
  const reaper = setTimeout(closeIdleConnections, options.idleGraceMs ?? IDLE_CONNECTION_GRACE_MS);
  try {
    await fastify.close();
  } finally {
    clearTimeout(reaper);
    server.closeIdleConnections = closeIdleConnections;
  }
  await app.close();
}
