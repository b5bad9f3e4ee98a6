import { copyFileSync, chmodSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { freePort, lines, SERVICE_USER, startService, tempDir } from './spawn-service';

const usingMysql = process.env.TEST_DB === 'mysql';
/**
 * A start-up failure with a known cause is told at once, not after 10 attempts 3 s apart. The bound leaves
 * room for loading the service on a busy machine (about 4 s on 2 shared cores); alone it starts in 2.
 */
const AT_ONCE_MS = 10_000;

async function failsWithOneLine(env: Record<string, string>, unprivileged = false) {
  const service = startService({ PORT: String(await freePort()), ...env }, { unprivileged });
  const { code, ms } = await service.exited;
  expect(code).toBe(1);
  expect(lines(service.output())).toHaveLength(1);
  expect(service.output()).not.toMatch(/\n\s+at |Retrying|successfully started|listening/i);
  return { line: service.output().trim(), ms };
}

describe('start-up failures: one line naming the cause and the fix', () => {
  // Permissions: as root the child runs without the capabilities that bypass them (spawn-service.ts).
  it('a read-only folder of DB_PATH', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'data'), { mode: 0o555 });
    chmodSync(join(dir, 'data'), 0o555);
    const { line, ms } = await failsWithOneLine({ DB_PATH: join(dir, 'data', 'app.sqlite') }, true);
    expect(line).toContain(`The folder ${join(dir, 'data')} of the SQLite database`);
    expect(line).toMatch(/read-only .*Make it writable by user ".+".* or set DB_PATH/);
    expect(ms).toBeLessThan(AT_ONCE_MS);
  }, 30_000);

  it('a read-only SQLite file', async () => {
    const dir = tempDir();
    const seeded = startService({ PORT: String(await freePort()), DB_PATH: join(dir, 'app.sqlite') });
    await seeded.waitFor('listening');
    seeded.child.kill('SIGTERM');
    await seeded.exited;
    const copy = join(tempDir(), 'app.sqlite');
    copyFileSync(join(dir, 'app.sqlite'), copy);
    chmodSync(copy, 0o444);
    const { line, ms } = await failsWithOneLine({ DB_PATH: copy }, true);
    expect(line).toContain(`The SQLite database file ${copy} (DB_PATH=${copy}) is read-only`);
    expect(line).toContain('chmod u+w');
    expect(ms).toBeLessThan(AT_ONCE_MS);
  }, 60_000);

  it('a folder of DB_PATH that cannot be created', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'locked'), { mode: 0o555 });
    chmodSync(join(dir, 'locked'), 0o555);
    const path = join(dir, 'locked', 'missing', 'app.sqlite');
    const { line, ms } = await failsWithOneLine({ DB_PATH: path }, true);
    expect(line).toBe(
      `Cannot create the folder ${join(dir, 'locked', 'missing')} for the SQLite database (DB_PATH=${path}): permission denied. Create it writable by user "${SERVICE_USER}", or set DB_PATH to a writable location.`,
    );
    expect(ms).toBeLessThan(AT_ONCE_MS);
  }, 30_000);

  it('a port in use: one line, exit 1, never "started"', async () => {
    const port = await freePort();
    const holder: Server = createServer();
    await new Promise<void>((done) => holder.listen(port, '127.0.0.1', done));
    try {
      const dir = tempDir();
      const service = startService({ PORT: String(port), DB_PATH: join(dir, 'app.sqlite') });
      const { code } = await service.exited;
      expect(code).toBe(1);
      expect(service.output()).not.toMatch(/started|listening on|\n\s+at /i);
      expect(lines(service.stderr())).toEqual([
        `Cannot listen on 127.0.0.1:${port}: the port is already in use by another process. Stop that process or set PORT to a free port.`,
      ]);
    } finally {
      holder.close();
    }
  }, 60_000);

  it('a HOST that is no name: one line, exit 1', async () => {
    const dir = tempDir();
    const service = startService({
      PORT: String(await freePort()),
      HOST: 'no-such-host.invalid',
      DB_PATH: join(dir, 'app.sqlite'),
    });
    const { code } = await service.exited;
    expect(code).toBe(1);
    expect(service.output()).not.toMatch(/started|\n\s+at /i);
    expect(lines(service.stderr())).toEqual([
      expect.stringMatching(
        /^Cannot listen on no-such-host\.invalid:\d+: HOST "no-such-host\.invalid" is not a known host name\. Set HOST/,
      ),
    ]);
  }, 60_000);

  it('a HOST that is not an address of this machine: one line, exit 1', async () => {
    const dir = tempDir();
    const service = startService({
      PORT: String(await freePort()),
      HOST: '192.0.2.1',
      DB_PATH: join(dir, 'app.sqlite'),
    });
    const { code } = await service.exited;
    expect(code).toBe(1);
    expect(lines(service.stderr())).toEqual([
      expect.stringMatching(
        /^Cannot listen on 192\.0\.2\.1:\d+: HOST "192\.0\.2\.1" is not an address of this machine/,
      ),
    ]);
    expect(service.stdout()).not.toMatch(/started|listening on/i);
  }, 60_000);

  it('a MySQL server that refuses connections is retried, each retry saying why', async () => {
    const service = startService({ DB_TYPE: 'mysql', DB_HOST: '127.0.0.1', DB_PORT: String(await freePort()) });
    try {
      await service.waitFor(/retrying in 3 s \(attempt 3 of 10\)/, 20_000);
      const retries = lines(service.output()).filter((line) => line.includes('retrying'));
      expect(retries).toHaveLength(2);
      for (const line of retries) {
        expect(line).toMatch(
          /cannot reach the database "repair_guides" on 127\.0\.0\.1:\d+ \(ECONNREFUSED: connection refused/,
        );
      }
    } finally {
      service.child.kill('SIGKILL');
    }
  }, 30_000);

  // These need a MySQL/MariaDB server: they run with TEST_DB=mysql (the server of the MySQL test run).
  (usingMysql ? describe : describe.skip)('MySQL/MariaDB (TEST_DB=mysql: needs a server)', () => {
    const server = new URL((process.env.TEST_DATABASE_URL || 'mysql://root@127.0.0.1:3306/').replace(/\/?$/, '/'));
    const base = {
      DB_TYPE: 'mysql',
      DB_HOST: server.hostname,
      DB_PORT: server.port || '3306',
      DB_USER: decodeURIComponent(server.username || 'root'),
      DB_PASSWORD: decodeURIComponent(server.password),
    };

    it('an unknown database', async () => {
      const { line, ms } = await failsWithOneLine({ ...base, DB_NAME: 'rgcs_no_such_database' });
      expect(line).toBe(
        `Database "rgcs_no_such_database" does not exist on the MySQL/MariaDB server ${base.DB_HOST}:${base.DB_PORT}. Create it (CREATE DATABASE \`rgcs_no_such_database\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci) or set DB_NAME (or DATABASE_URL) to an existing one.`,
      );
      expect(ms).toBeLessThan(AT_ONCE_MS);
    }, 30_000);

    it('access denied', async () => {
      const { line, ms } = await failsWithOneLine({ ...base, DB_USER: 'rgcs_no_such_user', DB_PASSWORD: 'wrong' });
      expect(line).toMatch(
        /^Access denied to database "repair_guides" on .* for user "rgcs_no_such_user" \(.*\)\. Check DB_USER and DB_PASSWORD/,
      );
      expect(line).not.toContain('wrong');
      expect(ms).toBeLessThan(AT_ONCE_MS);
    }, 30_000);
  });
});
