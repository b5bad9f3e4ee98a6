import { hash } from 'node:crypto';
import { applyDecorators } from '@nestjs/common';
import { RouteSettings } from './route-settings';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

interface ConditionalRouteConfig {
  etag?: boolean;
}

/**
 * The route's 200 answers carry a strong `ETag` (a hash of the bytes sent, or of the pieces they were written
 * from, so it changes whenever anything in the answer does: a new revision, a comment, the author's name), and
 * a GET whose `If-None-Match` names it is answered 304 with no body. No `Last-Modified`: these answers change without their revision's date changing.
 */
export function Revalidated() {
  return applyDecorators(
    RouteSettings({ etag: true } satisfies ConditionalRouteConfig),
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description: 'An `ETag` of an earlier answer: 304 with no body while the answer is the same.',
    }),
    ApiResponse({ status: 304, description: 'Not modified: the answer is still the one with the `ETag` sent.' }),
  );
}

/** Whether the request's route is marked @Revalidated(). */
export function isRevalidated(request: FastifyRequest): boolean {
  return (request.routeOptions?.config as ConditionalRouteConfig | undefined)?.etag === true;
}

/** `"<base64url SHA-1>"` of the bytes. */
export function entityTag(payload: string | Buffer): string {
  return `"${hash('sha1', payload, 'base64url')}"`;
}

/** RFC 9110 §13.1.2: weak comparison against a list of entity tags, or `*`. */
export function noneMatch(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => {
    const trimmed = candidate.trim();
    return (trimmed.startsWith('W/') ? trimmed.slice(2) : trimmed) === tag;
  });
}

/** Sets ETag on the 200 answers of routes marked @Revalidated(), and turns a matching conditional GET into 304. */
export function registerConditionalGetHook(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    if (
      !isRevalidated(request) ||
      reply.statusCode !== 200 ||
      (request.method !== 'GET' && request.method !== 'HEAD') ||
      (typeof payload !== 'string' && !Buffer.isBuffer(payload))
    ) {
      done(null, payload);
      return;
    }
    // A handler that knows a cheaper strong tag for its answer (written from pieces) sets it itself.
    const given = reply.getHeader('etag');
    const tag = typeof given === 'string' ? given : entityTag(payload);
    void reply.header('etag', tag);
    if (noneMatch(request.headers['if-none-match'], tag)) {
      void reply.code(304);
      done(null, '');
      return;
    }
    done(null, payload);
  });
}
