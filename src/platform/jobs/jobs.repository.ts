import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, LessThan, type EntityManager } from 'typeorm';
import { insertRows } from '../../database/insert';
import { affectedBy } from '../../database/update';
import { placeholders, SqlReader } from '../../database/sql-reader';
import { JobEntity } from './entities/job.entity';
import { SchedulerLockEntity } from './entities/scheduler-lock.entity';
import { Database } from '../../database/database';

/** All SQL of the job queue and of the scheduler's locks. */
@Injectable()
export class JobsRepository {
  private skipLocked: Promise<boolean> | undefined;
  private readonly sql: SqlReader;
  private jobColumns?: string;

  private readonly database: Database;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.database = new Database(dataSource);
    this.sql = new SqlReader(dataSource);
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  get isSqlite(): boolean {
    return this.dataSource.options.type === 'better-sqlite3';
  }

  /** MySQL 8 and MariaDB 10.6 know `FOR UPDATE SKIP LOCKED`; older servers claim optimistically. */
  supportsSkipLocked(): Promise<boolean> {
    this.skipLocked ??= this.isSqlite
      ? Promise.resolve(false)
      : this.manager.query('SELECT VERSION() AS v').then((rows: { v: string }[]) => {
          const version = String(rows[0]?.v ?? '');
          const [major, minor] = version.split('.').map(Number);
          return /mariadb/i.test(version) ? major > 10 || (major === 10 && minor >= 6) : major >= 8;
        });
    return this.skipLocked;
  }

  async insert(job: Omit<JobEntity, 'jobid'>): Promise<void> {
    await insertRows(this.manager, JobEntity, [job]);
  }

  /** Many jobs in multi-row INSERTs. */
  async insertMany(jobs: Omit<JobEntity, 'jobid'>[]): Promise<void> {
    await insertRows(this.manager, JobEntity, jobs);
  }

  /** Whether a queued job of these names is due: a plain read, no lock (the idle poll). */
  async anyDue(names: string[], now: number): Promise<boolean> {
    if (!names.length) return false;
    const rows = await this.manager.query<unknown[]>(
      `SELECT jobid FROM jobs WHERE status = 'queued' AND run_at <= ? AND name IN (${placeholders(names)})
       ORDER BY run_at, jobid LIMIT 1`,
      [now, ...names],
    );
    return rows.length > 0;
  }

  /** Due queued jobs of these names, whole rows, oldest first; with `lock`, locked and skipping those others hold. */
  async dueJobs(names: string[], now: number, limit: number, lock: boolean): Promise<JobEntity[]> {
    if (!names.length) return [];
    this.jobColumns ??= this.sql.columns(JobEntity, 'j');
    const rows = await this.sql.rows(
      `SELECT ${this.jobColumns} FROM jobs j WHERE j.status = 'queued' AND j.run_at <= ? AND j.name IN (${placeholders(names)})
       ORDER BY j.run_at, j.jobid LIMIT ${Number(limit)}${lock ? ' FOR UPDATE SKIP LOCKED' : ''}`,
      [now, ...names],
    );
    const hydrate = this.sql.hydrator(JobEntity, 'j_');
    return rows.map(hydrate);
  }

  /** Takes a queued job for `owner`; false when another instance took it first. */
  async claim(jobid: number, owner: string, leaseUntil: number): Promise<boolean> {
    return (await this.claimMany([jobid], owner, leaseUntil)) === 1;
  }

  /**
   * Takes queued jobs for `owner` in one statement; answers how many it took. Only where the caller holds the
   * rows (locked, or SQLite's serial transactions) does that number say which.
   */
  async claimMany(jobids: number[], owner: string, leaseUntil: number): Promise<number> {
    if (!jobids.length) return 0;
    return affectedBy(
      this.manager,
      `UPDATE jobs SET status = 'running', locked_by = ?, locked_until = ?, attempts = attempts + 1
       WHERE jobid IN (${placeholders(jobids)}) AND status = 'queued'`,
      [owner, leaseUntil, ...jobids],
    );
  }

