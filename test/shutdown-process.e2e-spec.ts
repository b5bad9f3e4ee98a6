import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { resetBeforeStart } from './utils/reset-database';
import { testConfig, usingMysql } from './utils/test-config';

const MAIN = resolve(__dirname, '../dist/src/main.js');
const ADMIN = { email: 'admin@shutdown.test', password: 'shutdown-password-1' };

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

interface Answer {
  status?: number;
  connection?: string;
  body?: { guideid?: number };
  error?: string;
  reused?: boolean;
  at: number;
}

function send(agent: http.Agent, port: number, method: string, path: string, token?: string, body?: unknown) {
  return new Promise<Answer>((done) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: {
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `api ${token}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () =>
          done({
            status: res.statusCode,
            connection: res.headers.connection,
            body: text.startsWith('{') ? (JSON.parse(text) as Answer['body']) : undefined,
            at: Date.now(),
          }),
        );
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      done({ error: error.code ?? error.message, reused: req.reusedSocket, at: Date.now() }),
    );
    req.end(payload);
  });
}

/**
 * Issue 12 point 9 with the built service as a process: requests that arrive on kept-alive connections
 * after SIGTERM are served (or answered 503) with `Connection: close`, never reset; the events of the
 * last writes are delivered before the exit; the process exits 0 within 10 s.
 */
describe('SIGTERM under load (the built service as a process)', () => {
  it('serves requests on open connections with Connection: close, drains events and exits within 10 s', async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'rgcs-shutdown-'));
    const sqlite = join(dir, 'app.sqlite');
    const database = usingMysql()
      ? { DB_TYPE: 'mysql', DATABASE_URL: process.env.TEST_MYSQL_URL ?? '' }
      : { DB_TYPE: 'sqlite', DB_PATH: sqlite };
    // A blank database, as the SQLite file is: what an earlier file left (its undelivered events) is not this test's.
    await resetBeforeStart(testConfig());
    const child = spawn(process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(port),
        HOST: '127.0.0.1',
        SEED_DEMO: 'false',
        LOG_LEVEL: 'info',
        MEDIA_DIR: join(dir, 'media'),
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        RATE_LIMIT_API_MAX: '0',
        ...database,
      },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<{ code: number | null; at: number }>((done) =>
      child.on('exit', (code) => done({ code, at: Date.now() })),
    );
    try {
      const setup = new http.Agent({ keepAlive: false });
      for (let ready = false, deadline = Date.now() + 30_000; !ready;) {
        ready = (await send(setup, port, 'GET', '/health')).status === 200;
        if (!ready && Date.now() > deadline) throw new Error(`the service did not start: ${output}`);
        if (!ready) await new Promise((r) => setTimeout(r, 200));
      }
      const login = await send(setup, port, 'POST', '/api/2.0/user/token', undefined, ADMIN);
      const token = (login.body as { authToken: string }).authToken;
      const title = `Shutdown Phones ${Date.now()}`;
      const category = await send(setup, port, 'POST', '/api/2.0/wikis', token, {
        namespace: 'CATEGORY',
        title,
        contents: 'x',
      });
      expect(category.status).toBe(201);

      // Eight clients, each on its own kept-alive connection, writing guides until refused.
      const answers: Answer[] = [];
      const lastTwo: [string, string][] = [];
      let signalled = Infinity;
      const clients = Array.from({ length: 8 }, async (_, c) => {
        const mine: Answer[] = [];
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        for (let n = 0; ; n += 1) {
          const answer = await send(agent, port, 'POST', '/api/2.0/guides', token, {
            category: title,
            type: 'replacement',
            subject: `Part ${c}-${n}`,
            public: true,
          });
          answers.push(answer);
          mine.push(answer);
          if (answer.error === 'ECONNREFUSED') break;
        }
        const [told, refused] = mine.slice(-2);
        lastTwo.push([`${told?.status} ${told?.connection}`, `${refused?.error}`]);
        agent.destroy();
      });
      // 1 s of writes: since creates got about twice as fast on MariaDB (2026-11-24), 1.5 s left a backlog that
      // the drain budget (then 5 s, now 7 s) did not always clear on a loaded CI machine (the events stay in the outbox and are
      // delivered on the next start; this test is about the graceful drain).
      await new Promise((r) => setTimeout(r, 1000));
      signalled = Date.now();
      child.kill('SIGTERM');
      await Promise.all(clients);
      const exit = await exited;

      expect(exit.code).toBe(0);
      expect(exit.at - signalled).toBeLessThan(10_000);
      // Nothing was reset: every request either got an answer or was refused a new connection.
      expect(answers.filter((a) => a.error && a.error !== 'ECONNREFUSED')).toEqual([]);
      expect(answers.filter((a) => a.status !== undefined && a.status !== 201 && a.status !== 503)).toEqual([]);
      // Each client's connection ended with an answer saying `Connection: close`; its next request
      // opened a new connection, which was refused.
      expect(lastTwo).toEqual(Array(8).fill([expect.stringMatching(/^(201|503) close$/), 'ECONNREFUSED']));

      // Every acknowledged guide is in the category index when the process has exited: events drained.
      const acknowledged = answers.filter((a) => a.status === 201).map((a) => a.body?.guideid);
      expect(acknowledged.length).toBeGreaterThan(0);
      if (!usingMysql()) {
        const db = new Database(sqlite, { readonly: true });
        const indexed = db
          .prepare('SELECT guideid FROM wiki_category_guides')
          .all()
          .map((r) => (r as { guideid: number }).guideid);
        db.close();
        expect(acknowledged.filter((id) => !indexed.includes(id as number))).toEqual([]);
      } else {
        const mysql = await import('mysql2/promise');
        const c = await mysql.createConnection(process.env.TEST_MYSQL_URL ?? '');
        const [rows] = await c.query('SELECT guideid FROM wiki_category_guides');
        await c.end();
        const indexed = (rows as { guideid: number }[]).map((r) => r.guideid);
        expect(acknowledged.filter((id) => !indexed.includes(id as number))).toEqual([]);
      }
      expect(output).toContain('shutdown complete');
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
