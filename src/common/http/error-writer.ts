import { STATUS_CODES } from 'node:http';
import { HttpException, HttpStatus } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiException, RevisionConflictException, type ErrorBody } from './api-errors';
import { responseMode } from './response-mode';
import type { RouteTable } from './route-table';
import { toXml } from './xml';
import { databaseUnavailableErrorIn, isDatabaseUnavailable } from '../../database/errors';
import { requestContext } from '../context/request-context';

/** How long a client should wait before retrying when the database is away. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported media type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
  FST_ERR_BAD_URL: 'The URL is malformed',
  FST_ERR_MAX_PARAM_LENGTH: 'A path segment is longer than the limit of 1000 characters',
  FST_ERR_ASYNC_CONSTRAINT: 'The URL is malformed',
};

interface FastifyLikeError {
  statusCode?: number;
  code?: string;
  message?: string;
}

const errorBody = (message: string): ErrorBody => ({ error: true, message });

/**
 * What a 503 tells the client about its change: nothing was saved (the general message), the change was
 * saved and only its answer could not be read (a transaction of the request committed), or the COMMIT's
 * outcome is unknown.
 */
function databaseUnavailableMessage(exception: unknown): string {
  const specific = databaseUnavailableErrorIn(exception)?.clientMessage;
  if (specific) return specific;
  if (requestContext.current()?.stats.commits) {
    return (
      'The change was saved, but the database became unavailable before the answer could be read: ' +
      'read the resource again shortly instead of repeating the request.'
    );
  }
  return 'The database is unavailable; try again shortly';
}

/** Turns anything thrown into a status and a body in the iFixit shape. Never leaks internals on 5xx. */
export function describeError(exception: unknown): {
  status: number;
  body: unknown;
  unexpected: boolean;
  retryAfter?: number;
} {
  if (exception instanceof RevisionConflictException) {
    return { status: HttpStatus.CONFLICT, body: exception.current, unexpected: false };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    if (typeof response === 'object' && response !== null && (response as ErrorBody).error === true) {
      return { status, body: response, unexpected: false };
    }
    const raw = typeof response === 'string' ? response : (response as { message?: unknown }).message;
    const message = Array.isArray(raw) ? raw.join('; ') : typeof raw === 'string' ? raw : exception.message;
    return { status, body: errorBody(message), unexpected: status >= 500 };
  }
  const fastifyError = exception as FastifyLikeError;
  if (typeof fastifyError?.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    const message = (fastifyError.code && FASTIFY_MESSAGES[fastifyError.code]) ?? fastifyError.message ?? 'Bad request';
    return { status: fastifyError.statusCode, body: errorBody(message), unexpected: false };
  }
  if (isDatabaseUnavailable(exception)) {
    return {
      status: HttpStatus.SERVICE_UNAVAILABLE,
      body: errorBody(databaseUnavailableMessage(exception)),
      unexpected: false,
      retryAfter: DATABASE_RETRY_AFTER_SECONDS,
    };
  }
  return { status: HttpStatus.INTERNAL_SERVER_ERROR, body: errorBody('Internal server error'), unexpected: true };
}

/**
 * The one place that writes an error response, for errors raised inside Nest (exception filter)
 * and inside Fastify before routing (content-type parsing, body limit, URL decoding).
 */
export function writeError(
  exception: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  routes: RouteTable,
): FastifyReply {
  const described = describeError(exception);
  let status: number = described.status;
  let body = described.body;
  if (described.unexpected) request.log.error({ err: exception }, 'unhandled error');
  if (described.retryAfter !== undefined) {
    request.log.warn({ err: exception }, 'database unavailable');
    void reply.header('retry-after', String(described.retryAfter));
  }
  if (status === Number(HttpStatus.NOT_FOUND) && !request.routeOptions?.url) {
    const path = request.url.split('?')[0];
    const allowed = routes.allowedMethods(path);
    if (allowed.length) {
      status = HttpStatus.METHOD_NOT_ALLOWED;
      body = errorBody(`Method ${request.method} is not allowed on ${path}`);
      void reply.header('allow', allowed.join(', '));
    } else {
      body = errorBody(`No such endpoint: ${request.method} ${path}`);
    }
  }
  if (reply.sent) return reply;
  if (exception instanceof ApiException && exception.headers) void reply.headers(exception.headers);
  const mode = responseMode(request);
  void reply.status(status);
  if (mode.xmlRoot) {
    return reply.type('application/xml; charset=utf-8').send(toXml('error', body, mode.pretty));
  }
  return reply
    .type('application/json; charset=utf-8')
    .send(mode.pretty ? JSON.stringify(body, null, 2) : JSON.stringify(body));
}

const CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'The request line or headers are larger than the limit' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in time' },
};

/**
 * Errors of Node's HTTP parser (431 headers too large, malformed requests), raised before Fastify sees a
 * request: written in the error body shape. The parser cannot resynchronise after them, so the
 * connection is closed (as Node itself does), and says so.
 */
export function writeClientError(error: NodeJS.ErrnoException, socket: import('node:net').Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, message } = CLIENT_ERRORS[error.code ?? ''] ?? { status: 400, message: 'The request is malformed' };
  const body = JSON.stringify(errorBody(message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
