import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { startService } from '../utils/service-process';

/**
 * The README's backup commands, run as written against a running service, and its restore steps: the restored
 * copy serves the rows committed before the backup (a login's token) and not those committed after it.
 */
const README = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
const BACKUPS = README.split('### Backups')[1]?.split('\n### ')[0] ?? '';
const ADMIN = { email: 'backup-admin@example.com', password: 'a backup password' };
// One database per run: the SQLite run checks the SQLite commands, the TEST_DB=mysql run the MySQL ones.
const itOnMysql = process.env.TEST_DB === 'mysql' ? it : it.skip;
const itOnSqlite = process.env.TEST_DB === 'mysql' ? it.skip : it;

/** The README's commands in the Backups section that start with `program` (code spans). */
function commands(program: string): string[] {
  return [...BACKUPS.matchAll(/`([^`]+)`/g)].map((match) => match[1]).filter((text) => text.startsWith(`${program} `));
}

async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/api/2.0/user/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { authToken: string }).authToken;
}

async function userOf(base: string, token: string): Promise<number> {
  return (await fetch(`${base}/api/2.0/user`, { headers: { authorization: `api ${token}` } })).status;
}

/** The MySQL server of the TEST_DB=mysql run (its URL without the run's database). */
const serverUrl = () => (process.env.TEST_MYSQL_URL ?? '').replace(/[^/]*$/, '');

async function onServer(sql: string): Promise<unknown[]> {
  const connection = await createConnection(serverUrl());
  try {
    return (await connection.query(sql))[0] as unknown[];
  } finally {
    await connection.end();
  }
}

const sh = (command: string, cwd: string) => execFileSync('bash', ['-eo', 'pipefail', '-c', command], { cwd });

describe('backups as the README gives them', () => {
  itOnSqlite(
    'SQLite: an online backup of a running service restores (in the SQLite run)',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'rgcs-backup-'));
      const env = { SEED_DEMO: 'false', SIGNING_SECRET: 's'.repeat(40) };
      const running = await startService({ ...env, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password }, dir);
      let before: string, after: string;
      const copies: string[] = [];
      try {
        before = await login(running.base);
        const backups = commands('sqlite3');
        expect(backups).toHaveLength(2);
        for (const [index, command] of backups.entries()) {
          expect(command).toContain('data/app.sqlite');
          sh(command, dir);
          renameSync(join(dir, 'backup.sqlite'), join(dir, `copy-${index}.sqlite`));
          copies.push(join(dir, `copy-${index}.sqlite`));
        }
        after = await login(running.base);
      } finally {
        expect(await running.stop()).toBe(0);
      }
      for (const copy of copies) {
        // Restore: the service stopped, the copy in place of app.sqlite, the -wal and -shm files gone.
        copyFileSync(copy, join(dir, 'data', 'app.sqlite'));
        rmSync(join(dir, 'data', 'app.sqlite-wal'), { force: true });
        rmSync(join(dir, 'data', 'app.sqlite-shm'), { force: true });
        const restored = await startService(env, dir);
        try {
          expect(await userOf(restored.base, before)).toBe(200);
          expect(await userOf(restored.base, after)).toBe(401);
        } finally {
          await restored.stop();
        }
      }
    },
    240_000,
  );

  itOnMysql(
    'MySQL: mysqldump --single-transaction of a running service restores (in the TEST_DB=mysql run)',
    async () => {
      const name = `${process.env.TEST_MYSQL_DATABASE ?? 'rgcs_test'}_bk`;
      const url = new URL(serverUrl());
      const client = [`-h${url.hostname}`, `-P${url.port || 3306}`, `-u${decodeURIComponent(url.username || 'root')}`];
      if (url.password) client.push(`-p${decodeURIComponent(url.password)}`);
      const args = client.join(' ');
      const [dump] = commands('mysqldump');
      const [restore] = commands('mysql');
      expect(dump).toMatch(/--single-transaction/);
      await onServer(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      await onServer(`CREATE DATABASE \`${name}_r\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      const dir = mkdtempSync(join(tmpdir(), 'rgcs-backup-'));
      mkdirSync(join(dir, 'data'));
      const env = (database: string) => ({
        SEED_DEMO: 'false',
        SIGNING_SECRET: 's'.repeat(40),
        DB_TYPE: 'mysql',
        DATABASE_URL: `${serverUrl()}${database}`,
      });
      try {
        const running = await startService(
          { ...env(name), ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
          dir,
        );
        let before: string, after: string;
        try {
          before = await login(running.base);
          sh(dump.replace(/^mysqldump /, `mysqldump ${args} `).replace(/\brepair_guides\b/, name), dir);
          after = await login(running.base);
        } finally {
          expect(await running.stop()).toBe(0);
        }
        sh(restore.replace(/^mysql /, `mysql ${args} `).replace(/\brepair_guides\b/, `${name}_r`), dir);
        const restored = await startService(env(`${name}_r`), dir);
        try {
          expect(await userOf(restored.base, before)).toBe(200);
          expect(await userOf(restored.base, after)).toBe(401);
          // The audit tables keep refusing UPDATE: the dump carried their triggers.
          expect((await onServer(`SHOW TRIGGERS FROM \`${name}_r\``)).length).toBeGreaterThan(0);
        } finally {
          await restored.stop();
        }
      } finally {
        await onServer(`DROP DATABASE IF EXISTS \`${name}\``);
        await onServer(`DROP DATABASE IF EXISTS \`${name}_r\``);
      }
    },
    240_000,
  );
});
