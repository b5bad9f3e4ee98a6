import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { backgroundContext, requestContext } from '../../common/context/request-context';
import { isUniqueViolation } from '../../database/errors';
import { TransactionService } from '../../database/transaction.service';
import { Clock } from '../clock/clock';
import type { JobEntity } from './entities/job.entity';
import { JobsRepository } from './jobs.repository';

export interface JobContext {
  readonly jobid: number;
  /** 1 on the first run. */
  readonly attempt: number;
  /** Renews the lease of a long job, so that other instances do not take it over. */
  heartbeat(): Promise<void>;
}

export interface JobOptions {
  /** Jobs of this name run at most this many at once in one instance (default 1). */
  concurrency?: number;
  /** Runs before the job fails for good (default 5); retried after 2 s, 4 s, 8 s … (at most 10 min). */
  maxAttempts?: number;
  /** How long a run may go without a heartbeat before another instance takes it over (default 5 min). */
  leaseMs?: number;
  /** Empty the stored payload once done (payloads that hold secrets, such as a mailed code). */
  scrubPayload?: boolean;
}

export interface EnqueueOptions {
  /** Not before this time (ms; default now). */
  runAt?: number;
  /** At most one queued or running job per key: a second enqueue with the same key is a no-op. */
  uniqueKey?: string;
}

interface Registered {
  handler: (payload: unknown, job: JobContext) => Promise<void>;
  options: Required<JobOptions>;
  running: number;
}

const retryDelay = (attempt: number) => Math.min(1000 * 2 ** attempt, 10 * 60_000);

/**
 * The one job runner: a database-backed queue (table `jobs`) that several instances share. A job is
 * claimed by one instance (`FOR UPDATE SKIP LOCKED` on MySQL 8 / MariaDB 10.6+, a conditional update
 * on SQLite and older servers), run outside any request, retried with backoff, and taken over when the
 * instance running it dies (lease). Jobs are started after the enqueuing transaction commits and by a
 * 1-second poll when the scheduler is enabled; tests call `runNext()` and `drain()`.
 */
