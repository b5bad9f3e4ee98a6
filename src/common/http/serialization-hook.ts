import type { FastifyInstance } from 'fastify';
import { responseMode } from './response-mode';
import { toXml } from './xml';

/**
 * Applies `?pretty` (indented JSON) and `type=XML` (routes that opt in) to successful responses. A Fastify
 * hook rather than a global Nest interceptor: an interceptor puts every request through rxjs, which was
 * most of the per-request allocation. (Error bodies get the same treatment in the error writer.)
 */
export function registerSerializationHook(fastify: FastifyInstance): void {
  fastify.addHook('preSerialization', (request, reply, payload, done) => {
    const { xmlRoot, pretty } = responseMode(request);
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
