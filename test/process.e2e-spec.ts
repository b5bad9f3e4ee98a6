import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const MAIN = resolve(__dirname, '../dist/src/main.js');

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

function start(
  env: Record<string, string>,
  cwd?: string,
): {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', SEED_DEMO: 'false', LOG_LEVEL: 'info', ...env },
    cwd,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { child, output: () => output, exited };
}

async function waitForHealth(url: string, deadline = Date.now() + 45_000): Promise<Response> {
  for (;;) {
    try {
      return await fetch(url);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe('the built service as a process', () => {
  it('starts on a fresh SQLite file, answers /health, and shuts down cleanly on SIGTERM', async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'rgcs-process-'));
    const server = start({
      PORT: String(port),
      DB_PATH: join(dir, 'nested', 'app.sqlite'),
      MEDIA_DIR: join(dir, 'media'),
    });
    try {
      const health = await waitForHealth(`http://127.0.0.1:${port}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const docs = await fetch(`http://127.0.0.1:${port}/api/2.0/openapi.json`);
      expect(docs.status).toBe(200);
      const guides = await fetch(`http://127.0.0.1:${port}/api/2.0/guides`);
      expect(guides.status).toBe(200);
      expect(guides.headers.get('x-sql-statements')).toBeNull();
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(server.output()).toContain('shutdown complete');
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 30_000);

  it('counts SQL statements per response when SQL_COUNT_HEADER is on (for benchmarks)', async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'rgcs-process-'));
    const server = start({
      PORT: String(port),
      DB_PATH: join(dir, 'app.sqlite'),
      MEDIA_DIR: join(dir, 'media'),
      SQL_COUNT_HEADER: 'true',
    });
    try {
      await waitForHealth(`http://127.0.0.1:${port}/health`);
      const guides = await fetch(`http://127.0.0.1:${port}/api/2.0/guides`);
      expect(guides.status).toBe(200);
      expect(Number(guides.headers.get('x-sql-statements'))).toBeGreaterThanOrEqual(1);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 30_000);

  it('reads .env from the working directory and ends start-up with a short block naming the demo logins', async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'rgcs-process-'));
    writeFileSync(
      join(dir, '.env'),
      [
        `PORT=${port}        # from the file`,
        'DB_PATH=./app.sqlite',
        'MEDIA_DIR=./media',
        'SEED_DEMO=true',
        'LOG_LEVEL=warn',
      ].join('\n'),
    );
    // The environment wins over the file: SEED_DEMO=false from start() must not stop the seeding here.
    const server = start({ SEED_DEMO: 'true' }, dir);
    try {
      await waitForHealth(`http://127.0.0.1:${port}/health`);
      const index = await fetch(`http://127.0.0.1:${port}/api/2.0`);
      expect(index.status).toBe(200);
      expect(((await index.json()) as { links: { docs: string } }).links.docs).toBe(
        `http://127.0.0.1:${port}/api/2.0/docs`,
      );
      const deadline = Date.now() + 10_000;
      while (!server.output().includes('Log in: POST') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const block = server.output().slice(server.output().indexOf('Repair Guide Content Service is listening'));
      expect(block).toContain(`Swagger UI  http://127.0.0.1:${port}/api/2.0/docs`);
      expect(block).toMatch(/admin@demo\.example\s+Admin\n/);
      expect(block).toMatch(/user@demo\.example\s+User\n/);
      const password = /password for all, shown once: (\S+)\)/.exec(block)![1];
      const login = await fetch(`http://127.0.0.1:${port}/api/2.0/user/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'author@demo.example', password }),
      });
      expect(login.status).toBe(201);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 60_000);

  it('refuses to start on a bad setting, naming the variable', async () => {
    const server = start({ PORT: 'eighty', DB_TYPE: 'postgres' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('PORT: expected an integer from 1 to 65535 (got "eighty")');
    expect(server.output()).toContain('DB_TYPE: expected sqlite or mysql (got "postgres")');
  }, 30_000);
});
