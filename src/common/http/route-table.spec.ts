import Fastify from 'fastify';
import type { ApiException } from './api-errors';
import { RouteTable } from './route-table';

describe('RouteTable', () => {
  it('answers the methods registered for a concrete path, with HEAD and OPTIONS', async () => {
    const fastify = Fastify();
    const table = new RouteTable();
    table.attach(fastify);
    fastify.get('/api/2.0/guides/:guideid', async () => ({}));
    fastify.patch('/api/2.0/guides/:guideid', async () => ({}));
    fastify.put('/api/2.0/guides/:guideid/public', async () => ({}));
    await fastify.ready();
    expect(table.allowedMethods('/api/2.0/guides/12')).toEqual(['GET', 'PATCH', 'HEAD', 'OPTIONS']);
    expect(table.allowedMethods('/api/2.0/guides/12/')).toEqual(['GET', 'PATCH', 'HEAD', 'OPTIONS']);
    expect(table.allowedMethods('/api/2.0/guides/12/public')).toEqual(['PUT', 'OPTIONS']);
    expect(table.allowedMethods('/api/2.0/wikis')).toEqual([]);
    await fastify.close();
  });

  it('keeps a fixed segment for its route whatever the method: a parametric route beside it does not take it', async () => {
    const fastify = Fastify();
    const table = new RouteTable();
    table.attach(fastify);
    fastify.get('/api/2.0/wikis/:namespace/:title', async () => ({ read: true }));
    fastify.post('/api/2.0/wikis/:wikiid/releases', async () => ({}));
    fastify.delete('/api/2.0/wikis/releases/:releaseid', async () => ({}));
    fastify.setErrorHandler((error: ApiException, _request, reply) =>
      reply
        .status(error.getStatus())
        .headers(error.headers ?? {})
        .send(error.getResponse()),
    );
    await fastify.ready();
    const shadowed = await fastify.inject({ method: 'GET', url: '/api/2.0/wikis/releases/4' });
    expect(shadowed.statusCode).toBe(405);
    expect(shadowed.headers.allow).toBe('DELETE, OPTIONS');
    expect(table.allowedMethods('/api/2.0/wikis/releases/4')).toEqual(['DELETE', 'OPTIONS']);
    // After a parameter the same word is a value: a wiki titled "releases" is read.
    expect((await fastify.inject({ method: 'GET', url: '/api/2.0/wikis/WIKI/releases' })).json()).toEqual({
      read: true,
    });
    expect(table.allowedMethods('/api/2.0/wikis/WIKI/releases')).toEqual(['GET', 'POST', 'HEAD', 'OPTIONS']);
    await fastify.close();
  });
});
