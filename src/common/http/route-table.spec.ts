import Fastify from 'fastify';
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
});
