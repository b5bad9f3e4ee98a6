import { HttpStatus } from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../validation/input-guards';
import { ApiException } from './api-errors';
import { closeAfterResponse } from './request-hooks';

/**
 * A body the parser refused (not JSON, nested too deep, too large). It stands in for the body until the access
 * guard has authenticated the caller and checked their privileges, which then raises its error: who may call a
 * route is answered before anything about what they sent.
 */
export class RejectedBody {
  constructor(readonly error: ApiException) {}
}

/** Raises the parser's refusal of the request's body, if any (the access guard calls it once it has passed). */
export function assertBodyAccepted(request: { body?: unknown }): void {
  if (request.body instanceof RejectedBody) throw request.body.error;
}

export interface BodyRouteConfig {
  /** The handler receives the raw bytes (media uploads) instead of parsed JSON. */
  rawBody?: boolean;
  /**
   * The handler receives the unread body stream (large uploads written to disk as they arrive) whatever its
   * Content-Type (a multipart form is read through request.file()), so that authentication and privileges are
   * checked before the type: the handler answers 415 for a type it does not take, and enforces its own size
   * limit.
   */
  streamBody?: string[];
}

const routeConfig = (request: FastifyRequest) => request.routeOptions?.config as BodyRouteConfig | undefined;
const isRawRoute = (request: FastifyRequest) => Boolean(routeConfig(request)?.rawBody);

/** Content types whose bodies may be streamed to a handler (streamBody routes); elsewhere they are buffered. */
export const STREAMABLE_TYPES = ['application/zip', 'application/x-zip-compressed'];

const tooLarge = (limit: number) =>
  new ApiException(HttpStatus.PAYLOAD_TOO_LARGE, `Request body is larger than the limit of ${limit} bytes`);

/**
 * Bodies are JSON whatever the Content-Type says (clients send JSON unlabelled or labelled as a form);
 * routes marked rawBody get the bytes. Multipart parsers registered later take precedence for their type.
 */
export function registerBodyParsers(fastify: FastifyInstance, limits: { body: number; upload: number }): void {
  fastify.removeAllContentTypeParsers();

  // A body declared larger than the limit is never read: the connection closes after the answer.
  const oversized = new WeakMap<FastifyRequest, number>();
  fastify.addHook('onRequest', async (request) => {
    if (routeConfig(request)?.streamBody) return;
    const declared = Number(request.headers['content-length']);
    const limit = isRawRoute(request) ? limits.upload : limits.body;
    if (Number.isFinite(declared) && declared > limit) {
      oversized.set(request, limit);
      closeAfterResponse(request);
    }
  });
  const refuse = (done: ParserDone, error: ApiException) => done(null, new RejectedBody(error));

  const parseBuffered = (
    request: FastifyRequest,
    body: Buffer,
    done: (error: Error | null, body?: unknown) => void,
  ) => {
    if (isRawRoute(request)) return done(null, body);
    if (body.length > limits.body) return refuse(done, tooLarge(limits.body));
    const text = body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
      return refuse(
        done,
        new ApiException(HttpStatus.BAD_REQUEST, `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`),
      );
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      refuse(done, new ApiException(HttpStatus.BAD_REQUEST, 'Request body is not valid JSON'));
    }
  };

  // Bodies go unread to streamBody routes; elsewhere they are read and parsed.
  const readOrStream = (request: FastifyRequest, payload: Readable, done: ParserDone) => {
    if (routeConfig(request)?.streamBody) return done(null, payload);
    const declaredOver = oversized.get(request);
    if (declaredOver !== undefined) return refuse(done, tooLarge(declaredOver));
    const limit = isRawRoute(request) ? limits.upload : Math.max(limits.body, limits.upload);
    const chunks: Buffer[] = [];
    let size = 0;
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        payload.removeAllListeners('data');
        payload.resume();
        return refuse(done, tooLarge(limit));
      }
      chunks.push(chunk);
    });
    payload.on('error', (error) => done(error, undefined));
    payload.on('end', () => {
      if (size > limit) return;
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared !== size) {
        return refuse(done, new ApiException(HttpStatus.BAD_REQUEST, 'Content-Length does not match the body'));
      }
      parseBuffered(request, Buffer.concat(chunks), done);
    });
  };
  fastify.addContentTypeParser('*', readOrStream);
  fastify.addContentTypeParser(STREAMABLE_TYPES, readOrStream);
}

type ParserDone = (error: Error | null, body?: unknown) => void;
