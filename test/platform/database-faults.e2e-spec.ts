import { Writable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { requestContext } from '../../src/common/context/request-context';
import { DatabaseUnavailableError } from '../../src/database/errors';
import { TransactionService } from '../../src/database/transaction.service';
import type { PrivateMariadb } from '../../scripts/faults/mariadb.mjs';
import { createGuide } from '../factories/guide.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { usingMysql } from '../utils/test-config';

/**
 * Issue 12 point 8 on a private MariaDB server (its own datadir and port; the shared server is never
 * stopped or frozen): a stopped, crashed or frozen database answers 503 with Retry-After and the error
 * body on every kind of route, in bounded time, and the service recovers when it comes back.
 */
const UNAVAILABLE = { error: true, message: 'The database is unavailable; try again shortly' };
const PASSWORD = 'a password of faults';

function logCapture(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { stream, lines };
}

// MariaDB only (skipped unless TEST_DB=mysql): it starts, stops and freezes a server of its own.
(usingMysql() ? describe : describe.skip)('database faults (private MariaDB)', () => {
  let server: PrivateMariadb;
  let t: TestApp;
  let admin: CreatedUser;
  let guideid: number;
  const log = logCapture();

  /** One request of each kind: reads, a token check, login, writes; and /health. */
  const everyKind = (): [string, () => Promise<LightMyRequestResponse>][] => [
    ['GET /guides', () => t.inject({ method: 'GET', url: '/api/2.0/guides' })],
    ['GET /guides/{id}', () => t.inject({ method: 'GET', url: `/api/2.0/guides/${guideid}` })],
    ['GET /wikis/CATEGORY/{title}', () => t.inject({ method: 'GET', url: '/api/2.0/wikis/CATEGORY/Faulty' })],
    ['GET /user', () => t.as(admin.token, { method: 'GET', url: '/api/2.0/user' })],
    [
      'POST /user/token',
      () =>
        t.inject({
          method: 'POST',
          url: '/api/2.0/user/token',
          payload: { email: admin.user.email, password: PASSWORD },
        }),
    ],
    [
      'POST /guides',
      () =>
        t.as(admin.token, {
          method: 'POST',
          url: '/api/2.0/guides',
          payload: { category: 'Faulty', type: 'replacement', subject: 'Fan' },
        }),
    ],
    [
      'PATCH /guides/{id}',
      () =>
        t.as(admin.token, {
          method: 'PATCH',
          url: `/api/2.0/guides/${guideid}?revisionid=1`,
          payload: { summary: 'x' },
        }),
    ],
  ];

  async function expectAllUnavailable(limitMs: number) {
    const started = Date.now();
    const [health, ...answers] = await Promise.all([
      t.inject({ method: 'GET', url: '/health' }).then((res) => ({ res, ms: Date.now() - started })),
      ...everyKind().map(([name, send]) => send().then((res) => ({ name, res }))),
    ]);
    const elapsed = Date.now() - started;
    expect(health.res.statusCode).toBe(503);
    expect(health.ms).toBeLessThan(2000);
    expect(
      answers.map(({ name, res }) => [name, res.statusCode, res.headers['retry-after'], res.json<unknown>()]),
    ).toEqual(answers.map(({ name }) => [name, 503, '5', UNAVAILABLE]));
    expect(elapsed).toBeLessThan(limitMs);
  }

  async function expectServing() {
    const deadline = Date.now() + 20_000;
    while ((await t.inject({ method: 'GET', url: '/health' })).statusCode !== 200) {
      if (Date.now() > deadline) throw new Error('the service did not recover');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const statuses: [string, number | boolean][] = [];
    for (const [name, send] of everyKind()) {
      const status = (await send()).statusCode;
      // The probe edits revision 1: the first time it applies, later ones conflict.
      statuses.push([name, name.startsWith('PATCH') ? status === 200 || status === 409 : status]);
    }
    expect(statuses).toEqual([
      ['GET /guides', 200],
      ['GET /guides/{id}', 200],
      ['GET /wikis/CATEGORY/{title}', 200],
      ['GET /user', 200],
      ['POST /user/token', 201],
      ['POST /guides', 201],
      ['PATCH /guides/{id}', true],
    ]);
  }

  beforeAll(async () => {
    const { startPrivateMariadb } = await import('../../scripts/faults/mariadb.mjs');
    server = await startPrivateMariadb({ port: 3337 + (process.pid % 50), name: 'jest-faults' });
    await server.query('CREATE DATABASE faults CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
    // The defaults (5 s statements, 3 s connections) keep a frozen request under 10 s; shorter here
    // so the suite is quick. The frozen-database test below uses the defaults.
    t = await createTestApp({
      env: {
        DATABASE_URL: `${server.url}faults`,
        // This private server has no replica (under npm run test:replica the run's replica copies another server).
        DB_REPLICA_HOSTS: '',
        DB_QUERY_TIMEOUT_MS: '1500',
        DB_CONNECT_TIMEOUT_MS: '1000',
        LOG_LEVEL: 'warn',
      },
      logStream: log.stream,
    });
    admin = await createUser(t, { privilege: 'Admin', password: PASSWORD });
    await createCategory(t, admin.user, 'Faulty');
    guideid = (await createGuide(t, admin.user, { category: 'Faulty', public: true })).guideid;
  }, 90_000);
  afterAll(async () => {
    server?.thaw();
    await t?.close().catch(() => undefined);
    await server?.destroy();
  }, 30_000);

  it('a stopped database (SIGTERM) answers 503 with Retry-After and the error body on every route, then recovers', async () => {
    await server.stop('SIGTERM');
    await expectAllUnavailable(10_000);
    await server.start();
    await expectServing();
  }, 90_000);

  it('a crashed database (SIGKILL) answers 503 on every route, then recovers', async () => {
    await server.stop('SIGKILL');
    await expectAllUnavailable(10_000);
    await server.start();
    await expectServing();
  }, 90_000);

  it('a frozen database (SIGSTOP) fails every route with 503 in bounded time, and the pool recovers on SIGCONT', async () => {
    server.freeze();
    try {
      // Twice: the second round runs after the first one's connections timed out, not behind them.
      await expectAllUnavailable(10_000);
      await expectAllUnavailable(10_000);
    } finally {
      server.thaw();
    }
    await expectServing();
  }, 90_000);

  it('a COMMIT whose outcome is unknown is logged as such with the request id and answered as unknown', async () => {
    const transactions = t.app.get(TransactionService);
    const context = { requestId: 'req-commit-unknown', primary: true, stats: { sqlStatements: 0 } };
    const outcome = requestContext.run(context, () =>
      transactions.run(async (tx) => {
        // A table cached answers are not built from: a write to one (teams) would replace the `answers` token in
        // the transaction after the work, and the dead connection would fail that statement, before any COMMIT.
        await tx.manager.query('INSERT INTO content_versions (name, token) VALUES (?, ?)', ['maybe', 'unknown']);
        // The connection dies between the last statement and the COMMIT: the client cannot know
        // whether the server got the COMMIT.
        const [{ id }] = await tx.manager.query<{ id: number }[]>('SELECT CONNECTION_ID() AS id');
        await server.query(`KILL CONNECTION ${Number(id)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }),
    );
    await expect(outcome).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await expect(outcome).rejects.toMatchObject({ clientMessage: expect.stringContaining('may or may not') });
    expect(log.lines()).toContainEqual(
      expect.objectContaining({
        level: 50,
        requestId: 'req-commit-unknown',
        msg: 'COMMIT outcome unknown: the connection failed during COMMIT',
      }),
    );
    await expectServing();
  }, 60_000);

  // Last: a second application replaces Nest's process-wide logger, which the log checks above read.
  it('with the default time-outs a frozen database fails a request within 10 s and /health within 2 s', async () => {
    const defaults = await createTestApp({
      env: { DATABASE_URL: `${server.url}faults`, DB_REPLICA_HOSTS: '' },
      keepData: true,
    });
    try {
      expect(defaults.config.databaseLimits).toMatchObject({ queryTimeoutMs: 5000, connectTimeoutMs: 3000 });
      await defaults.inject({ method: 'GET', url: '/api/2.0/guides' });
      server.freeze();
      const started = Date.now();
      const [guides, health] = await Promise.all([
        defaults.inject({ method: 'GET', url: '/api/2.0/guides' }).then((res) => ({ res, ms: Date.now() - started })),
        defaults.inject({ method: 'GET', url: '/health' }).then((res) => ({ res, ms: Date.now() - started })),
      ]);
      expect({ guides: [guides.res.statusCode, guides.ms], health: health.res.statusCode }).toEqual({
        guides: [503, guides.ms],
        health: 503,
      });
      expect(guides.ms).toBeLessThan(10_000);
      expect(health.ms).toBeLessThan(2_000);
    } finally {
      server.thaw();
      await defaults.close();
    }
  }, 60_000);
});
