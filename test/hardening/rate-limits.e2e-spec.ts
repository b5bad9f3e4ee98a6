import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { RateLimitsService } from '../../src/common/rate-limit/rate-limits.service';
import { hashPassword } from '../../src/common/security/password';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { usingMysql } from '../utils/test-config';

const PASSWORD = 'the right password';
const OFFICE = '203.0.113.7';

/** The production defaults of .env.example (the test config raises some of them for other suites). */
const DEFAULTS = {
  RATE_LIMIT_API_MAX: '600',
  RATE_LIMIT_API_WINDOW: '60',
  RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT_ADDRESS: '10',
  RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT: '100',
  RATE_LIMIT_REGISTRATIONS_PER_ADDRESS: '20',
};

const login = (
  t: TestApp,
  email: string,
  password: string,
  remoteAddress = OFFICE,
  extra: Partial<InjectOptions> = {},
) => t.inject({ method: 'POST', url: '/api/2.0/user/token', payload: { email, password }, remoteAddress, ...extra });

const limitHeaders = (res: LightMyRequestResponse) => ({
  limit: res.headers['ratelimit-limit'],
  remaining: res.headers['ratelimit-remaining'],
  reset: res.headers['ratelimit-reset'] !== undefined,
  retryAfter: res.headers['retry-after'] !== undefined,
});

