import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { TrainingImportEntity } from '../../src/modules/training-modules/entities/training-import.entity';
import { JobRunner } from '../../src/platform/jobs/job-runner';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { usingMysql } from '../utils/test-config';
import { BASE, scorm12Package } from './training-kit';

/**
 * Issue 42 point 8: an import whose instance was killed (kill -9) and restarted fails at that instance's boot,
 * not 2 minutes later; imports of instances that are alive (in this process, or on another host) are left to
 * their heartbeat. Several instances on one database (a shared SQLite file, or the MariaDB test database).
 */
describe('imports of a stopped instance fail at boot (instances on one database)', () => {
  let dir: string;
  let env: Record<string, string>;
  let a: TestApp;
  let admin: CreatedUser;
  const others: TestApp[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rgcs-restart-'));
    env = {
      TRAINING_DIR: join(dir, 'training'),
      ...(usingMysql() ? {} : { DB_PATH: join(dir, 'shared.sqlite'), DB_BUSY_TIMEOUT_MS: '10000' }),
    };
    a = await createTestApp({ env });
    admin = await createUser(a, { privilege: 'Admin' });
  });
  afterAll(async () => {
    for (const t of others) await t.close();
    await a?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const boot = async () => {
    const t = await createTestApp({ env, keepData: true });
    others.push(t);
    return t;
  };
  const imports = () => a.app.get(DataSource).getRepository(TrainingImportEntity);
  const status = async (importid: number) => (await imports().findOneByOrFail({ importid })).status;
  const now = () => Math.floor(Date.now() / 1000);

  async function newImport(title: string): Promise<number> {
    const draft = await a.as(admin.token, { method: 'POST', url: `${BASE}/drafts`, payload: { title } });
    const created = await a.as(admin.token, {
      method: 'POST',
      url: `${BASE}/imports`,
      payload: { moduleid: draft.json().moduleid },
    });
    return created.json().importid as number;
  }

  /** A working import, alive a moment ago, last worked on by `owner`. */
  async function working(title: string, owner: string): Promise<number> {
    const importid = await newImport(title);
    await imports().update(
      { importid },
      { status: 'extracting', source: 'upload', heartbeatDate: now(), ownerInstance: owner },
    );
    return importid;
  }

  /** The id of a process of this host that has ended. */
  const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid;

  it('an upload that a live instance receives is left alone when another instance starts', async () => {
    const importid = await newImport('Received by A');
    const data = await scorm12Package();
    const stream = new PassThrough();
    const pending = a.as(admin.token, {
      method: 'POST',
      url: `${BASE}/imports/${importid}/start/byUpload`,
      headers: { 'content-type': 'application/zip', 'transfer-encoding': 'chunked' },
      payload: stream,
    });
    stream.write(data.subarray(0, 64));
    for (let i = 0; i < 2000 && (await status(importid)) !== 'receiving'; i += 1) await sleep(10);
    expect(await imports().findOneByOrFail({ importid })).toMatchObject({
      status: 'receiving',
      ownerInstance: a.app.get(JobRunner).instanceId,
    });
    await boot();
    expect(await status(importid)).toBe('receiving');
    stream.end(data.subarray(64));
    expect((await pending).statusCode).toBe(202);
    await a.app.get(JobRunner).drain();
    expect(await status(importid)).toBe('complete');
  });

  it('at boot: the imports of a dead process of this host fail at once; live and remote ones are left alone', async () => {
    const killed = await working('Killed process', `${hostname()}:${deadPid()}:aaaaaa`);
    const restarted = await working('Same process id, restarted container', `${hostname()}:${process.pid}:bbbbbb`);
    const remote = await working('Another host', 'another-host.example:4242:cccccc');
    const live = await working('Instance A, alive', a.app.get(JobRunner).instanceId);
    const c = await boot();
    for (const importid of [killed, restarted]) {
      const body = (await c.as(admin.token, { method: 'GET', url: `${BASE}/imports/${importid}/progress` })).json();
      expect(body).toMatchObject({ status: 'failed', error: { code: 'INTERRUPTED' } });
    }
    expect(await status(remote)).toBe('extracting');
    expect(await status(live)).toBe('extracting');
  });

  it('two instances starting at once fail an orphan once: one audit row, one import_failed event', async () => {
    const orphans = [
      await working('Orphan 1', `${hostname()}:${deadPid()}:dddddd`),
      await working('Orphan 2', `${hostname()}:${deadPid()}:eeeeee`),
    ];
    await Promise.all([boot(), boot(), boot()]);
    const source = a.app.get(DataSource);
    for (const importid of orphans) {
      expect(await status(importid)).toBe('failed');
      const audit = await source.query(
        `SELECT action FROM audit_events WHERE entity_type = 'training_import' AND entity_id = '${importid}'`,
      );
      expect(audit.filter((r: { action: string }) => r.action === 'training_import.fail')).toHaveLength(1);
      const events = await source.query(
        `SELECT name FROM domain_events WHERE entity_type = 'training_import' AND entity_id = '${importid}'`,
      );
      expect(events).toEqual([{ name: 'training_module.import_failed' }]);
    }
  });
});
