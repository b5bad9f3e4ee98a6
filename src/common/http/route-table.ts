import FindMyWay from 'find-my-way';
import type { FastifyInstance, HTTPMethods } from 'fastify';

const LISTED: readonly string[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Mirror of the registered routes, so that a request that matched no route can be told apart:
 * known path with another method (405 + Allow) or unknown path (404).
 */
export class RouteTable {
  private readonly router = FindMyWay({ ignoreTrailingSlash: true });

  attach(fastify: FastifyInstance): void {
    fastify.addHook('onRoute', (route) => {
      const methods = ([] as HTTPMethods[]).concat(route.method);
      for (const method of methods) {
        if (!LISTED.includes(method)) continue;
        try {
          this.router.on(method as FindMyWay.HTTPMethod, route.url, () => undefined);
        } catch {
          // the same method and path registered twice (e.g. a route in two encapsulated contexts)
        }
      }
    });
  }

  allowedMethods(path: string): string[] {
    const allowed = LISTED.filter((method) => this.router.find(method as FindMyWay.HTTPMethod, path) !== null);
    if (allowed.includes('GET')) allowed.push('HEAD');
    if (allowed.length) allowed.push('OPTIONS');
    return allowed;
  }
}
