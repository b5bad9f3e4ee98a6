import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { SchedulerRegistry } from '@nestjs/schedule';
import type { DataSource } from 'typeorm';
import { AUDIT_CHECKPOINT_TASK } from '../../src/platform/platform.module';
import { AuditCheckpoints, HEADS_PER_CHECKPOINT } from '../../src/platform/audit/audit-checkpoints.service';
import { checkpointSignature } from '../../src/platform/audit/audit-hash';
import { AuditService } from '../../src/platform/audit/audit.service';
import { FakeClock } from '../../src/platform/clock/clock';
import { Scheduler } from '../../src/platform/jobs/scheduler';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { breaksOf, verifyAudit, withoutTriggers } from '../utils/audit-tamper';
import { createTestApp, type TestApp } from '../utils/test-app';

const AUDIT_HMAC_KEY = 'the audit key of this test file: 0123456789';

interface CheckpointBody {
  seq: number;
  date: number;
  legacy_through: number;
  heads: { entity_type: string; entity_id: string; auditid: number; hash: string }[];
  prev_signature: string | null;
  signature: string;
}

describe('audit checkpoints: signed, periodic, read by an Admin, checked by verification', () => {
  let t: TestApp;
  let dataSource: DataSource;
  let admin: CreatedUser;
  let user: CreatedUser;
  const logLines: string[] = [];
  const clock = new FakeClock(Date.UTC(2026, 6, 2, 10));

  const record = (type: string, id: string | number) =>
    t.app.get(AuditService).record({ action: `${type}.touch`, entity: [type, id], actor: null });
  const checkpoint = () => t.app.get(Scheduler).run(AUDIT_CHECKPOINT_TASK);
  const read = (token: string | undefined, query = '') =>
    t.as(token, { method: 'GET', url: `/api/2.0/audit/checkpoints${query}` });
  const newest = async (): Promise<CheckpointBody> => (await read(admin.token, '?limit=1')).json<CheckpointBody[]>()[0];

  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    t = await createTestApp({ platform: { clock }, logStream, env: { LOG_LEVEL: 'info', AUDIT_HMAC_KEY } });
    dataSource = t.dataSource;
    admin = await createUser(t, { privilege: 'Admin' });
    user = await createUser(t);
  });
  afterAll(() => t.close());

  it('GET /audit/checkpoints: 401 anonymous, 403 below Admin, 422 for a bad page, [] before the first', async () => {
    expect((await read(undefined)).statusCode).toBe(401);
    // Authentication and privileges come before the query is looked at.
    expect((await read(undefined, '?limit=0')).statusCode).toBe(401);
    expect((await read(user.token, '?limit=0')).statusCode).toBe(403);
    const forbidden = await read(user.token);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toMatchObject({ error: true, requiredPrivileges: ['Admin'] });
    const bad = await read(admin.token, '?limit=0&offset=-1');
    expect(bad.statusCode).toBe(422);
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['limit', 'offset']);
    const empty = await read(admin.token);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual([]);
  });

  it('writes a signed checkpoint of the heads that moved, to the table and the log; none while nothing moved', async () => {
    await record('thing', 1);
    await record('thing', 1);
    await record('thing', 2);
    expect(await checkpoint()).toBe(true);
    const first = await newest();
    const rows = await dataSource.query<{ auditid: number; entity_type: string; entity_id: string; hash: string }[]>(
      "SELECT auditid, entity_type, entity_id, hash FROM audit_events WHERE entity_type = 'thing' ORDER BY auditid",
    );
    expect(first).toEqual({
      seq: 1,
      date: Math.floor(clock.now() / 1000),
      legacy_through: 0,
      heads: [
        { entity_type: 'thing', entity_id: '1', auditid: Number(rows[1].auditid), hash: rows[1].hash },
        { entity_type: 'thing', entity_id: '2', auditid: Number(rows[2].auditid), hash: rows[2].hash },
      ],
      prev_signature: null,
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const [stored] = await dataSource.query<{ created_at: number | string }[]>(
      'SELECT created_at FROM audit_checkpoints',
    );
    const content = {
      seq: 1,
      createdAt: Number(stored.created_at),
      legacyThrough: 0,
      heads: first.heads.map((h): [string, string, number, string] => [h.entity_type, h.entity_id, h.auditid, h.hash]),
      prevSignature: null,
    };
    expect(checkpointSignature(Buffer.from(AUDIT_HMAC_KEY), content)).toBe(first.signature);
    const logged = logLines.filter((line) => line.includes('"audit_checkpoint"'));
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0])).toMatchObject({
      context: 'AuditCheckpoint',
      audit_checkpoint: { seq: 1, chains: 2, legacy_through: 0, prev_signature: null, signature: first.signature },
    });

    // Nothing moved: no checkpoint. Then only the chain that moved is listed, chained to the first.
    clock.advance(60_000);
    expect(await checkpoint()).toBe(true);
    expect((await read(admin.token)).json()).toHaveLength(1);
    await record('thing', 2);
    await checkpoint();
    const second = await newest();
    expect(second).toMatchObject({ seq: 2, prev_signature: first.signature });
    expect(second.heads.map((h) => [h.entity_type, h.entity_id])).toEqual([['thing', '2']]);
    expect((await read(admin.token, '?offset=1')).json<CheckpointBody[]>().map((c) => c.seq)).toEqual([1]);
    expect(await verifyAudit(t)).toMatchObject({ ok: true, checkpoints: 2, lastCheckpoint: { seq: 2 } });
  });

  it('the audit key appears in no response and no log line', async () => {
    const key = t.config.audit.key;
    const forms = [AUDIT_HMAC_KEY, key.toString('hex'), key.toString('base64'), key.toString('base64url')];
    const bodies = [
      (await read(admin.token, '?limit=20')).body,
      (await t.as(admin.token, { url: '/api/2.0/audit' })).body,
    ];
    for (const text of [...bodies, ...logLines]) for (const form of forms) expect(text).not.toContain(form);
  });

  it('a backlog of more heads than one checkpoint holds is split over several, each head once', async () => {
    const count = HEADS_PER_CHECKPOINT + 250;
    await t.app.get(AuditService).recordMany(
      Array.from({ length: count }, (_, i) => ({
        action: 'bulk.create',
        entity: ['bulk', i] as [string, number],
        actor: null,
      })),
    );
    const before = (await newest()).seq;
    await checkpoint();
    const written = (await read(admin.token)).json<CheckpointBody[]>().filter((c) => c.seq > before);
    expect(written.map((c) => c.heads.length).sort((a, b) => a - b)).toEqual([250, HEADS_PER_CHECKPOINT]);
    const ids = written.flatMap((c) => c.heads.map((h) => Number(h.entity_id)));
    expect(new Set(ids).size).toBe(count);
    expect(await verifyAudit(t)).toMatchObject({ ok: true });
  });

  it('a checkpoint removed, one forged, and a head moved back before a checkpoint are named', async () => {
    await record('cut', 1);
    await record('cut', 1);
    await checkpoint();
    const [older, newer] = await dataSource.query<{ auditid: number; hash: string }[]>(
      "SELECT auditid, hash FROM audit_events WHERE entity_type = 'cut' ORDER BY auditid",
    );
    // The newest row removed and the head moved back, then checkpointed from the moved head.
    await withoutTriggers(dataSource, ['audit_events'], async () => {
      await dataSource.query('DELETE FROM audit_events WHERE auditid = ?', [newer.auditid]);
    });
    await dataSource.query(
      "UPDATE audit_chain_heads SET last_auditid = ?, last_hash = ?, checkpoint_due = 1 WHERE entity_type = 'cut'",
      [older.auditid, older.hash],
    );
    await checkpoint();
    // Checkpoints: 1 and 2 (thing), 3 and 4 (bulk), 5 (cut at its newest row), 6 (cut moved back).
    expect((await newest()).seq).toBe(6);
    await withoutTriggers(dataSource, ['audit_checkpoints'], async () => {
      await dataSource.query('DELETE FROM audit_checkpoints WHERE seq = 2');
      await dataSource.query('UPDATE audit_checkpoints SET legacy_through = 7 WHERE seq = 4');
    });
    const result = await verifyAudit(t);
    expect(breaksOf(result)).toEqual([
      ['checkpoint_missing', 'audit_checkpoint', '3'],
      ['checkpoint_forged', 'audit_checkpoint', '4'],
      ['checkpoint_moved_back', 'cut', '1'],
      ['chain_truncated', 'cut', '1'],
    ]);
    expect(result.breaks[3]).toMatchObject({ auditid: Number(newer.auditid) });
  });

  it('the task is scheduled every AUDIT_CHECKPOINT_SECONDS when SCHEDULER_ENABLED', async () => {
    const scheduled = await createTestApp({ env: { SCHEDULER_ENABLED: 'true', AUDIT_CHECKPOINT_SECONDS: '45' } });
    try {
      const registry = scheduled.app.get(SchedulerRegistry);
      expect(registry.doesExist('interval', AUDIT_CHECKPOINT_TASK)).toBe(true);
      expect(scheduled.config.audit.checkpointEveryMs).toBe(45_000);
    } finally {
      await scheduled.close();
    }
    expect(t.app.get(SchedulerRegistry).doesExist('interval', AUDIT_CHECKPOINT_TASK)).toBe(false);
  });
});

