import { Injectable } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { JSON_CONTENT_TYPE } from '../../common/http/response-mode';
import { ResponseCache, type CacheScope } from './response-cache';

/** URLs remembered; past this, the oldest remembered is forgotten. */
const REMEMBERED_URLS = 4_000;

/**
 * Answers a GET without Authorization whose URL was answered with a cached answer (ResponseCache) before, with that
 * answer while it is still valid, ahead of the framework's per-request work (the guard, pipes, the controller):
 * a Fastify preHandler that reads the tokens (one statement) and sends the kept bytes, with the content type and
 * entity tag the routes' controllers give them. Fastify's hooks (request id, rate limit, CORS, conditional GET,
 * metrics) run as for any request. A URL is remembered only after its route answered it to a caller without
 * Authorization, 200, with exactly the bytes of the one cached answer that request was served; so the key is the
 * one the route works out from that URL, and anything else falls through to the route.
 */
@Injectable()
export class ResponseCacheFront {
  private readonly urls = new Map<string, { key: string; scope: CacheScope }>();

  constructor(private readonly answers: ResponseCache) {}

  attach(fastify: FastifyInstance): void {
    if (!this.answers.enabled) return;
    fastify.addHook('preHandler', async (request, reply) => {
      if (!this.urls.size || request.method !== 'GET' || request.headers.authorization !== undefined) return;
      const remembered = this.urls.get(request.url);
      if (!remembered) return;
      const kept = await this.answers.peek(remembered.key, remembered.scope);
      if (!kept) return;
      void reply.type(JSON_CONTENT_TYPE);
      if (kept.etag) void reply.header('etag', kept.etag);
      return reply.send(kept.json);
    });
    fastify.addHook('onSend', (request, reply, payload, done) => {
      const served = this.answers.servedNow();
      if (
        served &&
        payload === served.json &&
        reply.statusCode === 200 &&
        request.method === 'GET' &&
        request.headers.authorization === undefined &&
        reply.getHeader('content-type') === JSON_CONTENT_TYPE
      )
        this.remember(request.url, served.key, served.scope);
      done(null, payload);
    });
  }

  private remember(url: string, key: string, scope: CacheScope): void {
    if (this.urls.has(url)) return;
    if (this.urls.size >= REMEMBERED_URLS) this.urls.delete(this.urls.keys().next().value!);
    this.urls.set(url, { key, scope });
  }
}
