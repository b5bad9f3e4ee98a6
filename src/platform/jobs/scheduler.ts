import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { backgroundContext, requestContext } from '../../common/context/request-context';
import { Clock } from '../clock/clock';
import { JobRunner } from './job-runner';
import { JobsRepository } from './jobs.repository';

export interface ScheduledTask {
  name: string;
  /** Every this many milliseconds, or a cron expression (UTC), e.g. `0 * * * *` for hourly. */
  every: number | string;
  run: () => Promise<void>;
  /**
   * Run by one instance at a time under a database lock held for at most this long (default 10 min).
   * `false` for per-instance housekeeping that every instance does on its own.
   */
  lockMs?: number | false;
}

/**
 * Scheduled tasks on `@nestjs/schedule` timers (unless SCHEDULER_ENABLED=false): each run of a locked
 * task first takes its row in `scheduler_locks`, so with several instances one runs it. Tests call
 * `tick()` (every task once, now) or `run(name)`.
 */
@Injectable()
export class Scheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Scheduler');
  private readonly tasks = new Map<string, ScheduledTask>();
  private readonly running = new Map<string, Promise<boolean>>();
  private started = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: SchedulerRegistry,
    private readonly jobs: JobsRepository,
    private readonly runner: JobRunner,
    private readonly clock: Clock,
  ) {}

  add(task: ScheduledTask): void {
    if (this.tasks.has(task.name)) throw new Error(`Scheduled task ${task.name} already exists`);
    this.tasks.set(task.name, task);
    if (this.started) this.startTimer(task);
  }

  onApplicationBootstrap(): void {
    this.add({ name: 'jobs.poll', every: 1000, lockMs: false, run: () => this.runner.poll() });
    this.started = this.config.schedulerEnabled;
    if (this.started) this.tasks.forEach((task) => this.startTimer(task));
  }

  onApplicationShutdown(): void {
    this.started = false;
    for (const name of this.tasks.keys()) {
      if (this.registry.doesExist('interval', name)) this.registry.deleteInterval(name);
      if (this.registry.doesExist('cron', name)) this.registry.deleteCronJob(name);
    }
  }

  /** Runs every task once now (each under its lock); resolves when all have finished. */
  async tick(): Promise<void> {
    for (const name of this.tasks.keys()) await this.run(name);
  }

  /** Runs one task now; false (at once) when another instance or a run still going holds its lock. */
  run(name: string): Promise<boolean> {
    const task = this.tasks.get(name);
    if (!task) throw new Error(`Unknown scheduled task ${name}`);
    const current = this.running.get(name);
    if (current) return Promise.resolve(false);
    const run = requestContext
      .run(backgroundContext(`task:${name}`), () => this.runLocked(task))
      .finally(() => {
        this.running.delete(name);
      });
    this.running.set(name, run);
    return run;
  }

  private async runLocked(task: ScheduledTask): Promise<boolean> {
    const owner = this.runner.instanceId;
    if (task.lockMs !== false) {
      const now = this.clock.now();
      if (!(await this.jobs.takeLock(task.name, owner, now, now + (task.lockMs ?? 10 * 60_000)))) return false;
    }
    try {
      await task.run();
      return true;
    } finally {
      if (task.lockMs !== false) await this.jobs.releaseLock(task.name, owner, this.clock.now());
    }
  }

  private startTimer(task: ScheduledTask): void {
    const fire = () => {
      this.run(task.name).catch((error: unknown) =>
        this.logger.warn({ err: error, task: task.name }, 'scheduled task failed'),
      );
    };
    if (typeof task.every === 'number') {
      const timer = setInterval(fire, task.every);
      timer.unref();
      this.registry.addInterval(task.name, timer);
    } else {
      const job = CronJob.from({ cronTime: task.every, onTick: fire, start: true, timeZone: 'UTC' });
      this.registry.addCronJob(task.name, job);
    }
  }
}
