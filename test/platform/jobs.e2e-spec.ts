import { DataSource } from 'typeorm';
import { TransactionService } from '../../src/database/transaction.service';
import { FakeClock } from '../../src/platform/clock/clock';
import { JobEntity } from '../../src/platform/jobs/entities/job.entity';
import { JobRunner } from '../../src/platform/jobs/job-runner';
import { Scheduler } from '../../src/platform/jobs/scheduler';
import { JobsRepository } from '../../src/platform/jobs/jobs.repository';
import { createTestApp, type TestApp } from '../utils/test-app';
import { usingMysql } from '../utils/test-config';

/** Waits (at most 5 s) until the condition holds: a task's start is asynchronous (its lock is a query). */
async function until(condition: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 5000; !condition();) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('jobs and scheduled tasks', () => {
  let t: TestApp;
  let jobs: JobRunner;
  let transactions: TransactionService;
  let dataSource: DataSource;
  const clock = new FakeClock(Date.UTC(2026, 5, 1));
  const done: string[] = [];
  let failures = 0;

  const job = async (name: string) =>
    (await dataSource.manager.find(JobEntity, { where: { name }, order: { jobid: 'DESC' } }))[0];

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
    jobs = t.app.get(JobRunner);
    transactions = t.app.get(TransactionService);
    dataSource = t.app.get(DataSource);
    jobs.register<{ label: string }>(
      'test.record',
      async ({ label }) => {
        if (failures > 0) {
          failures -= 1;
          throw new Error(`failed ${label}`);
        }
        done.push(label);
      },
      { maxAttempts: 3 },
    );
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await jobs.drain();
    done.length = 0;
  });

  it('a job enqueued in a transaction exists only if it commits, and runs after', async () => {
    await transactions
      .run(async () => {
        await jobs.enqueue('test.record', { label: 'rolled back' });
        throw new Error('rollback');
      })
      .catch(() => undefined);
    await transactions.run(() => jobs.enqueue('test.record', { label: 'committed' }));
    await jobs.drain();
    expect(done).toEqual(['committed']);
    expect(await job('test.record')).toMatchObject({
      status: 'done',
      attempts: 1,
      finishedAt: clock.now(),
      lockedBy: null,
    });
  });

  it('one claim takes as many due jobs as the free concurrency of their name allows; the rest wait', async () => {
    const started: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    jobs.register<{ label: string }>(
      'test.pair',
      async ({ label }) => {
        started.push(label);
        await gate;
        done.push(label);
      },
      { concurrency: 2 },
    );
    const repository = t.app.get(JobsRepository);
    const claims = jest.spyOn(repository, 'claimMany');
    try {
      await jobs.enqueueMany('test.pair', [{ label: 'a' }, { label: 'b' }, { label: 'c' }]);
      await until(() => started.length === 2);
      expect(started).toEqual(['a', 'b']);
      const rows = await dataSource.manager.find(JobEntity, { where: { name: 'test.pair' }, order: { jobid: 'ASC' } });
      expect(rows.map((r) => [r.status, r.attempts, r.lockedBy])).toEqual([
        ['running', 1, jobs.instanceId],
        ['running', 1, jobs.instanceId],
        ['queued', 0, null],
      ]);
      // SQLite and MariaDB 10.6+ (SKIP LOCKED) take both in one UPDATE; older servers one at a time.
      if (usingMysql() && !(await repository.supportsSkipLocked())) expect(claims).toHaveBeenCalledTimes(2);
      else expect(claims.mock.calls.map(([ids]) => ids.length)).toEqual([2]);
      release();
      await jobs.drain();
      expect(done).toEqual(['a', 'b', 'c']);
      expect((await dataSource.manager.findBy(JobEntity, { name: 'test.pair', status: 'done' })).length).toBe(3);
    } finally {
      release();
      claims.mockRestore();
    }
  });

  it('starts the next due job as soon as one ends, without waiting for a poll (tests run no poll)', async () => {
    const ran: string[] = [];
    jobs.register<{ label: string }>('test.backlog', async ({ label }) => void ran.push(label), { concurrency: 1 });
    const labels = ['a', 'b', 'c', 'd', 'e'];
    await jobs.enqueueMany(
      'test.backlog',
      labels.map((label) => ({ label })),
    );
    await until(() => ran.length === labels.length);
    expect(ran).toEqual(labels);
    await jobs.drain(); // the last outcome is stored
    expect((await dataSource.manager.findBy(JobEntity, { name: 'test.backlog', status: 'done' })).length).toBe(5);
  });

  it('claims side by side (ended jobs, pokes, a drain) never run more than a name’s concurrency at once', async () => {
    let running = 0;
    let most = 0;
    const ran: number[] = [];
    jobs.register<{ n: number }>(
      'test.crowd',
      async ({ n }) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 2));
        ran.push(n);
        running -= 1;
      },
      { concurrency: 2 },
    );
    await jobs.enqueueMany(
      'test.crowd',
      Array.from({ length: 30 }, (_, n) => ({ n })),
    );
    for (let i = 0; i < 10; i += 1) jobs.poke();
    await Promise.all([jobs.drain(), jobs.runNext(), jobs.runNext()]);
    await jobs.drain();
    expect(ran.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, n) => n));
    expect(most).toBe(2);
  });

  it('runs a job no earlier than runAt', async () => {
    await jobs.enqueue('test.record', { label: 'later' }, { runAt: clock.now() + 60_000 });
    expect(await jobs.runNext()).toBe(false);
    clock.advance(60_000);
    expect(await jobs.runNext()).toBe(true);
    expect(done).toEqual(['later']);
  });

  it('retries with backoff and fails for good after maxAttempts', async () => {
    failures = 3;
    await jobs.enqueue('test.record', { label: 'flaky' });
    await jobs.drain();
    expect(await job('test.record')).toMatchObject({
      status: 'queued',
      attempts: 1,
      lastError: 'failed flaky',
      runAt: clock.now() + 2000,
    });
    clock.advance(2000);
    await jobs.drain();
    clock.advance(4000);
    await jobs.drain();
    expect(await job('test.record')).toMatchObject({ status: 'failed', attempts: 3 });
    expect(done).toEqual([]);
  });

  // On MariaDB, marking a job done can meet another instance's claim in a deadlock. The work ran (a mail
  // was sent): before, the deadlock was taken for the handler's failure and the job queued again.
  it('stores the outcome again after a deadlock instead of queueing work that ran', async () => {
    const repository = t.app.get(JobsRepository);
    const finish = repository.finish.bind(repository);
    let calls = 0;
    const spy = jest.spyOn(repository, 'finish').mockImplementation((...args) => {
      calls += 1;
      if (calls === 1) {
        const error = new Error('Deadlock found when trying to get lock') as Error & { driverError: object };
        error.driverError = { code: 'ER_LOCK_DEADLOCK' };
        return Promise.reject(error);
      }
      return finish(...args);
    });
    try {
      await jobs.enqueue('test.record', { label: 'once' });
      await jobs.drain();
    } finally {
      spy.mockRestore();
    }
    expect(calls).toBe(2);
    expect(await job('test.record')).toMatchObject({ status: 'done', attempts: 1, lastError: null });
    clock.advance(3_600_000);
    await jobs.poll();
    await jobs.drain();
    expect(done).toEqual(['once']);
  });

  it('keeps one queued job per unique key', async () => {
    await jobs.enqueue('test.record', { label: 'first' }, { uniqueKey: 'k1', runAt: clock.now() + 1000 });
    await jobs.enqueue('test.record', { label: 'second' }, { uniqueKey: 'k1', runAt: clock.now() + 1000 });
    clock.advance(1000);
    await jobs.drain();
    expect(done).toEqual(['first']);
    await jobs.enqueue('test.record', { label: 'after done' }, { uniqueKey: 'k1' });
    await jobs.drain();
    expect(done).toEqual(['first', 'after done']);
  });

  it('takes over a job whose instance died (its lease ran out)', async () => {
    await jobs.enqueue('test.record', { label: 'orphan' }, { runAt: clock.now() + 10 });
    const orphan = await job('test.record');
    const repository = t.app.get(JobsRepository);
    expect(await repository.claim(orphan.jobid, 'dead-instance', clock.now() + 1000)).toBe(true);
    clock.advance(1000);
    await jobs.drain();
    expect(done).toEqual([]);
    clock.advance(1);
    await jobs.poll();
    await jobs.drain();
    expect(done).toEqual(['orphan']);
  });

  it('a scheduled task runs on one instance at a time under its lock', async () => {
    const scheduler = t.app.get(Scheduler);
    let runs = 0;
    let release!: () => void;
    scheduler.add({
      name: 'test.slow',
      every: 3_600_000,
      run: () =>
        new Promise<void>((resolve) => {
          runs += 1;
          release = resolve;
        }),
    });
    const first = scheduler.run('test.slow');
    await until(() => runs === 1);
    // A second instance's attempt (same lock row, another owner) is refused while the first holds it.
    expect(
      await t.app.get(JobsRepository).takeLock('test.slow', 'other-instance', clock.now(), clock.now() + 1000),
    ).toBe(false);
    expect(await scheduler.run('test.slow')).toBe(false);
    release();
    expect(await first).toBe(true);
    expect(runs).toBe(1);
    expect(
      await t.app.get(JobsRepository).takeLock('test.slow', 'other-instance', clock.now(), clock.now() + 1000),
    ).toBe(true);
    expect(await scheduler.run('test.slow')).toBe(false);
    clock.advance(1001);
    const again = scheduler.run('test.slow');
    await until(() => runs === 2);
    release();
    expect(await again).toBe(true);
  });
});