  async extendLease(jobid: number, owner: string, leaseUntil: number): Promise<void> {
    await this.manager.update(JobEntity, { jobid, lockedBy: owner, status: 'running' }, { lockedUntil: leaseUntil });
  }

  async finish(jobid: number, owner: string, at: number, scrubPayload: boolean): Promise<void> {
    await this.manager.update(
      JobEntity,
      { jobid, lockedBy: owner, status: 'running' },
      {
        status: 'done',
        finishedAt: at,
        uniqueKey: null,
        lockedBy: null,
        lockedUntil: null,
        ...(scrubPayload ? { payload: {} } : {}),
      },
    );
  }

  async fail(jobid: number, owner: string, error: string, retryAt: number | null, at: number): Promise<void> {
    await this.manager.update(
      JobEntity,
      { jobid, lockedBy: owner, status: 'running' },
      retryAt === null
        ? {
            status: 'failed',
            lastError: error.slice(0, 1000),
            finishedAt: at,
            uniqueKey: null,
            lockedBy: null,
            lockedUntil: null,
          }
        : { status: 'queued', lastError: error.slice(0, 1000), runAt: retryAt, lockedBy: null, lockedUntil: null },
    );
  }

  /** Running jobs whose instance stopped renewing their lease go back to the queue (or fail when out of attempts). */
  async recoverExpired(now: number): Promise<number> {
    const expired = await this.manager.find(JobEntity, {
      select: { jobid: true, attempts: true, maxAttempts: true },
      where: { status: 'running', lockedUntil: LessThan(now) },
      take: 100,
    });
    for (const job of expired) {
      const failed = job.attempts >= job.maxAttempts;
      await this.manager.update(
        JobEntity,
        { jobid: job.jobid, status: 'running', lockedUntil: LessThan(now) },
        failed
          ? {
              status: 'failed',
              lastError: 'lease expired (the instance running it stopped)',
              finishedAt: now,
              uniqueKey: null,
            }
          : { status: 'queued', runAt: now, lockedBy: null, lockedUntil: null },
      );
    }
    return expired.length;
  }

  /** Whether a job with this unique key waits in the queue (not yet claimed). */
  async isQueued(uniqueKey: string): Promise<boolean> {
    return (await this.manager.getRepository(JobEntity).countBy({ uniqueKey, status: 'queued' })) > 0;
  }

  /** Queued jobs by name (metrics, health). */
  async queueDepth(): Promise<Map<string, number>> {
    const rows = await this.manager
      .createQueryBuilder(JobEntity, 'j')
      .select('j.name', 'name')
      .addSelect('COUNT(*)', 'count')
      .where("j.status IN ('queued', 'running')")
      .groupBy('j.name')
      .getRawMany<{ name: string; count: number | string }>();
    return new Map(rows.map((row) => [row.name, Number(row.count)]));
  }

  async countByStatus(names: string[]): Promise<Record<string, number>> {
    const rows = await this.manager
      .createQueryBuilder(JobEntity, 'j')
      .select('j.status', 'status')
      .addSelect('COUNT(*)', 'count')
      .where({ name: In(names) })
      .groupBy('j.status')
      .getRawMany<{ status: string; count: number | string }>();
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
  }

  // ---- scheduler locks ----

  /** Takes the named lock until `until` unless another owner holds it now. */
  async takeLock(name: string, owner: string, now: number, until: number): Promise<boolean> {
    const updated = await this.manager
      .createQueryBuilder()
      .update(SchedulerLockEntity)
      .set({ lockedBy: owner, lockedUntil: until })
      .where('name = :name AND (locked_until < :now OR locked_by = :owner)', { name, now, owner })
      .execute();
    if (updated.affected === 1) return true;
    try {
      await this.manager.insert(SchedulerLockEntity, { name, lockedBy: owner, lockedUntil: until, lastRunAt: null });
      return true;
    } catch {
      return false;
    }
  }

  async releaseLock(name: string, owner: string, ranAt: number): Promise<void> {
    await this.manager.update(SchedulerLockEntity, { name, lockedBy: owner }, { lockedUntil: 0, lastRunAt: ranAt });
  }
}
