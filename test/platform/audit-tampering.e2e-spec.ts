import type { DataSource } from 'typeorm';
import { TransactionService } from '../../src/database/transaction.service';
import { AUDIT_CHECKPOINT_TASK } from '../../src/platform/platform.module';
import { HashVersion, keyedAuditHash, legacyAuditHash, type AuditContent } from '../../src/platform/audit/audit-hash';
import { AuditService } from '../../src/platform/audit/audit.service';
import { verificationReport } from '../../src/platform/audit/audit-verify-report';
import { AuditEventEntity } from '../../src/platform/audit/entities/audit-event.entity';
import { FakeClock } from '../../src/platform/clock/clock';
import { Scheduler } from '../../src/platform/jobs/scheduler';
import { SignatureService } from '../../src/platform/signatures/signature.service';
import { createUser } from '../factories/user.factory';
import { breaksOf, verifyAudit, withoutTriggers } from '../utils/audit-tamper';
import { createTestApp, type TestApp } from '../utils/test-app';

const PASSWORD = 'correct horse battery';

/**
 * What a database writer could do unseen before: each tampering below must be named by verification,
 * against a log of three chains and a signature, checkpointed, with one more row after the checkpoint.
 */
describe('audit verification names every tampering of a database writer', () => {
  let t: TestApp;
  let dataSource: DataSource;
  let signatureid: number;
  const clock = new FakeClock(Date.UTC(2026, 6, 1, 9));

  const chain = (type: string, id: string) =>
    dataSource.manager.find(AuditEventEntity, { where: { entityType: type, entityId: id }, order: { auditid: 'ASC' } });

  beforeEach(async () => {
    t = await createTestApp({ platform: { clock } });
    dataSource = t.dataSource;
    const audit = t.app.get(AuditService);
    for (const [action, type, id] of [
      ['thing.create', 'thing', '1'],
      ['thing.edit', 'thing', '1'],
      ['thing.create', 'thing', '2'],
      ['thing.edit', 'thing', '2'],
      ['other.create', 'other', 'x'],
    ]) {
      await audit.record({ action, entity: [type, id], after: { action }, reason: 'seed', actor: null });
      clock.advance(1000);
    }
    signatureid = await sign('review');
    if (!(await t.app.get(Scheduler).run(AUDIT_CHECKPOINT_TASK))) throw new Error('the checkpoint task did not run');
    await audit.record({ action: 'thing.edit', entity: ['thing', 1], after: { late: true }, actor: null });
  });
  afterEach(() => t.close());

  async function sign(meaning: 'review' | 'approval'): Promise<number> {
    const { user } = await createUser(t, { password: PASSWORD, username: 'Signer Name' });
    const signer = { userid: user.userid, username: user.username, privileges: [], tokenid: 0 };
    const signatures = t.app.get(SignatureService);
    const proof = await signatures.verify(signer, { password: PASSWORD }, { subjectType: 'doc', subjectId: 1 });
    const signature = await t.app
      .get(TransactionService)
      .run(() => signatures.record(proof, { type: 'doc', id: 1, meaning, recordHash: 'a'.repeat(64) }));
    return signature.signatureid;
  }

  /** Changes the chain's first row, then rewrites every hash of the chain (and its head) with `hash`. */
  async function rewriteChain(
    type: string,
    id: string,
    hash: (prev: string | null, content: AuditContent) => string,
    version: number,
  ): Promise<number[]> {
    const rows = await chain(type, id);
    rows[0].reason = 'rewritten';
    let prev: string | null = null;
    await withoutTriggers(dataSource, ['audit_events'], async () => {
      for (const row of rows) {
        row.prevHash = prev;
        row.hash = hash(prev, row);
        prev = row.hash;
        await dataSource.query(
          'UPDATE audit_events SET reason = ?, prev_hash = ?, hash = ?, hash_version = ? WHERE auditid = ?',
          [row.reason, row.prevHash, row.hash, version, row.auditid],
        );
      }
    });
    const last = rows[rows.length - 1];
    await dataSource.query(
      'UPDATE audit_chain_heads SET last_auditid = ?, last_hash = ? WHERE entity_type = ? AND entity_id = ?',
      [last.auditid, last.hash, type, id],
    );
    return rows.map((row) => row.auditid);
  }

  it('an untouched log verifies intact: rows, chains, the signature and the checkpoint', async () => {
    const result = await verifyAudit(t);
    expect(result).toMatchObject({
      ok: true,
      breakCount: 0,
      breaks: [],
      rows: 7,
      legacyRows: 0,
      chains: 4,
      signatures: 1,
      checkpoints: 1,
      lastCheckpoint: { seq: 1, createdAt: clock.now(), signature: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(verificationReport(result)).toMatch(/^audit log intact: 7 rows in 4 chains/);
  });

  it('(1) the newest rows removed and the head moved back: shorter than checkpointed', async () => {
    const rows = await chain('thing', '1');
    const kept = rows[0];
    await withoutTriggers(dataSource, ['audit_events'], async () => {
      await dataSource.query('DELETE FROM audit_events WHERE auditid IN (?, ?)', [rows[1].auditid, rows[2].auditid]);
    });
    await dataSource.query(
      "UPDATE audit_chain_heads SET last_auditid = ?, last_hash = ? WHERE entity_type = 'thing' AND entity_id = '1'",
      [kept.auditid, kept.hash],
    );
    const result = await verifyAudit(t);
    expect(breaksOf(result)).toEqual([['chain_truncated', 'thing', '1']]);
    expect(result.breaks[0]).toMatchObject({ auditid: rows[1].auditid, detail: expect.stringMatching(/checkpoint 1/) });
    const report = verificationReport(result);
    expect(report).toMatch(/^audit log BROKEN: 1 break:/);
    expect(report).toContain(`BREAK chain_truncated: thing 1, auditid ${rows[1].auditid}:`);
  });

  it('(2) a whole entity chain deleted with its head: missing against the checkpoint', async () => {
    await withoutTriggers(dataSource, ['audit_events'], async () => {
      await dataSource.query("DELETE FROM audit_events WHERE entity_type = 'thing' AND entity_id = '2'");
    });
    await dataSource.query("DELETE FROM audit_chain_heads WHERE entity_type = 'thing' AND entity_id = '2'");
    expect(breaksOf(await verifyAudit(t))).toEqual([['chain_missing', 'thing', '2']]);
  });

  it('(3) a row edited and the chain rehashed with plain SHA-256: every rehashed row is named', async () => {
    const ids = await rewriteChain('thing', '1', legacyAuditHash, HashVersion.keyed);
    const result = await verifyAudit(t);
    expect(result.breaks.map((b) => [b.kind, b.auditid])).toEqual([
      ['row_changed', ids[0]],
      ['row_changed', ids[1]],
      ['checkpoint_mismatch', ids[1]],
      ['row_changed', ids[2]],
    ]);
  });

  it('(3) … and marked as legacy rows: unkeyed hashes after keying began', async () => {
    const ids = await rewriteChain('thing', '1', legacyAuditHash, HashVersion.legacy);
    const result = await verifyAudit(t);
    expect(result.breaks.map((b) => [b.kind, b.auditid])).toEqual([
      ['legacy_hash', ids[0]],
      ['legacy_hash', ids[1]],
      ['checkpoint_mismatch', ids[1]],
      ['legacy_hash', ids[2]],
    ]);
  });

  it('(3) … as legacy rows with every checkpoint removed too: still named after the first keyed row', async () => {
    await withoutTriggers(dataSource, ['audit_checkpoints'], async () => {
      await dataSource.query('DELETE FROM audit_checkpoints');
    });
    const ids = await rewriteChain('thing', '1', legacyAuditHash, HashVersion.legacy);
    const result = await verifyAudit(t);
    // The chain's first rows precede every keyed row: without a checkpoint only the later one shows.
    expect(result.breaks.map((b) => [b.kind, b.auditid])).toEqual([['legacy_hash', ids[2]]]);
    expect(verificationReport(result)).toContain('no checkpoint yet');
  });

  it('(3) … and rehashed with HMAC under a wrong key', async () => {
    const wrongKey = Buffer.from('not the audit key, but 32+ characters long');
    const ids = await rewriteChain('thing', '1', (prev, row) => keyedAuditHash(wrongKey, prev, row), HashVersion.keyed);
    const result = await verifyAudit(t);
    expect(result.breaks.map((b) => [b.kind, b.auditid])).toEqual([
      ['row_changed', ids[0]],
      ['row_changed', ids[1]],
      ['checkpoint_mismatch', ids[1]],
      ['row_changed', ids[2]],
    ]);
  });

  it.each([
    ['(4) printed_name', 'printed_name', 'Someone Else'],
    ['(5) meaning', 'meaning', 'approval'],
  ])('%s of a signature edited: differs from its keyed audit row', async (_, column, value) => {
    await withoutTriggers(dataSource, ['signatures'], async () => {
      await dataSource.query(`UPDATE signatures SET ${column} = ? WHERE signatureid = ?`, [value, signatureid]);
    });
    const result = await verifyAudit(t);
    expect(breaksOf(result)).toEqual([['signature_changed', 'signature', String(signatureid)]]);
    expect(result.breaks[0].detail).toBe(`${column} differ from its signature.create audit row`);
  });

  it('a signature deleted, and one inserted without its audit row, are named', async () => {
    await withoutTriggers(dataSource, ['signatures'], async () => {
      await dataSource.query('DELETE FROM signatures WHERE signatureid = ?', [signatureid]);
    });
    await dataSource.query(
      "INSERT INTO signatures (subject_type, subject_id, userid, printed_name, meaning, note, signed_at, auth_method, record_hash) VALUES ('doc', '1', 1, 'P', 'approval', '', 1, 'password', 'h')",
    );
    const [{ id }] = await dataSource.query<{ id: number }[]>('SELECT MAX(signatureid) AS id FROM signatures');
    expect(breaksOf(await verifyAudit(t))).toEqual([
      ['signature_unaudited', 'signature', String(id)],
      ['signature_missing', 'signature', String(signatureid)],
    ]);
  });
});
