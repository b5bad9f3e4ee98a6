import { HttpStatus } from '@nestjs/common';
import FindMyWay from 'find-my-way';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { ApiException } from './api-errors';

const LISTED: readonly string[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** 405 with the Allow header, for a path whose route does not take the request's method. */
export function methodNotAllowed(method: string, path: string, allowed: string[]): ApiException {
  const error = new ApiException(HttpStatus.METHOD_NOT_ALLOWED, `Method ${method} is not allowed on ${path}`);
  error.headers = { allow: allowed.join(', ') };
  return error;
}

const segmentsOf = (path: string): string[] => path.split('/').filter((s) => s !== '');
const isParameter = (segment: string) => segment.startsWith(':') || segment === '*';

/** Whether `path` (its segments) fits the route pattern `url`. */
function fits(url: string, path: string[]): boolean {
  const pattern = segmentsOf(url);
  for (let i = 0; i < pattern.length; i += 1) {
    if (pattern[i] === '*') return path.length > i;
    if (i >= path.length) return false;
    if (!isParameter(pattern[i]) && pattern[i] !== decoded(path[i])) return false;
  }
  return pattern.length === path.length;
}

const decoded = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/**
 * Where `reserver` has a fixed segment in place of a parameter of `url`, after leading segments both spell alike
 * (`/wikis/releases/:releaseid` for `/wikis/:namespace/:title`, not `/wikis/:wikiid/releases`, whose parameter
 * names another thing): that segment's index, or -1.
 */
function reservedIndex(reserver: string, url: string): number {
  const [a, b] = [segmentsOf(reserver), segmentsOf(url)];
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    if (a[i] === b[i]) continue;
    return !isParameter(a[i]) && b[i].startsWith(':') ? i : -1;
  }
  return -1;
}

/**
 * Mirror of the registered routes, so that a request that matched no route can be told apart:
 * known path with another method (405 + Allow) or unknown path (404).
 *
 * A fixed path segment is a name that route keeps for itself, whatever the method: `GET /wikis/releases/1`
 * (only DELETE is routed there) is a 405, not a read of a wiki in namespace `releases` through the
 * parametric route it would otherwise fall through to. The same holds for a path that matched no route.
 */
export class RouteTable {
  private readonly router = FindMyWay({ ignoreTrailingSlash: true });
  /** Methods of each route pattern. */
  private readonly patterns = new Map<string, Set<string>>();
  /** The patterns that reserve a segment of each pattern (see `reservedIndex`), found once per pattern. */
  private readonly reservers = new Map<string, string[]>();

  attach(fastify: FastifyInstance): void {
    fastify.addHook('onRoute', (route) => {
      const methods = ([] as HTTPMethods[]).concat(route.method);
      for (const method of methods) {
        if (!LISTED.includes(method)) continue;
        try {
          this.router.on(method as FindMyWay.HTTPMethod, route.url, () => undefined, { url: route.url });
        } catch {
          // the same method and path registered twice (e.g. a route in two encapsulated contexts)
        }
        const known = this.patterns.get(route.url) ?? new Set<string>();
        known.add(method);
        this.patterns.set(route.url, known);
        this.reservers.clear();
      }
    });
    // Routed to a parametric route while the path belongs to a route with a fixed segment there: 405.
    fastify.addHook('onRequest', (request, _reply, done) => {
      const url = request.routeOptions.url;
      const path = request.url.split('?')[0];
      const owner = url === undefined ? undefined : this.ownerOf(path, url);
      if (owner === undefined) return done();
      done(methodNotAllowed(request.method, path, this.allowList(owner)));
    });
  }

  allowedMethods(path: string): string[] {
    const owners = new Set<string>();
    for (const method of LISTED) {
      const url = (this.router.find(method as FindMyWay.HTTPMethod, path)?.store as { url: string } | undefined)?.url;
      if (url !== undefined) owners.add(this.ownerOf(path, url) ?? url);
    }
    return this.allowList(...owners);
  }

  /** The methods of these patterns, in listed order, with HEAD for GET and OPTIONS. */
  private allowList(...urls: string[]): string[] {
    const allowed = LISTED.filter((method) => urls.some((url) => this.patterns.get(url)?.has(method)));
    if (allowed.includes('GET')) allowed.push('HEAD');
    if (allowed.length) allowed.push('OPTIONS');
    return allowed;
  }

  /** The pattern `path` belongs to instead of `url`, which it was routed to (undefined: `url` is its own). */
  private ownerOf(path: string, url: string): string | undefined {
    const reservers = this.reserversOf(url);
    if (!reservers.length) return undefined;
    const segments = segmentsOf(path);
    return reservers.find((reserver) => fits(reserver, segments));
  }

  private reserversOf(url: string): string[] {
    let found = this.reservers.get(url);
    if (!found) {
      // The earliest fixed segment first: it decides, as the router's own choice between routes does.
      found = [...this.patterns.keys()]
        .map((other) => ({ other, index: reservedIndex(other, url) }))
        .filter(({ index }) => index >= 0)
        .sort((x, y) => x.index - y.index)
        .map(({ other }) => other);
      this.reservers.set(url, found);
    }
    return found;
  }
}
