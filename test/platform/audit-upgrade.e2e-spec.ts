import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { resolveDataSourceOptions } from '../../src/database/data-source-options';
import { runMigrations } from '../../src/database/run-migrations';
import { AuditKeyedChain1795494205000 as MysqlKeyedChain } from '../../src/database/migrations/mysql/1795494205000-AuditKeyedChain';
import { AuditKeyedChain1795494205000 as SqliteKeyedChain } from '../../src/database/migrations/sqlite/1795494205000-AuditKeyedChain';
import { AUDIT_CHECKPOINT_TASK } from '../../src/platform/platform.module';
import { legacyAuditHash, type AuditContent } from '../../src/platform/audit/audit-hash';
import { AuditService } from '../../src/platform/audit/audit.service';
import { Scheduler } from '../../src/platform/jobs/scheduler';
import { createUser } from '../factories/user.factory';
import { breaksOf, verifyAudit, withoutTriggers } from '../utils/audit-tamper';
import { createTestApp, type TestApp } from '../utils/test-app';
import { testConfig, usingMysql } from '../utils/test-config';

const content = (action: string, entityType: string, entityId: string, after: unknown): AuditContent => ({
  occurredAt: Date.UTC(2026, 0, 5),
  actorUserid: null,
  actorName: null,
  action,
  entityType,
  entityId,
  before: null,
  after,
  reason: null,
  requestId: 'before-the-upgrade',
  ip: null,
  userAgent: null,
});

/** A database as the service left it before the log was keyed: every migration but the keyed chain's. */
async function databaseBeforeUpgrade(env: Record<string, string>): Promise<DataSource> {
  const options = await resolveDataSourceOptions(testConfig(env));
  const older = (options.migrations as Function[]).filter((m) => m !== MysqlKeyedChain && m !== SqliteKeyedChain);
  const dataSource = await new DataSource({ ...options, migrations: older }).initialize();
  if (usingMysql()) {
    await dataSource.query('SET FOREIGN_KEY_CHECKS = 0');
    for (const row of await dataSource.query<Record<string, string>[]>('SHOW TABLES'))
      await dataSource.query(`DROP TABLE \`${Object.values(row)[0]}\``);
    await dataSource.query('SET FOREIGN_KEY_CHECKS = 1');
  }
  await runMigrations(dataSource);
  return dataSource;
}

/** Appends a row hashed as the service did before (plain SHA-256) and moves the chain's head to it. */
async function legacyRow(dataSource: DataSource, row: AuditContent, prevHash: string | null): Promise<string> {
  const hash = legacyAuditHash(prevHash, row);
  await dataSource.query(
    `INSERT INTO audit_events (occurred_at, actor_userid, actor_name, action, entity_type, entity_id, before_json,
      after_json, reason, request_id, ip, user_agent, prev_hash, hash) VALUES (?, NULL, NULL, ?, ?, ?, NULL, ?, NULL, ?, NULL, NULL, ?, ?)`,
    [
      row.occurredAt,
      row.action,
      row.entityType,
      row.entityId,
      JSON.stringify(row.after),
      row.requestId,
      prevHash,
      hash,
    ],
  );
  const [{ id }] = await dataSource.query<{ id: number }[]>('SELECT MAX(auditid) AS id FROM audit_events');
  await dataSource.query('DELETE FROM audit_chain_heads WHERE entity_type = ? AND entity_id = ?', [
    row.entityType,
    row.entityId,
  ]);
  await dataSource.query(
    'INSERT INTO audit_chain_heads (entity_type, entity_id, last_auditid, last_hash) VALUES (?, ?, ?, ?)',
    [row.entityType, row.entityId, id, hash],
  );
  return hash;
}