describe('audit checkpoints: two instances on one database', () => {
  let dir: string;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rgcs-audit-two-'));
    // 92 operations at once on pools of 20 connections wait their turn (on MySQL, behind the checkpoints' row
    // locks): the waits are given room, so that a slow machine does not fail what this test checks.
    const env = {
      DB_PATH: join(dir, 'shared.sqlite'),
      DB_BUSY_TIMEOUT_MS: '20000',
      DB_CONNECT_TIMEOUT_MS: '20000',
      AUDIT_HMAC_KEY,
    };
    a = await createTestApp({ env });
    b = await createTestApp({ env, keepData: true });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('checkpointing on both at once while chains grow: one gapless sequence, every head checkpointed', async () => {
    const writes = (app: TestApp, prefix: string) =>
      Array.from({ length: 40 }, (_, i) =>
        app.app
          .get(AuditService)
          .record({ action: 'burst.write', entity: ['burst', `${prefix}${i % 8}`], actor: null }),
      );
    const checkpoints = (app: TestApp) => Array.from({ length: 6 }, () => app.app.get(AuditCheckpoints).run());
    await Promise.all([...writes(a, 'a'), ...writes(b, 'b'), ...checkpoints(a), ...checkpoints(b)]);
    await Promise.all([a.app.get(AuditCheckpoints).run(), b.app.get(AuditCheckpoints).run()]);
    const rows = await a.dataSource.query<{ seq: number; prev_signature: string | null; signature: string }[]>(
      'SELECT seq, prev_signature, signature FROM audit_checkpoints ORDER BY seq',
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => Number(r.seq))).toEqual(rows.map((_, i) => i + 1));
    rows.forEach((row, i) => expect(row.prev_signature).toBe(i ? rows[i - 1].signature : null));
    const [{ due }] = await a.dataSource.query<{ due: number | string }[]>(
      'SELECT COUNT(*) AS due FROM audit_chain_heads WHERE checkpoint_due = 1',
    );
    expect(Number(due)).toBe(0);
    const result = await verifyAudit(b);
    expect(result).toMatchObject({ ok: true, rows: 80, chains: 16, checkpoints: rows.length });
  });
});
