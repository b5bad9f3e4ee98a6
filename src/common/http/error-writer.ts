import { HttpException, HttpStatus } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiException, RevisionConflictException, type ErrorBody } from './api-errors';
import { responseMode } from './response-mode';
import type { RouteTable } from './route-table';
import { toXml } from './xml';

const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported media type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
  FST_ERR_BAD_URL: 'The URL is malformed',
  FST_ERR_ASYNC_CONSTRAINT: 'The URL is malformed',
};

interface FastifyLikeError {
  statusCode?: number;
  code?: string;
  message?: string;
}

const errorBody = (message: string): ErrorBody => ({ error: true, message });

/** Turns anything thrown into a status and a body in the iFixit shape. Never leaks internals on 5xx. */
export function describeError(exception: unknown): { status: number; body: unknown; unexpected: boolean } {
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