describe('audit log: a database written before the log was keyed, upgraded', () => {
  let dir: string;
  let t: TestApp;
  let signatureid: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rgcs-audit-upgrade-'));
    const env = { DB_PATH: join(dir, 'upgraded.sqlite') };
    const before = await databaseBeforeUpgrade(env);
    try {
      const first = await legacyRow(before, content('thing.create', 'thing', '1', { a: 1 }), null);
      await legacyRow(before, content('thing.edit', 'thing', '1', { a: 2 }), first);
      await before.query(
        "INSERT INTO signatures (subject_type, subject_id, userid, printed_name, meaning, note, signed_at, auth_method, record_hash) VALUES ('doc', '1', 1, 'Old Signer', 'review', '', 1767571200, 'password', ?)",
        ['b'.repeat(64)],
      );
      const [{ id }] = await before.query<{ id: number }[]>('SELECT MAX(signatureid) AS id FROM signatures');
      signatureid = Number(id);
      const view = { userid: 1, printed_name: 'Old Signer', signed_at: 1767571200, meaning: 'review', note: '' };
      const after = {
        ...view,
        subject_type: 'doc',
        subject_id: '1',
        record_hash: 'b'.repeat(64),
        auth_method: 'password',
      };
      await legacyRow(before, content('signature.create', 'signature', String(signatureid), after), null);
    } finally {
      await before.destroy();
    }
    t = await createTestApp({ env, keepData: true });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('verifies intact: the old rows checked as plain SHA-256 and counted as legacy', async () => {
    expect(await verifyAudit(t)).toMatchObject({ ok: true, rows: 3, legacyRows: 3, signatures: 1, checkpoints: 0 });
  });

  it('keyed rows continue the old chains; the first checkpoint lists every chain and seals the legacy rows', async () => {
    await t.app.get(AuditService).record({ action: 'thing.edit', entity: ['thing', 1], after: { a: 3 }, actor: null });
    await t.app.get(AuditService).record({ action: 'new.create', entity: ['new', 1], actor: null });
    expect(await verifyAudit(t)).toMatchObject({ ok: true, rows: 5, legacyRows: 3 });
    await t.app.get(Scheduler).run(AUDIT_CHECKPOINT_TASK);
    const admin = await createUser(t, { privilege: 'Admin' });
    const [checkpoint] = (await t.as(admin.token, { url: '/api/2.0/audit/checkpoints' })).json();
    expect(checkpoint).toMatchObject({ seq: 1, legacy_through: 3 });
    const chains = checkpoint.heads.map(
      (h: { entity_type: string; entity_id: string }) => `${h.entity_type} ${h.entity_id}`,
    );
    expect(chains).toEqual(['new 1', `signature ${signatureid}`, 'thing 1']);
    expect(await verifyAudit(t)).toMatchObject({ ok: true, legacyRows: 3, checkpoints: 1 });
  });

  it('a legacy signature edited, or its legacy row rehashed, is named', async () => {
    await withoutTriggers(t.dataSource, ['signatures'], async () => {
      await t.dataSource.query("UPDATE signatures SET printed_name = 'Someone Else' WHERE signatureid = ?", [
        signatureid,
      ]);
    });
    const edited = await verifyAudit(t);
    expect(breaksOf(edited)).toEqual([['signature_changed', 'signature', String(signatureid)]]);
    // The audit row edited to match and rehashed as a legacy row: the checkpoint still has its old hash.
    const [row] = await t.dataSource.query<{ auditid: number; after_json: string | object }[]>(
      "SELECT auditid, after_json FROM audit_events WHERE entity_type = 'signature'",
    );
    const after = { ...(typeof row.after_json === 'string' ? JSON.parse(row.after_json) : row.after_json) };
    after.printed_name = 'Someone Else';
    const forged = legacyAuditHash(null, content('signature.create', 'signature', String(signatureid), after));
    await withoutTriggers(t.dataSource, ['audit_events'], async () => {
      await t.dataSource.query('UPDATE audit_events SET after_json = ?, hash = ? WHERE auditid = ?', [
        JSON.stringify(after),
        forged,
        row.auditid,
      ]);
    });
    const rehashed = await verifyAudit(t);
    expect(rehashed.breaks.map((b) => [b.kind, b.auditid])).toEqual([
      ['checkpoint_mismatch', Number(row.auditid)],
      ['head_mismatch', Number(row.auditid)],
    ]);
  });
});
