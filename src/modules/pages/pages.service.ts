import { Injectable } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { titleFromPath } from '../wikis/wiki-namespaces';
import { escapeHtml, page, text } from './html';
import { GUIDES_PER_PAGE, guideListBody, homeBody, pageNumber, RECENT_GUIDES } from './index-pages';
import { notFoundBody, type Missing } from './not-found';
import { categoryBody, guideBody, userBody, wikiBody } from './page-renderers';

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
 * /Wiki/{namespace}/{title}; and the home page (/), the guide list (/Guide?page=N) and search results
 * (/Search?query=…). Each page is the API's own anonymous answer for the document (so the same
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
    fastify.get('/', (request, reply) => this.home(fastify, request, reply));
    fastify.get('/Guide', (request, reply) => this.guideList(fastify, request, reply));
    fastify.get('/Search', (request, reply) => this.search(fastify, request, reply));
    fastify.get('/Guide/:title/:guideid', (request, reply) => {
      const { guideid } = request.params as Params;
      if (!ID.test(guideid)) return this.notFound(reply, { kind: 'guide' });
      const missing: Missing = { kind: 'guide', guideid };
      return this.render(fastify, request, reply, `/api/2.0/guides/${guideid}`, missing, (guide) => [
        text(guide.title),
        guideBody(guide),
      ]);
    });
    fastify.get('/User/:userid/:name', (request, reply) => {
      const { userid } = request.params as Params;
      if (!ID.test(userid)) return this.notFound(reply, { kind: 'user' });
      return this.render(fastify, request, reply, `/api/2.0/users/${userid}`, { kind: 'user' }, (user) => [
        text(user.username),
        userBody(user),
      ]);
    });
    fastify.get('/Wiki/:namespace/:title', (request, reply) => {
      const { namespace, title } = request.params as Params;
      if (!NAMESPACES.has(namespace.toUpperCase())) return this.notFound(reply, { kind: 'page' });
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
    const apiPath = `/api/2.0/wikis/${namespace}/${encodeURIComponent(title)}`;
    const category = namespace === 'CATEGORY';
    const missing: Missing = { kind: category ? 'category' : 'wiki', title: titleFromPath(title) };
    return this.render(fastify, request, reply, apiPath, missing, (wiki) => [
      text(wiki.display_title) || text(wiki.title),
      category ? categoryBody(wiki) : wikiBody(wiki),
    ]);
  }

  /** The newest guides, the top categories and a search box. */
  private async home(fastify: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const [tree, recent] = await Promise.all([
      this.ask(fastify, request, '/api/2.0/categories'),
      this.ask(fastify, request, `/api/2.0/guides?order=DESC&limit=${RECENT_GUIDES}`),
    ]);
    const failed = [tree, recent].find((answer) => answer.statusCode !== 200);
    if (failed) return this.failed(reply, failed, { kind: 'page' });
    const html = homeBody(tree.json<Json>(), recent.json<Json[]>());
    return this.send(reply, 200, page('Repair guides', html, undefined, 'Step-by-step repair guides.'));
  }

  /** Public guides by guideid, GUIDES_PER_PAGE a page (as GET /guides lists them). */
  private async guideList(fastify: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const number = pageNumber((request.query as Params).page);
    if (number === undefined) return this.notFound(reply, { kind: 'page' });
    // One more than a page tells whether there is a next one.
    const apiPath = `/api/2.0/guides?offset=${(number - 1) * GUIDES_PER_PAGE}&limit=${GUIDES_PER_PAGE + 1}`;
    const answer = await this.ask(fastify, request, apiPath);
    if (answer.statusCode !== 200) return this.failed(reply, answer, { kind: 'page' });
    const guides = answer.json<Json[]>();
    const html = guideListBody(guides.slice(0, GUIDES_PER_PAGE), number, guides.length > GUIDES_PER_PAGE);
    return this.send(reply, 200, page('Repair guides', html, apiPath, 'Every public repair guide.'));
  }

  private async search(fastify: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const query = text((request.query as Params).query).trim();
    if (!query) return this.home(fastify, request, reply);
    const apiPath = `/api/2.0/search/${encodeURIComponent(query)}`;
    const answer = await this.ask(fastify, request, apiPath);
    if (answer.statusCode !== 200) return this.failed(reply, answer, { kind: 'page' });
    const results = (answer.json<Json>().results ?? []) as Json[];
    const html = guideListBody(results, 1, false, `Results for ${query}`);
    return this.send(reply, 200, page(`Search: ${query}`, html, apiPath));
  }

  /** Asks the API as an anonymous caller from the client's own address (so its rate limit applies). */
  private ask(fastify: FastifyInstance, request: FastifyRequest, apiPath: string) {
    return fastify.inject({
      method: 'GET',
      url: apiPath,
      remoteAddress: request.ip,
      headers: { 'x-request-id': String(request.id) },
    });
  }

  /** The API's refusal as a page: a 404 says what may be missing, any other status is passed on. */
  private failed(
    reply: FastifyReply,
    answer: { statusCode: number; headers: Record<string, unknown> },
    missing: Missing,
  ): Promise<void> {
    if (answer.statusCode === 404) return this.notFound(reply, missing);
    const message = `The API answered ${answer.statusCode}`;
    return this.send(reply, answer.statusCode, page(message, `<h1>${escapeHtml(message)}</h1>`), answer.headers);
  }

  private async render(
    fastify: FastifyInstance,
    request: FastifyRequest,
    reply: FastifyReply,
    apiPath: string,
    missing: Missing,
    body: (document: Json) => [title: string, html: string],
  ): Promise<void> {
    const answer = await this.ask(fastify, request, apiPath);
    if (answer.statusCode !== 200) return this.failed(reply, answer, missing);
    const [title, html] = body(answer.json<Json>());
    return this.send(reply, 200, page(title, html, apiPath));
  }

  private notFound(reply: FastifyReply, missing: Missing): Promise<void> {
    return this.send(reply, 404, page('Not found', notFoundBody(missing)));
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
