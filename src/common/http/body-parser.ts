import { HttpStatus } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../validation/input-guards';
import { ApiException } from './api-errors';

export interface BodyRouteConfig {
  /** The handler receives the raw bytes (media uploads) instead of parsed JSON. */
  rawBody?: boolean;
}

const isRawRoute = (request: FastifyRequest) =>
  Boolean((request.routeOptions?.config as BodyRouteConfig | undefined)?.rawBody);

const tooLarge = (limit: number) =>
  new ApiException(HttpStatus.PAYLOAD_TOO_LARGE, `Request body is larger than the limit of ${limit} bytes`);

/**
 * Bodies are JSON whatever the Content-Type says (clients send JSON unlabelled or labelled as a form);
 * routes marked rawBody get the bytes. Multipart parsers registered later take precedence for their type.
 */
export function registerBodyParsers(fastify: FastifyInstance, limits: { body: number; upload: number }): void {
  fastify.removeAllContentTypeParsers();

  fastify.addHook('onRequest', async (request) => {
    const declared = Number(request.headers['content-length']);
    const limit = isRawRoute(request) ? limits.upload : limits.body;
    if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  });

  fastify.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: Math.max(limits.body, limits.upload) },
    (request, body: Buffer, done) => {
      if (isRawRoute(request)) return done(null, body);
      if (body.length > limits.body) return done(tooLarge(limits.body), undefined);
      const text = body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
        return done(
          new ApiException(HttpStatus.BAD_REQUEST, `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`),
          undefined,
        );
      }
      try {
        done(null, JSON.parse(text));
      } catch {
        done(new ApiException(HttpStatus.BAD_REQUEST, 'Request body is not valid JSON'), undefined);
      }
    },
  );
}
