import { Injectable } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml, page, text } from './html';
import { guideBody, userBody, wikiBody } from './page-renderers';

type Json = Record<string, unknown>;
type Params = Record<string, string>;

/** Wiki namespaces by the first path segment of their page URLs (wiki-namespaces.ts), plus iFixit's /Device. */
const WIKI_PREFIXES: Record<string, string> = {
  c: 'CATEGORY',
  Device: 'CATEGORY',
  Item: 'ITEM',
  Info: 'INFO',
  Team: 'TEAM',
  User: 'USER',
  Wiki: 'WIKI',
};
const NAMESPACES = new Set(Object.values(WIKI_PREFIXES));
const ID = /^[1-9]\d{0,9}$/;

/**
 * Read-only HTML pages behind the `url` fields of API responses, outside /api/2.0: /Guide/{title}/{guideid},
 * /User/{userid}/{name}, /c/{title} and /Device/{title}, /Item, /Info, /Team, /User/{title}, /Wiki/{title} and
 * /Wiki/{namespace}/{title}. Each page is the API's own anonymous answer for the document (so the same
 * visibility rules: a page exists exactly when an anonymous GET of the document succeeds), rendered with its
 * sanitized HTML, images and steps, and a link to the JSON.
 *
 * Plain Fastify routes rather than a Nest controller: Nest's global-prefix exclusions match paths without
 * regard to case, so excluding `User/:title` would also take `user/badges` out of /api/2.0. They are public
 * and read nothing but the API's anonymous answers; they are not part of the API document.
 */
@Injectable()
export class PagesService {
  register(fastify: FastifyInstance): void {
    fastify.get('/Guide/:title/:guideid', (request, reply) => {
      const { guideid } = request.params as Params;
      if (!ID.test(guideid)) return this.notFound(reply);
      return this.render(fastify, request, reply, `/api/2.0/guides/${guideid}`, (guide) => [
        text(guide.title),
        guideBody(guide),
      ]);
    });
    fastify.get('/User/:userid/:name', (request, reply) => {
      const { userid } = request.params as Params;
      if (!ID.test(userid)) return this.notFound(reply);
      return this.render(fastify, request, reply, `/api/2.0/users/${userid}`, (user) => [
        text(user.username),
        userBody(user),
      ]);
    });
    fastify.get('/Wiki/:namespace/:title', (request, reply) => {
      const { namespace, title } = request.params as Params;
      if (!NAMESPACES.has(namespace.toUpperCase())) return this.notFound(reply);
      return this.wiki(fastify, namespace.toUpperCase(), title, request, reply);
    });
    for (const [prefix, namespace] of Object.entries(WIKI_PREFIXES)) {
      fastify.get(`/${prefix}/:title`, (request, reply) =>
        this.wiki(fastify, namespace, (request.params as Params).title, request, reply),
      );
    }
  }

  private wiki(
    fastify: FastifyInstance,
    namespace: string,
    title: string,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    return this.render(fastify, request, reply, `/api/2.0/wikis/${namespace}/${encodeURIComponent(title)}`, (wiki) => [
      text(wiki.display_title) || text(wiki.title),
      wikiBody(wiki),
    ]);
  }

  /** Asks the API as an anonymous caller from the client's own address (so its rate limit applies). */
  private async render(
    fastify: FastifyInstance,
    request: FastifyRequest,
    reply: FastifyReply,
    apiPath: string,
    body: (document: Json) => [title: string, html: string],
  ): Promise<void> {
    const answer = await fastify.inject({
      method: 'GET',
      url: apiPath,
      remoteAddress: request.ip,
      headers: { 'x-request-id': String(request.id) },
    });
    const jsonUrl = apiPath;
    if (answer.statusCode !== 200) {
      const message = answer.statusCode === 404 ? 'Not found' : `The API answered ${answer.statusCode}`;
      return this.send(reply, answer.statusCode, page(message, `<h1>${escapeHtml(message)}</h1>`), answer.headers);
    }
    const [title, html] = body(answer.json<Json>());
    return this.send(reply, 200, page(title, html, jsonUrl));
  }

  private notFound(reply: FastifyReply): Promise<void> {
    return this.send(reply, 404, page('Not found', '<h1>Not found</h1>'));
  }

  private async send(
    reply: FastifyReply,
    status: number,
    html: string,
    upstream: Record<string, unknown> = {},
  ): Promise<void> {
    if (upstream['retry-after'] !== undefined) void reply.header('retry-after', text(upstream['retry-after']));
    await reply
      .status(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', "default-src 'none'; img-src * data:; style-src 'unsafe-inline'")
      .header('x-content-type-options', 'nosniff')
      .send(html);
  }
}
