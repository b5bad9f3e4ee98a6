import type { FastifyInstance } from 'fastify';
import { responseMode } from './response-mode';
import { isRevalidated } from './conditional-get';
import { JsonText } from './json-text';
import { toXml } from './xml';

/**
 * Applies `?pretty` (indented JSON) and `type=XML` (routes that opt in) to successful responses. A Fastify
 * hook rather than a global Nest interceptor: an interceptor puts every request through rxjs, which was
 * most of the per-request allocation. (Error bodies get the same treatment in the error writer.)
 */
export function registerSerializationHook(fastify: FastifyInstance): void {
  fastify.addHook('preSerialization', (request, reply, payload: unknown, done) => {
    const { xmlRoot, pretty } = responseMode(request);
    if (payload instanceof JsonText) {
      if (!xmlRoot && !pretty) {
        const { text, etag } = payload as JsonText<unknown>;
        void reply.type('application/json; charset=utf-8');
        // The entity tag the mapper knows, for routes that answer one (@Revalidated: conditional-get.ts).
        if (etag && isRevalidated(request) && reply.statusCode === 200) void reply.header('etag', etag);
        reply.serializer(() => text);
        done(null, payload);
        return;
      }
      payload = (payload as JsonText<unknown>).value();
    }
    if (xmlRoot) {
      void reply.type('application/xml; charset=utf-8');
      reply.serializer((value: unknown) => toXml(xmlRoot, value, pretty));
    } else if (pretty) {
      void reply.type('application/json; charset=utf-8');
      reply.serializer((value: unknown) => JSON.stringify(value, null, 2));
    }
    done(null, payload);
  });
}