describe('rate limits (issue #13)', () => {
  describe('with the default limits', () => {
    let t: TestApp;
    let admin: CreatedUser;
    beforeAll(async () => {
      t = await createTestApp({ env: DEFAULTS });
      admin = await createUser(t, { privilege: 'Admin' });
    });
    afterAll(() => t.close());

    it('200 users behind one address log in within a minute: no 429', async () => {
      const passwordHash = await hashPassword(PASSWORD);
      const users = [];
      for (let i = 0; i < 200; i++) users.push(await createUser(t, { email: `op${i}@office.example`, passwordHash }));
      const started = Date.now();
      const statuses = [];
      for (const { user } of users) statuses.push((await login(t, user.email, PASSWORD)).statusCode);
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(statuses.filter((s) => s !== 201)).toEqual([]);
      // a few typos in the office do not lock anyone else out either
      expect((await login(t, 'op0@office.example', 'typo typo typo')).statusCode).toBe(401);
      expect((await login(t, 'op1@office.example', PASSWORD)).statusCode).toBe(201);
    }, 120_000);

    it('11 wrong passwords for one account lock that account only (from that address)', async () => {
      await createUser(t, { email: 'target@office.example', password: PASSWORD });
      await createUser(t, { email: 'colleague@office.example', password: PASSWORD });
      for (let i = 0; i < 10; i++)
        expect((await login(t, 'target@office.example', 'wrong wrong')).statusCode).toBe(401);
      const eleventh = await login(t, 'target@office.example', 'wrong wrong');
      expect(eleventh.statusCode).toBe(429);
      expect(eleventh.json()).toEqual({
        error: true,
        message: expect.stringMatching(/^Too many failed logins for this account; try again in \d+ seconds$/),
      });
      expect(limitHeaders(eleventh)).toEqual({ limit: '10', remaining: '0', reset: true, retryAfter: true });
      expect(Number(eleventh.headers['retry-after'])).toBeLessThanOrEqual(900);
      expect((await login(t, 'target@office.example', PASSWORD)).statusCode).toBe(429);
      expect((await login(t, 'colleague@office.example', PASSWORD)).statusCode).toBe(201);
      expect((await login(t, 'colleague@office.example', 'wrong wrong')).statusCode).toBe(401);
    });

    it('registration is limited per address; an Admin’s POST /users is not counted', async () => {
      const register = (n: number, remoteAddress: string, token?: string) =>
        t.as(token, {
          method: 'POST',
          url: '/api/2.0/users',
          payload: { email: `new${n}@reg.example`, username: `New ${n}`, password: 'long enough pw' },
          remoteAddress,
        });
      for (let i = 0; i < 20; i++) expect((await register(i, '198.51.100.1')).statusCode).toBe(201);
      const over = await register(20, '198.51.100.1');
      expect(over.statusCode).toBe(429);
      expect(over.json().message).toMatch(/^Too many registrations from this address; try again in \d+ seconds$/);
      expect(over.headers['retry-after']).toBeDefined();
      expect((await register(21, '198.51.100.2')).statusCode).toBe(201);
      for (let i = 0; i < 25; i++) expect((await register(100 + i, '198.51.100.1', admin.token)).statusCode).toBe(201);
      // logins of the address are not affected by its registrations
      expect((await login(t, 'new0@reg.example', 'long enough pw', '198.51.100.1')).statusCode).toBe(201);
    }, 60_000);

    it('every API response carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset', async () => {
      const res = await t.inject({ method: 'GET', url: '/api/2.0/guides', remoteAddress: '192.0.2.200' });
      expect(res.statusCode).toBe(200);
      expect(limitHeaders(res)).toEqual({ limit: '600', remaining: '599', reset: true, retryAfter: false });
    });
  });

  describe('the general API limit and TRUST_PROXY', () => {
    const apps: TestApp[] = [];
    afterAll(async () => {
      for (const app of apps) await app.close();
    });
    const boot = async (env: Record<string, string>) => {
      const t = await createTestApp({ env: { ...DEFAULTS, RATE_LIMIT_API_MAX: '3', ...env } });
      apps.push(t);
      return t;
    };

    it('per token, else per address: 429 with the error body and Retry-After; probes and /metrics are not counted', async () => {
      const metricsToken = 'metrics-token-of-16+';
      const t = await boot({ METRICS_TOKEN: metricsToken });
      const user = await createUser(t);
      const get = (token?: string, remoteAddress = '192.0.2.1') =>
        t.as(token, { method: 'GET', url: '/api/2.0/guides', remoteAddress });
      // Before the counted requests: had they counted, the third of those would be over the limit.
      for (const url of ['/health', '/health/live', '/health/ready', '/metrics']) {
        const probe = await t.inject({
          method: 'GET',
          url,
          remoteAddress: '192.0.2.1',
          headers: url === '/metrics' ? { authorization: `Bearer ${metricsToken}` } : {},
        });
        expect(probe.statusCode).toBe(200);
      }
      for (let i = 0; i < 3; i++) expect((await get()).statusCode).toBe(200);
      for (let i = 0; i < 3; i++) await t.inject({ method: 'GET', url: '/health', remoteAddress: '192.0.2.1' });
      const over = await get();
      expect(over.statusCode).toBe(429);
      expect(over.json()).toEqual({
        error: true,
        message: expect.stringMatching(/^Too many requests; try again in \d+ seconds$/),
      });
      expect(limitHeaders(over)).toEqual({ limit: '3', remaining: '0', reset: true, retryAfter: true });
      expect((await get(user.token)).statusCode).toBe(200);
      expect((await get(undefined, '192.0.2.2')).statusCode).toBe(200);
    });

    it('without TRUST_PROXY, X-Forwarded-For is ignored: everyone behind the proxy shares its address', async () => {
      const t = await boot({ TRUST_PROXY: 'false' });
      const get = (client: string) =>
        t.inject({
          method: 'GET',
          url: '/api/2.0/guides',
          remoteAddress: '10.0.0.5',
          headers: { 'x-forwarded-for': client },
        });
      for (let i = 0; i < 3; i++) expect((await get(`198.51.100.${i}`)).statusCode).toBe(200);
      expect((await get('198.51.100.99')).statusCode).toBe(429);
    });

    it('with TRUST_PROXY naming the proxy, each client behind it has its own count', async () => {
      const t = await boot({ TRUST_PROXY: '10.0.0.5' });
      const get = (client: string, via = '10.0.0.5') =>
        t.inject({ method: 'GET', url: '/api/2.0/guides', remoteAddress: via, headers: { 'x-forwarded-for': client } });
      for (let i = 0; i < 3; i++) expect((await get('198.51.100.1')).statusCode).toBe(200);
      expect((await get('198.51.100.1')).statusCode).toBe(429);
      expect((await get('198.51.100.2')).statusCode).toBe(200);
      // a client that is not the trusted proxy cannot pick its address
      for (let i = 0; i < 3; i++) await get(`203.0.113.${i}`, '192.0.2.66');
      expect((await get('203.0.113.50', '192.0.2.66')).statusCode).toBe(429);
    });
  });

  describe('two instances share the counts', () => {
    let dir: string;
    let first: TestApp;
    let second: TestApp;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'rgcs-ratelimit-'));
      const env = {
        ...DEFAULTS,
        RATE_LIMIT_API_MAX: '4',
        RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT: '10',
        RATE_LIMIT_SYNC_MS: '60000',
        ...(usingMysql() ? {} : { DB_PATH: join(dir, 'shared.sqlite') }),
      };
      first = await createTestApp({ env });
      second = await createTestApp({ env, keepData: true });
    });
    afterAll(async () => {
      await second.close();
      await first.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('failed logins counted on one instance lock the account on the other (database store)', async () => {
      // from a new address each time: the per-account limit (10 here) is the one that counts
      await createUser(first, { email: 'shared@two.example', password: PASSWORD });
      for (let i = 0; i < 5; i++) {
        expect((await login(first, 'shared@two.example', 'wrong wrong', `10.9.1.${i}`)).statusCode).toBe(401);
        expect((await login(second, 'shared@two.example', 'wrong wrong', `10.9.2.${i}`)).statusCode).toBe(401);
      }
      expect((await login(first, 'shared@two.example', PASSWORD, '10.9.3.1')).statusCode).toBe(429);
      expect((await login(second, 'shared@two.example', PASSWORD, '10.9.3.2')).statusCode).toBe(429);
    });

    it('the general limit is shared after each instance syncs its counts', async () => {
      const get = (t: TestApp) => t.inject({ method: 'GET', url: '/api/2.0/guides', remoteAddress: '192.0.2.77' });
      for (let i = 0; i < 3; i++) expect((await get(first)).statusCode).toBe(200);
      await first.app.get(RateLimitsService).counters.sync();
      expect((await get(second)).statusCode).toBe(200);
      await second.app.get(RateLimitsService).counters.sync();
      const over = await get(second);
      expect(over.statusCode).toBe(429);
      expect(over.headers['ratelimit-remaining']).toBe('0');
    });
  });

  describe('Redis store (REDIS_URL)', () => {
    const prefix = `rgcs-test-${process.pid}-${Date.now().toString(36)}:`;
    const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    let first: TestApp;
    let second: TestApp;
    beforeAll(async () => {
      const env = { ...DEFAULTS, REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix };
      // Each instance has its own database here (on SQLite): only Redis can carry the count across.
      first = await createTestApp({ env });
      second = await createTestApp({ env, keepData: true });
    });
    afterAll(async () => {
      await second.close();
      await first.close();
      const redis = new Redis(redisUrl);
      try {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length) await redis.del(...keys);
      } finally {
        redis.disconnect();
      }
    });

    it('failed logins on one instance lock the account on the other; keys carry the prefix and expire', async () => {
      for (const t of [first, second]) {
        if (!usingMysql() || t === first) await createUser(t, { email: 'redis@two.example', password: PASSWORD });
      }
      for (let i = 0; i < 5; i++) expect((await login(first, 'redis@two.example', 'wrong wrong')).statusCode).toBe(401);
      for (let i = 0; i < 5; i++)
        expect((await login(second, 'redis@two.example', 'wrong wrong')).statusCode).toBe(401);
      expect((await login(second, 'redis@two.example', PASSWORD)).statusCode).toBe(429);
      expect((await login(first, 'redis@two.example', PASSWORD)).statusCode).toBe(429);
      const redis = new Redis(redisUrl);
      try {
        const keys = await redis.keys(`${prefix}ratelimit:login:*`);
        expect(keys.length).toBe(2);
        for (const key of keys) expect(await redis.pttl(key)).toBeGreaterThan(0);
        expect(await redis.get(keys[0])).toBe('10');
      } finally {
        redis.disconnect();
      }
      const rows: { n: number | string }[] = await first.dataSource.query(
        'SELECT COUNT(*) AS n FROM rate_limit_counters',
      );
      expect(Number(rows[0].n)).toBe(0);
    });
  });
});
