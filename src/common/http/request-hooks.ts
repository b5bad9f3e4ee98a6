import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requestContext } from '../context/request-context';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Uses the caller's X-Request-Id when it is a sane token, else a new UUID. */
export function generateRequestId(request: { headers: Record<string, unknown> }): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

const closing = new WeakSet<FastifyInstance>();

/**
 * From now on every response asks the client to close its connection, so that keep-alive sockets of
 * requests that finish during shutdown do not hold the server open until their idle timeout.
 */
export function beginClosing(fastify: FastifyInstance): void {
  closing.add(fastify);
}

/**
 * Echoes the request id and, when asked, reports the SQL statements each request ran. Only that counter
 * reads the per-request context, so the context is opened only then: on Node 20 the first
 * AsyncLocalStorage.run() turns on async_hooks promise tracking for every promise of the process.
 */
export function registerRequestHooks(fastify: FastifyInstance, options: { exposeSqlCount: boolean }): void {
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (closing.has(fastify)) void reply.header('connection', 'close');
    done(null, payload);
  });
  if (!options.exposeSqlCount) {
    fastify.addHook('onRequest', (request, reply, done) => {
      void reply.header('x-request-id', request.id);
      done();
    });
    return;
  }
  fastify.addHook('onRequest', (request: FastifyRequest, reply, done) => {
    void reply.header('x-request-id', request.id);
    requestContext.run({ requestId: request.id, sqlStatements: 0 }, done);
  });
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    const context = requestContext.current();
    if (context) void reply.header('x-sql-statements', String(context.sqlStatements));
    done(null, payload);
  });
}
