import 'reflect-metadata';
import { RequestMethod, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';
import { AppModule } from '../app.module';
import { registerBodyParsers } from '../common/http/body-parser';
import { writeError } from '../common/http/error-writer';
import { PinoNestLogger } from '../common/http/pino-nest-logger';
import { beginClosing, generateRequestId, registerRequestHooks } from '../common/http/request-hooks';
import { registerSerializationHook } from '../common/http/serialization-hook';
import { RouteTable } from '../common/http/route-table';
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
}

const CORS_HEADERS = ['Authorization', 'X-App-Id', 'Content-Type', 'X-Request-Id'];

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
  return pino(
    {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password'], censor: '[redacted]' },
    },
    stream,
  );
}

/** Builds the whole application with every HTTP convention wired, initialized but not listening. */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestFastifyApplication> {
  const logger = createLogger(config, options.logStream);
  const routes = new RouteTable();
  const adapter = new ServiceFastifyAdapter({
    loggerInstance: logger,
    genReqId: generateRequestId,
    bodyLimit: Math.max(config.bodyLimit, config.uploadLimit),
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 1000 },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });
  const fastify: FastifyInstance = adapter.getInstance();
  routes.attach(fastify);
  registerRequestHooks(fastify, { exposeSqlCount: options.exposeSqlCount ?? config.sqlCountHeader });
  registerSerializationHook(fastify);
  registerBodyParsers(fastify, { body: config.bodyLimit, upload: config.uploadLimit });
  fastify.setErrorHandler((error, request, reply) => writeError(error, request, reply, routes));
  await fastify.register(multipart, { limits: { fileSize: config.uploadLimit, files: 1, fields: 10, parts: 20 } });

  await SwaggerModule.loadPluginMetadata(pluginMetadata);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot({ config, routes, log: { logger }, extraModules: options.extraModules }),
    adapter,
    { logger: new PinoNestLogger(logger), bodyParser: false, abortOnError: false },
  );
  app.setGlobalPrefix(API_PREFIX, { exclude: [{ path: 'health', method: RequestMethod.GET }] });
  app.enableCors({
    origin: '*',
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: CORS_HEADERS,
    exposedHeaders: ['X-Request-Id', 'Retry-After', 'Allow'],
    maxAge: 86400,
    optionsSuccessStatus: 204,
  });
  serveOpenApi(app, buildOpenApiDocument(app));
  await app.init();
  await fastify.ready();
  return app;
}

/**
 * Graceful stop: the HTTP server first stops accepting and lets in-flight requests finish, then Nest's
 * shutdown hooks run (event handlers, the database pool). Nest's own close() would destroy the pool
 * before closing the server.
 */
export async function shutdownApp(app: NestFastifyApplication): Promise<void> {
  const fastify: FastifyInstance = app.getHttpAdapter().getInstance();
  beginClosing(fastify);
  await fastify.close();
  await app.close();
}
