import { DataSource } from 'typeorm';
import { backgroundContext, requestContext } from '../../src/common/context/request-context';
import { TransactionService } from '../../src/database/transaction.service';
import { FakeClock } from '../../src/platform/clock/clock';
import { AuditService } from '../../src/platform/audit/audit.service';
import { keyedAuditHash } from '../../src/platform/audit/audit-hash';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { AuditProbeModule } from '../support/audit-probe.module';
import { usingMysql } from '../utils/test-config';
import { breaksOf, verifyAudit, withoutTriggers } from '../utils/audit-tamper';

describe('audit log: append-only, hash-chained, written with the change', () => {
  let t: TestApp;
  let audit: AuditService;
  let dataSource: DataSource;
  let admin: CreatedUser;
  let user: CreatedUser;
  const clock = new FakeClock(Date.UTC(2026, 5, 1, 12));

  const list = (token: string | undefined, query = '') => t.as(token, { method: 'GET', url: `/api/2.0/audit${query}` });

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock }, extraModules: [AuditProbeModule] });
    audit = t.app.get(AuditService);
    dataSource = t.app.get(DataSource);
    admin = await createUser(t, { privilege: 'Admin' });
    user = await createUser(t);
  });
  afterAll(() => t.close());

  it('GET /audit: 401 anonymous, 403 below Admin, 422 for a bad filter', async () => {
    expect((await list(undefined)).statusCode).toBe(401);
    const forbidden = await list(user.token);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().requiredPrivileges).toEqual(['Admin']);
    const bad = await list(admin.token, '?actor=abc&action=Not%20A%20Verb');
    expect(bad.statusCode).toBe(422);
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['action', 'actor']);
  });

  it('records rows chained per entity; a rollback records nothing', async () => {
    await audit.record({ action: 'thing.create', entity: ['thing', 1], after: { b: 2, a: 1 }, actor: admin.user });
    clock.advance(1000);
    await audit.record({
      action: 'thing.edit',
      entity: ['thing', 1],
      before: { a: 1 },
      after: { a: 3 },
      reason: 'typo',
      actor: admin.user,
    });
    await audit.record({ action: 'other.create', entity: ['other', 'x'], after: null, actor: null });
    await t.app
      .get(TransactionService)
      .run(async () => {
        await audit.record({ action: 'thing.delete', entity: ['thing', 1], actor: admin.user });
        throw new Error('rollback');
      })
      .catch(() => undefined);

    const res = await list(admin.token, '?entity_type=thing&entity_id=1');
    expect(res.statusCode).toBe(200);
    const rows = res.json();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual({
      auditid: expect.any(Number),
      date: Math.floor(Date.UTC(2026, 5, 1, 12) / 1000),
      actor: { userid: admin.user.userid, username: admin.user.username },
      action: 'thing.create',
      entity_type: 'thing',
      entity_id: '1',
      before: null,
      after: { a: 1, b: 2 },
      reason: null,
      request_id: expect.stringMatching(/^transaction:/),
      ip: null,
      user_agent: null,
      prev_hash: null,
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(rows[1]).toMatchObject({ action: 'thing.edit', reason: 'typo', prev_hash: rows[0].hash });
    const other = (await list(admin.token, '?entity_type=other')).json();
    expect(other).toEqual([expect.objectContaining({ actor: null, prev_hash: null, action: 'other.create' })]);
  });

  it('filters by actor, action prefix and time range; pages and orders by auditid', async () => {
    const byActor = (await list(admin.token, `?actor=${admin.user.userid}&action=thing.`)).json();
    expect(byActor.map((r: { action: string }) => r.action)).toEqual(['thing.create', 'thing.edit']);
    const from = Math.floor(clock.now() / 1000);
    expect(
      (await list(admin.token, `?from=${from}&entity_type=thing`)).json().map((r: { action: string }) => r.action),
    ).toEqual(['thing.edit']);
    expect(
      (await list(admin.token, `?to=${from - 1}&entity_type=thing`)).json().map((r: { action: string }) => r.action),
    ).toEqual(['thing.create']);
    const desc = (await list(admin.token, '?order=DESC&limit=1')).json();
    expect(desc).toHaveLength(1);
    expect(desc[0].action).toBe('other.create');
  });

  it('carries the request id, address and user agent of the HTTP request that made the change', async () => {
    const res = await t.as(user.token, {
      method: 'POST',
      url: '/api/2.0/test/audit-probe',
      headers: { 'x-request-id': 'req-audit-1', 'user-agent': 'audit-test/1.0' },
      remoteAddress: '203.0.113.7',
    });
    expect(res.statusCode).toBe(201);
    const [row] = (await list(admin.token, '?action=probe.touch')).json();
    expect(row).toMatchObject({
      actor: { userid: user.user.userid, username: user.user.username },
      request_id: 'req-audit-1',
      ip: '203.0.113.7',
      user_agent: 'audit-test/1.0',
      after: { touched: true },
    });
  });

  it('writes the rows of one transaction together before COMMIT: in call order, chained per entity, a few statements', async () => {
    const context = backgroundContext('audit-batch');
    const calls: [string, string, number | string][] = [
      ['batch.one', 'batch', 1],
      ['batch.two', 'batch', 2],
      ['other.batch', 'other', 'x'],
      ['batch.one_again', 'batch', 1],
      ['batch.one_third', 'batch', 1],
    ];
    const seen: number[] = [];
    await requestContext.run(context, () =>
      t.app.get(TransactionService).run(async () => {
        for (const [action, type, id] of calls) {
          await audit.record({ action, entity: [type, id], after: { action }, actor: user.user });
          clock.advance(1);
        }
        // Nothing is written until the work is done (the rows are inserted just before COMMIT).
        seen.push(context.stats.sqlStatements);
      }),
    );
    // BEGIN, then the heads of all five rows locked at once (an upsert first on MySQL), one INSERT, one heads upsert.
    expect(seen).toEqual([1]);
    expect(context.stats.sqlStatements).toBe(usingMysql() ? 6 : 5);
    const rows = await dataSource.query<
      {
        auditid: number;
        action: string;
        entity_type: string;
        entity_id: string;
        prev_hash: string | null;
        hash: string;
      }[]
    >(
      'SELECT auditid, action, entity_type, entity_id, prev_hash, hash FROM audit_events WHERE request_id = ? ORDER BY auditid',
      [context.requestId],
    );
    expect(rows.map((r) => [r.action, r.entity_type, r.entity_id])).toEqual(
      calls.map(([action, type, id]) => [action, type, String(id)]),
    );
    const byAction = new Map(rows.map((r) => [r.action, r]));
    expect(byAction.get('batch.one')!.prev_hash).toBeNull();
    expect(byAction.get('batch.two')!.prev_hash).toBeNull();
    expect(byAction.get('batch.one_again')!.prev_hash).toBe(byAction.get('batch.one')!.hash);
    expect(byAction.get('batch.one_third')!.prev_hash).toBe(byAction.get('batch.one_again')!.hash);
    // `other` already had a chain (other.create above): the new row continues it.
    const [otherCreate] = (await list(admin.token, '?entity_type=other&action=other.create')).json();
    expect(byAction.get('other.batch')!.prev_hash).toBe(otherCreate.hash);
    const heads = await dataSource.query<{ entity_id: string; last_auditid: number; last_hash: string }[]>(
      "SELECT entity_id, last_auditid, last_hash FROM audit_chain_heads WHERE entity_type = 'batch' ORDER BY entity_id",
    );
    expect(heads.map((h) => [h.entity_id, Number(h.last_auditid), h.last_hash])).toEqual([
      ['1', Number(byAction.get('batch.one_third')!.auditid), byAction.get('batch.one_third')!.hash],
      ['2', Number(byAction.get('batch.two')!.auditid), byAction.get('batch.two')!.hash],
    ]);
    expect(await verifyAudit(t)).toMatchObject({ ok: true });
  });

  it('the database refuses UPDATE and DELETE of audit rows, signatures and checkpoints', async () => {
    await expect(
      dataSource.query('UPDATE audit_events SET reason = ? WHERE action = ?', ['x', 'thing.edit']),
    ).rejects.toThrow(/append-only/);
    await expect(dataSource.query('DELETE FROM audit_events')).rejects.toThrow(/append-only/);
    // In a transaction that is rolled back: a signature without its audit row would be a break of its own.
    const rolledBack = t.app.get(TransactionService).run(async (tx) => {
      const q = (sql: string, params: unknown[] = []) => tx.manager.query(sql, params);
      await q(
        "INSERT INTO signatures (subject_type, subject_id, userid, printed_name, meaning, note, signed_at, auth_method, record_hash) VALUES ('t', '1', ?, 'P', 'approval', '', 1, 'password', 'h')",
        [user.user.userid],
      );
      await expect(q("UPDATE signatures SET note = 'x'")).rejects.toThrow(/append-only/);
      await expect(q('DELETE FROM signatures')).rejects.toThrow(/append-only/);
      await q(
        "INSERT INTO audit_checkpoints (seq, created_at, legacy_through, heads_json, prev_signature, signature) VALUES (999, 1, 0, '[]', NULL, 's')",
      );
      await expect(q('UPDATE audit_checkpoints SET legacy_through = 5')).rejects.toThrow(/append-only/);
      await expect(q('DELETE FROM audit_checkpoints')).rejects.toThrow(/append-only/);
      throw new Error('roll back');
    });
    await expect(rolledBack).rejects.toThrow('roll back');
    expect(await dataSource.query('SELECT signatureid FROM signatures')).toEqual([]);
  });

  it('verification passes on an intact log and names each changed or removed row', async () => {
    const intact = await verifyAudit(t);
    expect(intact).toMatchObject({ ok: true, breakCount: 0, breaks: [], legacyRows: 0 });
    expect(intact.rows).toBeGreaterThan(5);
    const [edited] = (await list(admin.token, '?action=thing.edit')).json();
    await withoutTriggers(dataSource, ['audit_events'], async () => {
      await dataSource.query("UPDATE audit_events SET reason = 'forged' WHERE auditid = ?", [edited.auditid]);
    });
    const changed = await verifyAudit(t);
    expect(changed).toMatchObject({ ok: false, breakCount: 1 });
    expect(changed.breaks).toEqual([
      {
        kind: 'row_changed',
        auditid: edited.auditid,
        entityType: 'thing',
        entityId: '1',
        detail: expect.stringMatching(/row was changed/),
      },
    ]);
    await withoutTriggers(dataSource, ['audit_events'], async () => {
      await dataSource.query("UPDATE audit_events SET reason = 'typo' WHERE auditid = ?", [edited.auditid]);
      await dataSource.query('DELETE FROM audit_events WHERE auditid = ?', [edited.auditid]);
    });
    const removed = await verifyAudit(t);
    expect(breaksOf(removed)).toEqual([['head_mismatch', 'thing', '1']]);
    expect(removed.breaks[0].detail).toMatch(/newest rows removed/);
  });

  it('hashes canonical content under the audit key: key order does not matter, every field and the key do', () => {
    const base = {
      occurredAt: 1,
      actorUserid: 2,
      actorName: 'A',
      action: 'a.b',
      entityType: 'e',
      entityId: '1',
      before: { x: 1, y: [1, { b: 2, a: 1 }] },
      after: null,
      reason: null,
      requestId: 'r',
      ip: null,
      userAgent: null,
    };
    const key = t.config.audit.key;
    const reordered = { ...base, before: { y: [1, { a: 1, b: 2 }], x: 1 } };
    expect(keyedAuditHash(key, 'p', reordered)).toBe(keyedAuditHash(key, 'p', base));
    expect(keyedAuditHash(key, 'q', base)).not.toBe(keyedAuditHash(key, 'p', base));
    expect(keyedAuditHash(key, 'p', { ...base, ip: '127.0.0.1' })).not.toBe(keyedAuditHash(key, 'p', base));
    expect(keyedAuditHash(Buffer.from('another key of at least 32 chars!'), 'p', base)).not.toBe(
      keyedAuditHash(key, 'p', base),
    );
  });
});
