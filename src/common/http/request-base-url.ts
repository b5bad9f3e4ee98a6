import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config/app-config';

/** A Host (or X-Forwarded-Host) value usable in a URL: a name or IPv4 address, or a bracketed IPv6 one, and a port. */
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The base of absolute URLs in the answer to `request`: PUBLIC_URL (or http://HOST:PORT) as configured,
 * except when the service listens on every interface without PUBLIC_URL; then the request's own
 * `Host` and protocol, which Fastify takes from X-Forwarded-Host and X-Forwarded-Proto only when
 * TRUST_PROXY trusts the sender. A Host that is no host name keeps the configured base.
 */
export function requestBaseUrl(
  request: FastifyRequest,
  config: Pick<AppConfig, 'publicUrl' | 'publicUrlFromRequest'>,
): string {
  if (!config.publicUrlFromRequest) return config.publicUrl;
  const host = request.host;
  if (typeof host !== 'string' || !HOST.test(host)) return config.publicUrl;
  return `${request.protocol === 'https' ? 'https' : 'http'}://${host.toLowerCase()}`;
}

const TEXT_TYPES = /^(application\/(json|xml|problem\+json)|text\/)/;

/**
 * The one place that gives each answer its base URL. Answers are built (and kept, indexed, cached) with the
 * configured base; with publicUrlFromRequest each text answer and Location header gets the request's
 * base instead. Registered after every other onSend hook, so cached answers stay as built.
 */
export function registerRequestBaseUrl(fastify: FastifyInstance, config: AppConfig): void {
  if (!config.publicUrlFromRequest) return;
  const built = config.publicUrl;
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const base = requestBaseUrl(request, config);
    if (base === built) {
      done(null, payload);
      return;
    }
    const location = reply.getHeader('location');
    if (typeof location === 'string' && location.startsWith(built))
      void reply.header('location', base + location.slice(built.length));
    const type = String(reply.getHeader('content-type') ?? '');
    const text = typeof payload === 'string' ? payload : undefined;
    if (text === undefined || !TEXT_TYPES.test(type) || !text.includes(built)) {
      done(null, payload);
      return;
    }
    done(null, text.replaceAll(built, base));
  });
}
