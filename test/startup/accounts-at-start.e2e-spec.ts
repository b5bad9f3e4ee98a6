import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { verify } from '@node-rs/argon2';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { freePort, startService, tempDir, type ServiceProcess } from './spawn-service';

const CLI = resolve(__dirname, '../../dist/src/modules/users/admin-password-cli.js');
const SECRET = 'a-signing-secret-of-at-least-32-characters';

async function login(port: number, email: string, password: string): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/api/2.0/user/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return response.status;
}

async function started(env: Record<string, string>): Promise<{ service: ServiceProcess; port: number }> {
  const port = await freePort();
  const service = startService({ PORT: String(port), ...env });
  await service.waitFor(/listening/i, 60_000);
  await service.waitFor(/\n\n$/, 5_000).catch(() => undefined);
  return { service, port };
}

async function stop(service: ServiceProcess): Promise<void> {
  service.child.kill('SIGTERM');
  await service.exited;
}

/** npm run admin:password -- <email>, with `input` on a pipe as stdin. */
function setPassword(env: Record<string, string>, email: string, input: string) {
  return new Promise<{ code: number | null; output: string }>((done) => {
    const child = spawn(process.execPath, [CLI, email], { env: { PATH: process.env.PATH ?? '', ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => done({ code, output }));
    child.stdin.end(input);
  });
}

describe('recovering access', () => {
  const dir = tempDir();
  const db = { DB_PATH: join(dir, 'app.sqlite'), MEDIA_DIR: join(dir, 'media'), TRAINING_DIR: join(dir, 'training') };
  const email = 'owner@example.com';

  it('ADMIN_PASSWORD set for an existing ADMIN_EMAIL resets its password at start, logged without the password', async () => {
    const first = await started({ ...db, ADMIN_EMAIL: email, ADMIN_PASSWORD: 'first-password-1' });
    expect(first.service.output()).toContain(`created the Admin account ${email}`);
    await stop(first.service);

    const second = await started({ ...db, ADMIN_EMAIL: email, ADMIN_PASSWORD: 'second-password-2' });
    try {
      expect(second.service.output()).toContain(`reset the password of ${email} to ADMIN_PASSWORD`);
      expect(second.service.output()).not.toContain('second-password-2');
      expect(await login(second.port, email, 'second-password-2')).toBe(201);
      expect(await login(second.port, email, 'first-password-1')).toBe(401);
      // The block of a later start says how to recover access.
      expect(second.service.stdout()).toContain('Lost a password? npm run admin:password -- <email> sets a new one');

      // The command, while the service runs: one line of stdin; weak input and unknown e-mails refused.
      const weak = await setPassword(db, email, 'short\n');
      expect(weak).toEqual({ code: 1, output: 'Password not changed: the password must be at least 10 characters.\n' });
      const empty = await setPassword(db, email, '');
      expect(empty).toEqual({ code: 1, output: 'Password not changed: the password is empty.\n' });
      const simple = await setPassword(db, email, 'aaaaaaaaaaaa\n');
      expect(simple.code).toBe(1);
      expect(simple.output).toContain('too simple');
      const unknown = await setPassword(db, 'nobody@example.com', 'third-password-3\n');
      expect(unknown).toEqual({ code: 1, output: 'No account has the e-mail nobody@example.com.\n' });
      expect(await login(second.port, email, 'second-password-2')).toBe(201);

      const done = await setPassword(db, email, 'third-password-3\nignored second line\n');
      expect(done).toEqual({ code: 0, output: `New password set for ${email}.\n` });
      expect(await login(second.port, email, 'third-password-3')).toBe(201);
      expect(await login(second.port, email, 'second-password-2')).toBe(401);
    } finally {
      await stop(second.service);
    }
  }, 120_000);

  // `script` (util-linux, in Debian's base system) provides the terminal; without it there is none to test.
  // Uses the account the test above made (same database).
  (existsSync('/usr/bin/script') ? describe : describe.skip)(
    'on a terminal (skipped without util-linux script)',
    () => {
      it('the command asks twice on a terminal, without echo', async () => {
        const typed = 'typed-password-4';
        const differs = await setPasswordOnTerminal(db, email, [typed, 'something-else-5']);
        expect(differs).toEqual({
          code: 1,
          output: `New password for ${email}: \nRepeat it: \nPassword not changed: the two entries differ.\n`,
        });
        const ok = await setPasswordOnTerminal(db, email, [typed, typed]);
        expect(ok).toEqual({
          code: 0,
          output: `New password for ${email}: \nRepeat it: \nNew password set for ${email}.\n`,
        });
        const sqlite = new Database(db.DB_PATH, { readonly: true });
        try {
          const row = sqlite.prepare('SELECT password_hash AS hash FROM users WHERE email = ?').get(email) as {
            hash: string;
          };
          expect(await verify(row.hash, typed)).toBe(true);
        } finally {
          sqlite.close();
        }
      }, 60_000);
    },
  );

  /** The command on a terminal (util-linux `script` gives it one): each answer typed after its prompt. */
  function setPasswordOnTerminal(env: Record<string, string>, email: string, answers: string[]) {
    return new Promise<{ code: number | null; output: string }>((done) => {
      const command = `${process.execPath} ${CLI} ${email}`;
      const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { PATH: process.env.PATH ?? '', ...env } });
      let output = '';
      let prompts = 0;
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const seen = (output.match(/New password for|Repeat it/g) ?? []).length;
        while (prompts < seen) child.stdin.write(`${answers[prompts++] ?? ''}\r`);
      });
      child.on('exit', (code) => done({ code, output: output.replace(/\r/g, '') }));
    });
  }

  describe('a production start', () => {
    it('with an empty database creates no demo content, says how to create an Admin, and logs no password', async () => {
      const dir = tempDir();
      const path = join(dir, 'app.sqlite');
      const { service } = await started({
        NODE_ENV: 'production',
        SIGNING_SECRET: SECRET,
        DB_PATH: path,
        MEDIA_DIR: join(dir, 'media'),
        TRAINING_DIR: join(dir, 'training'),
        SEED_DEMO: '',
      });
      await service.waitFor('No Admin account yet', 10_000);
      await stop(service);
      const records = service
        .stdout()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { msg: string; level: number });
      expect(records.find((r) => r.msg.startsWith('No Admin account yet'))).toMatchObject({
        level: 40,
        msg: expect.stringContaining('set ADMIN_EMAIL and ADMIN_PASSWORD'),
      });
      expect(service.stdout()).not.toMatch(/seeding demo|demo accounts/i);
      const sqlite = new Database(path, { readonly: true });
      try {
        expect(sqlite.prepare('SELECT COUNT(*) AS n FROM users').get()).toEqual({ n: 0 });
      } finally {
        sqlite.close();
      }
    }, 60_000);
  });

  it('with SEED_DEMO=true seeds the demo, but its password and ADMIN_PASSWORD never reach the JSON log', async () => {
    const dir = tempDir();
    const { service, port } = await started({
      NODE_ENV: 'production',
      SIGNING_SECRET: SECRET,
      SEED_DEMO: 'true',
      ADMIN_EMAIL: 'owner@example.com',
      ADMIN_PASSWORD: 'owner-password-1',
      DB_PATH: join(dir, 'app.sqlite'),
      MEDIA_DIR: join(dir, 'media'),
      TRAINING_DIR: join(dir, 'training'),
    });
    try {
      expect(await login(port, 'owner@example.com', 'owner-password-1')).toBe(201);
      const log = service.stdout();
      expect(log).toContain('demo accounts created: admin@demo.example');
      expect(log).not.toContain('owner-password-1');
      expect(log).not.toMatch(/password for all|shown once|"password"/i);
      expect(log).not.toContain('No Admin account yet');
      // The demo's notifications are not logged while seeding, bodies least of all.
      expect(log).toContain('seeding demo content: work log');
      // Every @DemoSeed step ran once, in order.
      const steps = [...log.matchAll(/seeding demo content: ([\w ]+)/g)].map((m) => m[1]);
      expect(steps.slice(0, 7)).toEqual(['demo users', 'media', 'wikis', 'teams', 'guides', 'work log', 'approvals']);
      expect(steps.slice(7).sort()).toEqual(['periodic review', 'quizzes', 'training modules']);
      expect(log).not.toMatch(/"mail":|mail to /);
    } finally {
      await stop(service);
    }
  }, 90_000);
});
