import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { resetBeforeStart } from '../utils/reset-database';
import { testConfig, usingMysql } from '../utils/test-config';
import { scorm12Package } from './training-kit';

const MAIN = resolve(__dirname, '../../dist/src/main.js');
const ADMIN = { email: 'admin@restart.test', password: 'restart-password-1' };
const API = '/api/2.0/external_training_modules';

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

/**
 * Issue 42 point 8 with the built service as a process: an upload is being received when the process is
 * killed with SIGKILL; the same service started again fails that import (INTERRUPTED) at boot, instead of
 * leaving it `receiving` for the 2 minutes its heartbeat takes to fall silent.
 */
describe('kill -9 during an upload, then a restart (the built service as a process)', () => {
  let dir: string;
  let port: number;
  let env: Record<string, string>;
  const children: ChildProcessWithoutNullStreams[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rgcs-kill-'));
    port = await freePort();
    if (usingMysql()) await resetBeforeStart(testConfig());
    env = {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      MEDIA_DIR: join(dir, 'media'),
      TRAINING_DIR: join(dir, 'training'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      RATE_LIMIT_API_MAX: '0',
      ...(usingMysql()
        ? { DB_TYPE: 'mysql', DATABASE_URL: process.env.TEST_MYSQL_URL ?? '' }
        : { DB_TYPE: 'sqlite', DB_PATH: join(dir, 'app.sqlite') }),
    };
  });
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  async function startService(): Promise<{ child: ChildProcessWithoutNullStreams; exited: Promise<unknown> }> {
    const child = spawn(process.execPath, [MAIN], { env });
    children.push(child);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((done) => child.on('exit', done));
    for (const deadline = Date.now() + 45_000; ;) {
      const health = await fetch(`http://127.0.0.1:${port}/health`).catch(() => null);
      if (health?.status === 200) break;
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the service did not start: ${output}`);
      await sleep(100);
    }
    return { child, exited };
  }

  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `api ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('the import fails with INTERRUPTED as soon as the service is back', async () => {
    const first = await startService();
    const token = (await call('POST', '/api/2.0/user/token', undefined, ADMIN)).body.authToken as string;
    const draft = await call('POST', `${API}/drafts`, token, { title: 'Killed upload' });
    const created = await call('POST', `${API}/imports`, token, { moduleid: draft.body.moduleid });
    const importid = created.body.importid as number;
    // An upload that never finishes: a ZIP's first bytes, then silence.
    const upload = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `${API}/imports/${importid}/start/byUpload`,
      headers: { authorization: `api ${token}`, 'content-type': 'application/zip', 'transfer-encoding': 'chunked' },
    });
    upload.on('error', () => undefined);
    upload.write(Buffer.from('PK\x03\x04 the beginning of a package', 'latin1'));
    for (let i = 0; i < 300; i += 1) {
      if ((await call('GET', `${API}/imports/${importid}/progress`, token)).body.status === 'receiving') break;
      await sleep(50);
    }
    expect((await call('GET', `${API}/imports/${importid}/progress`, token)).body.status).toBe('receiving');

    first.child.kill('SIGKILL');
    await first.exited;
    upload.destroy();
    await startService();
    const after = await call('GET', `${API}/imports/${importid}/progress`, token);
    expect(after.body).toMatchObject({ status: 'failed', error: { code: 'INTERRUPTED' } });

    // The module takes a new import, checked and extracted by the worker thread of the built service.
    const next = (await call('POST', `${API}/imports`, token, { moduleid: draft.body.moduleid })).body;
    const nextid = next.importid as number;
    const stored = await fetch(`http://127.0.0.1:${port}${API}/imports/${nextid}/start/byUpload`, {
      method: 'POST',
      headers: { authorization: `api ${token}`, 'content-type': 'application/zip' },
      body: await scorm12Package(),
    });
    expect(stored.status).toBe(202);
    let done: Record<string, unknown> = {};
    for (let i = 0; i < 300 && !['complete', 'failed'].includes(done.status as string); i += 1) {
      await sleep(100);
      done = (await call('GET', `${API}/imports/${nextid}/progress`, token)).body;
    }
    expect(done).toMatchObject({ status: 'complete', error: null });
  }, 120_000);
});