@Injectable()
export class JobRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Jobs');
  private readonly handlers = new Map<string, Registered>();
  readonly instanceId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;
  /** The background fill under way (claims in progress are not in `inFlight` yet). */
  private filling: Promise<void> | undefined;
  private pokedWhileFilling = false;

  constructor(
    private readonly jobs: JobsRepository,
    private readonly transactions: TransactionService,
    private readonly clock: Clock,
  ) {}

  register<P>(name: string, handler: (payload: P, job: JobContext) => Promise<void>, options: JobOptions = {}): void {
    if (this.handlers.has(name)) throw new Error(`Job ${name} is already registered`);
    this.handlers.set(name, {
      handler: handler as Registered['handler'],
      options: { concurrency: 1, maxAttempts: 5, leaseMs: 5 * 60_000, scrubPayload: false, ...options },
      running: 0,
    });
  }

  /** Queues a job in the current transaction (if any); it starts once that transaction commits. */
  /** Many jobs of one name to run now (no unique keys), in multi-row INSERTs. */
  async enqueueMany<P>(name: string, payloads: P[]): Promise<void> {
    const registered = this.handlers.get(name);
    if (!registered) throw new Error(`Unknown job ${name}`);
    if (!payloads.length) return;
    const now = this.clock.now();
    await this.jobs.insertMany(
      payloads.map((payload) => ({
        name,
        payload: payload as object,
        status: 'queued',
        runAt: now,
        attempts: 0,
        maxAttempts: registered.options.maxAttempts,
        uniqueKey: null,
        lockedBy: null,
        lockedUntil: null,
        lastError: null,
        createdAt: now,
        finishedAt: null,
      })),
    );
    const tx = this.transactions.current();
    if (tx) tx.afterCommit(() => this.poke());
    else this.poke();
  }

  async enqueue<P>(name: string, payload: P, options: EnqueueOptions = {}): Promise<void> {
    const registered = this.handlers.get(name);
    if (!registered) throw new Error(`Unknown job ${name}`);
    const now = this.clock.now();
    try {
      await this.jobs.insert({
        name,
        payload: payload,
        status: 'queued',
        runAt: options.runAt ?? now,
        attempts: 0,
        maxAttempts: registered.options.maxAttempts,
        uniqueKey: options.uniqueKey ?? null,
        lockedBy: null,
        lockedUntil: null,
        lastError: null,
        createdAt: now,
        finishedAt: null,
      });
    } catch (error) {
      if (options.uniqueKey && isUniqueViolation(error)) return;
      throw error;
    }
    const tx = this.transactions.current();
    if (tx) tx.afterCommit(() => this.poke());
    else this.poke();
  }

  async onApplicationBootstrap(): Promise<void> {
    await requestContext.run(backgroundContext('jobs'), () => this.jobs.recoverExpired(this.clock.now()));
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((r) => setTimeout(r, 5000).unref())]);
  }

  /**
   * Starts due jobs in the background, up to each name's concurrency: after a commit that queued some, and by the
   * poll (an ended job starts the next of its name itself: continueWith). A poke during a fill runs another fill
   * after it, since that fill may already have found no room.
   */
  poke(): void {
    if (this.stopped) return;
    if (this.filling) {
      this.pokedWhileFilling = true;
      return;
    }
    this.filling = new Promise<void>((resolve) => {
      setImmediate(() => {
        void this.fill().finally(() => {
          this.filling = undefined;
          resolve();
          if (this.pokedWhileFilling) {
            this.pokedWhileFilling = false;
            this.poke();
          }
        });
      });
    });
  }

  private async fill(): Promise<void> {
    try {
      for (;;) {
        const claimed = await this.claim();
        if (!claimed.length) return;
        for (const job of claimed) this.track(this.execute(job));
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'could not claim jobs');
    }
  }

  /** Claims due jobs (as many as their concurrency lets one claim take) and runs them to their end; false when none is due. */
  async runNext(): Promise<boolean> {
    const claimed = await this.claim();
    await Promise.all(claimed.map((job) => this.execute(job)));
    return claimed.length > 0;
  }

  /** Runs due jobs until none is left, including those started in the background (tests, scripts). */
  async drain(): Promise<void> {
    for (;;) {
      await this.filling;
      await Promise.allSettled([...this.inFlight]);
      if (this.filling || this.inFlight.size) continue;
      if (!(await this.runNext()) && !this.filling && !this.inFlight.size) return;
    }
  }

  /** Whether the job enqueued with this unique key still waits to be claimed. */
  isQueued(uniqueKey: string): Promise<boolean> {
    return this.jobs.isQueued(uniqueKey);
  }

  /** Recovers jobs of dead instances, then starts due ones (the 1-second poll). */
  async poll(): Promise<void> {
    await this.jobs.recoverExpired(this.clock.now());
    this.poke();
  }

  private track(run: Promise<void>): void {
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }

  /**
   * Claims due jobs in one transaction: with `SKIP LOCKED` (MySQL 8, MariaDB 10.6+) or on SQLite (serial
   * transactions), as many as the free concurrency of their names allows, in one UPDATE; on older servers
   * one, by a conditional update that another instance may win.
   */
  private async claim(only?: string): Promise<JobEntity[]> {
    if (this.stopped) return [];
    // The room is reserved before the first await: claims that run side by side (a fill, a drain, the claim
    // after an ended job) never take more than a name's concurrency between them.
    const reserved = new Map<string, number>();
    for (const [name, r] of this.handlers) {
      const free = r.options.concurrency - r.running;
      if ((only === undefined || name === only) && free > 0) {
        reserved.set(name, free);
        r.running += free;
      }
    }
    if (!reserved.size) return [];
    let claimed: JobEntity[] = [];
    try {
      claimed = await this.claimWithin(reserved);
    } finally {
      for (const [name, n] of reserved) this.handlers.get(name)!.running -= n;
      for (const job of claimed) this.handlers.get(job.name)!.running += 1;
    }
    return claimed;
  }

  private async claimWithin(reserved: ReadonlyMap<string, number>): Promise<JobEntity[]> {
    const names = [...reserved.keys()];
    const skipLocked = await this.jobs.supportsSkipLocked();
    const together = skipLocked || this.jobs.isSqlite;
    return requestContext.run(backgroundContext('jobs'), async () => {
      // A plain read first: the 1-second poll then takes no write lock while nothing is due.
      if (!(await this.jobs.anyDue(names, this.clock.now()))) return [];
      return this.transactions.run(async () => {
        const now = this.clock.now();
        const leaseOf = (job: JobEntity) => now + this.handlers.get(job.name)!.options.leaseMs;
        const room = new Map(reserved);
        const limit = together ? [...room.values()].reduce((a, b) => a + b, 0) : 10;
        const due = await this.jobs.dueJobs(names, now, limit, skipLocked);
        let taken: JobEntity[];
        if (together) {
          taken = due.filter((job) => {
            const left = room.get(job.name) ?? 0;
            room.set(job.name, left - 1);
            return left > 0;
          });
          const byLease = new Map<number, number[]>();
          for (const job of taken) byLease.set(leaseOf(job), [...(byLease.get(leaseOf(job)) ?? []), job.jobid]);
          for (const [lease, jobids] of byLease) {
            const took = await this.jobs.claimMany(jobids, this.instanceId, lease);
            if (took !== jobids.length) throw new Error(`Claimed ${took} of ${jobids.length} locked jobs`);
          }
        } else {
          taken = [];
          for (const job of due) {
            if (await this.jobs.claim(job.jobid, this.instanceId, leaseOf(job))) {
              taken = [job];
              break;
            }
          }
        }
        return taken.map((job) => ({
          ...job,
          status: 'running' as const,
          attempts: job.attempts + 1,
          lockedBy: this.instanceId,
          lockedUntil: leaseOf(job),
        }));
      });
    });
  }

  /** Runs a claimed job (its row as the claim left it) and stores the outcome. */
  private execute(job: JobEntity): Promise<void> {
    const { jobid, name } = job;
    const registered = this.handlers.get(name)!;
    return requestContext.run(backgroundContext(`job:${name}`), async () => {
      try {
        const context: JobContext = {
          jobid,
          attempt: job.attempts,
          heartbeat: () => this.jobs.extendLease(jobid, this.instanceId, this.clock.now() + registered.options.leaseMs),
        };
        let failure: { error: unknown } | undefined;
        try {
          await registered.handler(job.payload, context);
        } catch (error) {
          failure = { error };
        }
        // The outcome is stored apart from the handler's own errors, and through transactions.single, which
        // retries a deadlock or lock wait: a job that did its work (a mail sent) must not be queued again
        // because marking it done met another instance's claim (a second mail on MariaDB, CI of 1538c71).
        if (!failure) {
          await this.transactions.single(() =>
            this.jobs.finish(jobid, this.instanceId, this.clock.now(), registered.options.scrubPayload),
          );
          return;
        }
        const last = job.attempts >= job.maxAttempts;
        this.logger[last ? 'error' : 'warn'](
          { err: failure.error, jobid, job: name, attempt: job.attempts },
          last ? 'job failed for good' : 'job failed; will retry',
        );
        const now = this.clock.now();
        const message = String((failure.error as Error)?.message ?? failure.error);
        await this.transactions.single(() =>
          this.jobs.fail(jobid, this.instanceId, message, last ? null : now + retryDelay(job.attempts), now),
        );
      } catch (error) {
        // The database went away (or the app is stopping) while the outcome was being stored: the lease
        // runs out and the job is taken over and run again, so nothing is lost by dropping it here.
        this.logger.warn({ err: error, jobid, job: name }, 'could not store the outcome of a job');
      } finally {
        registered.running -= 1;
        this.continueWith(name);
      }
    });
  }

  /**
   * After a job of `name` ends, the next due job of that name starts at once instead of at the next poll (a
   * backlog of mail drained at the poll's pace). Only that name is claimed: its backlog comes first in the due
   * order, while a look for names with nothing due would read past all of another name's backlog.
   */
  private continueWith(name: string): void {
    if (this.stopped) return;
    this.track(
      this.claim(name).then(
        (claimed) => {
          for (const job of claimed) this.track(this.execute(job));
        },
        (error: unknown) => this.logger.warn({ err: error, job: name }, 'could not claim jobs'),
      ),
    );
  }
}
