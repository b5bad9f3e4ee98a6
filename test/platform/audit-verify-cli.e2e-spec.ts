import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AUDIT_CHECKPOINT_TASK } from '../../src/platform/platform.module';
import { AuditService } from '../../src/platform/audit/audit.service';
import { Scheduler } from '../../src/platform/jobs/scheduler';
import { withoutTriggers } from '../utils/audit-tamper';
import { createTestApp, type TestApp } from '../utils/test-app';
import { usingMysql } from '../utils/test-config';

const CLI = resolve(__dirname, '../../dist/src/platform/audit/verify-audit-cli.js');
const AUDIT_HMAC_KEY = 'the audit key of the CLI test: 0123456789';

/** Runs the built `audit:verify` in `cwd` (where it reads `.env`) with only these variables set. */
function verifyCli(env: Record<string, string>, cwd: string): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI], { env: { PATH: process.env.PATH ?? '', ...env }, cwd });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => done({ code, out }));
  });
}

/** The built CLI (run `node scripts/build-if-stale.mjs` first) against the database a test app wrote. */
describe('npm run audit:verify (the built CLI)', () => {
  let dir: string;
  let t: TestApp;
  let database: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rgcs-audit-cli-'));
    database = usingMysql()
      ? { DB_TYPE: 'mysql', DATABASE_URL: process.env.TEST_MYSQL_URL ?? '' }
      : { DB_TYPE: 'sqlite', DB_PATH: join(dir, 'audit.sqlite') };
    t = await createTestApp({ env: { ...database, AUDIT_HMAC_KEY } });
    const audit = t.app.get(AuditService);
    for (const id of [1, 1, 2, 3]) await audit.record({ action: 'thing.touch', entity: ['thing', id], actor: null });
    await t.app.get(Scheduler).run(AUDIT_CHECKPOINT_TASK);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits 0 on an intact log, reading the key from .env; every row is a break under another key', async () => {
    writeFileSync(join(dir, '.env'), `AUDIT_HMAC_KEY=${AUDIT_HMAC_KEY}\n`);
    const intact = await verifyCli({ ...database, NODE_ENV: 'test' }, dir);
    expect(intact.out).toMatch(
      /^audit log intact: 4 rows in 3 chains \(0 legacy rows with unkeyed hashes\), 0 signatures, 1 checkpoints\n/,
    );
    expect(intact.code).toBe(0);
    const wrongKey = await verifyCli({ ...database, NODE_ENV: 'test', AUDIT_HMAC_KEY: 'x'.repeat(40) }, dir);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.out).toMatch(/^audit log BROKEN: 5 breaks:/);
    expect(wrongKey.out.match(/^BREAK row_changed: thing \d, auditid \d+:/gm)).toHaveLength(4);
    expect(wrongKey.out).toMatch(/^BREAK checkpoint_forged: audit_checkpoint 1, auditid -:/m);
    expect(wrongKey.out).not.toContain(AUDIT_HMAC_KEY);
  });

  it('names every break with its chain, row and kind, and exits 1', async () => {
    const [two, three] = await t.dataSource.query<{ auditid: number }[]>(
      "SELECT auditid FROM audit_events WHERE entity_type = 'thing' AND entity_id IN ('2', '3') ORDER BY auditid",
    );
    await withoutTriggers(t.dataSource, ['audit_events'], async () => {
      await t.dataSource.query("DELETE FROM audit_events WHERE entity_type = 'thing' AND entity_id = '2'");
      await t.dataSource.query(
        "UPDATE audit_events SET reason = 'forged' WHERE entity_type = 'thing' AND entity_id = '3'",
      );
    });
    await t.dataSource.query("DELETE FROM audit_chain_heads WHERE entity_type = 'thing' AND entity_id = '2'");
    const broken = await verifyCli({ ...database, NODE_ENV: 'test', AUDIT_HMAC_KEY }, dir);
    expect(broken.code).toBe(1);
    expect(broken.out.split('\n').filter((line) => line.startsWith('BREAK'))).toEqual([
      `BREAK row_changed: thing 3, auditid ${three.auditid}: the hash does not match the row under the audit key (the row was changed)`,
      `BREAK chain_missing: thing 2, auditid ${two.auditid}: checkpoint 1 recorded this chain; it has no rows now`,
    ]);
  });
});
