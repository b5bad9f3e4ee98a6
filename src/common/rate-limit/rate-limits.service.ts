import { createHash } from 'node:crypto';
import { type BeforeApplicationShutdown, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import rateLimitPlugin, {
  normalizeIP,
  type FastifyRateLimitStore,
  type RateLimitPluginOptions,
} from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import type { AppConfig, RateLimit } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ApiException } from '../http/api-errors';
import { LOG_ROOT, type RootLogger } from '../http/log-root';
import { RateLimitCountersRepository } from './rate-limit-counters.repository';
import { RedisCounterBackend } from './redis-counter-backend';
import { SharedCounters, type WindowCount } from './shared-counters';

export class TooManyRequestsException extends ApiException {
  constructor(limit: RateLimit, resetAt: number, message = 'Too many requests') {
    const retryAfter = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
    super(HttpStatus.TOO_MANY_REQUESTS, `${message}; try again in ${retryAfter} seconds`);
    this.headers = {
      'retry-after': String(retryAfter),
      'ratelimit-limit': String(limit.max),
      'ratelimit-remaining': '0',
      'ratelimit-reset': String(retryAfter),
    };
  }
}

const API_TOKEN = /^api\s+(\S+)\s*$/i;

/** Requests not counted by the general limit: health probes and the metrics scrape (operations, not API use). */
const UNCOUNTED_ROUTES = new Set(['/health', '/health/live', '/health/ready', '/metrics']);

/**
 * Every rate limit of the service, on counters shared by all instances (docs/api-conventions.md, issue #13):
 * - the general API limit, per token (when one is sent) or else per client address, through
 *   @fastify/rate-limit on every route (RateLimit-* headers on every response, Retry-After on 429);
 * - failed logins per account and per account + client address (successful logins never count);
 * - self-registrations per client address (an Admin's POST /users is not counted).
 * The client address is Fastify's `request.ip`, which honours TRUST_PROXY.
 */
@Injectable()
export class RateLimitsService implements BeforeApplicationShutdown {
  readonly counters: SharedCounters;
  private readonly limits: AppConfig['rateLimit'];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() dataSource: DataSource,
    @Inject(LOG_ROOT) log: RootLogger,
  ) {
    this.limits = config.rateLimit;
    this.counters = new SharedCounters(config.rateLimit.syncMs, log.logger);
    this.counters.attach(
      config.redis
        ? new RedisCounterBackend(config.redis.url, `${config.redis.keyPrefix}ratelimit:`)
        : new RateLimitCountersRepository(dataSource),
    );
  }

  /** Before the database closes (its module's onApplicationShutdown): the last counts and the purge need it. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.counters.close();
  }

  /** Registers the general limit on the Fastify instance; routes registered afterwards are counted. */
  async register(fastify: FastifyInstance): Promise<void> {
    const { api } = this.limits;
    if (api.max === 0) return;
    const counters = this.counters;
    const windowMs = api.windowSeconds * 1000;
    class Store implements FastifyRateLimitStore {
      incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void) {
        const { count, resetAt } = counters.hitBatched(key, windowMs);
        callback(null, { current: count, ttl: Math.max(0, resetAt - Date.now()) });
      }
      read(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void) {
        const { count, resetAt } = counters.peekBatched(key, windowMs);
        callback(null, { current: count, ttl: Math.max(0, resetAt - Date.now()) });
      }
      child(): FastifyRateLimitStore {
        return this;
      }
    }
    const options: RateLimitPluginOptions = {
      global: true,
      max: api.max,
      timeWindow: windowMs,
      store: Store,
      enableDraftSpec: true,
      keyGenerator: (request) => apiKey(request),
      allowList: (request) => UNCOUNTED_ROUTES.has(request.routeOptions.url ?? ''),
      errorResponseBuilder: (_request, context) =>
        new TooManyRequestsException(api, Date.now() + context.ttl, 'Too many requests'),
    };
    await fastify.register(rateLimitPlugin, options);
  }

  /** 429 when this login may not be tried now (too many recent failures for the account). */
  async assertLoginAllowed(email: string, address: string): Promise<void> {
    const { loginFailuresPerAccountAddress: perPair, loginFailuresPerAccount: perAccount } = this.limits;
    const [pair, account] = await Promise.all([
      this.peekLimit(loginPairKey(email, address), perPair),
      this.peekLimit(loginAccountKey(email), perAccount),
    ]);
    for (const [limit, count] of [
      [perPair, pair],
      [perAccount, account],
    ] as const) {
      if (count && limit.max > 0 && count.count >= limit.max) {
        throw new TooManyRequestsException(limit, count.resetAt, 'Too many failed logins for this account');
      }
    }
  }

  async countFailedLogin(email: string, address: string): Promise<void> {
    const { loginFailuresPerAccountAddress: perPair, loginFailuresPerAccount: perAccount } = this.limits;
    await Promise.all([
      perPair.max > 0 ? this.counters.hit(loginPairKey(email, address), perPair.windowSeconds * 1000) : undefined,
      perAccount.max > 0 ? this.counters.hit(loginAccountKey(email), perAccount.windowSeconds * 1000) : undefined,
    ]);
  }

  /** Counts a self-registration from this address; 429 beyond the limit. */
  async countRegistration(address: string): Promise<void> {
    const limit = this.limits.registrationsPerAddress;
    if (limit.max === 0) return;
    const { count, resetAt } = await this.counters.hit(`register:${normalizeIP(address)}`, limit.windowSeconds * 1000);
    if (count > limit.max)
      throw new TooManyRequestsException(limit, resetAt, 'Too many registrations from this address');
  }

  private async peekLimit(key: string, limit: RateLimit): Promise<WindowCount | undefined> {
    return limit.max > 0 ? this.counters.peek(key, limit.windowSeconds * 1000) : undefined;
  }
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest('base64url').slice(0, 32);

/** Accounts are named by a digest of the normalised e-mail: no addresses in the counter store. */
const loginAccountKey = (email: string) => `login:${digest(email.trim().toLowerCase())}`;
const loginPairKey = (email: string, address: string) =>
  `login:${digest(email.trim().toLowerCase())}:${normalizeIP(address)}`;

/** Per token when one is sent (hashed: tokens never reach the store), else per client address. */
function apiKey(request: FastifyRequest): string {
  const token = API_TOKEN.exec(request.headers.authorization ?? '')?.[1];
  return token ? `api:t:${digest(token)}` : `api:a:${normalizeIP(request.ip)}`;
}
