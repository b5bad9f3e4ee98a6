import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
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

const closeAfter = new WeakSet<FastifyRequest>();

/** How long a connection closed after its answer stays half-open before it is destroyed. */
const LINGER_MS = 1000;

/**
 * The answer to this request asks the client to close its connection, and the connection closes once the
 * answer is sent, however much of the body is left (a refused upload the client keeps sending): ended at once
 * and destroyed LINGER_MS later, so that the client reads the answer before the connection is reset.
 */
export function closeAfterResponse(request: FastifyRequest): void {
  closeAfter.add(request);
  const socket = request.raw.socket as Socket | undefined;
  // Node's server calls destroySoon() on the socket once an answer with `Connection: close` is sent.
  if (socket && typeof socket.destroySoon === 'function') socket.destroySoon = lingeringClose;
}

function lingeringClose(this: Socket): void {
  if (this.writable) this.end();
  const timer = setTimeout(() => this.destroy(), LINGER_MS);
  timer.unref();
  this.once('close', () => clearTimeout(timer));
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Opens the request context (request id, client address, user agent; the access guard adds the actor)
 * for everything the request does, echoes the request id and, when asked, reports the SQL statements
 * the request ran.
 */
export function registerRequestHooks(fastify: FastifyInstance, options: { exposeSqlCount: boolean }): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (closing.has(fastify) || closeAfter.has(request)) void reply.header('connection', 'close');
    done(null, payload);
  });
  fastify.addHook('onRequest', (request: FastifyRequest, reply, done) => {
    void reply.header('x-request-id', request.id);
    const agent = request.headers['user-agent'];
    requestContext.run(
      {
        requestId: request.id,
        ip: request.ip,
        userAgent: typeof agent === 'string' ? agent : undefined,
        primary: !READ_METHODS.has(request.method),
        stats: { sqlStatements: 0 },
      },
      done,
    );
  });
  if (!options.exposeSqlCount) return;
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    const context = requestContext.current();
    if (context) void reply.header('x-sql-statements', String(context.stats.sqlStatements));
    const trips = context?.stats.sqlRoundTrips;
    if (trips !== undefined) void reply.header('x-sql-round-trips', String(trips));
    done(null, payload);
  });
}
