import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { epochMillisColumn } from '../../../database/columns';

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

/**
 * Work to run off the request path, at least once, by whichever instance claims it first. Enqueued in
 * the transaction of the change that needs it, so a job exists exactly when its change committed.
 */
@Entity({ name: 'jobs' })
@Index('idx_jobs_due', ['status', 'runAt'])
@Index('uq_jobs_unique_key', ['uniqueKey'], { unique: true })
export class JobEntity {
  @PrimaryGeneratedColumn({ name: 'jobid', type: 'int' })
  jobid: number;

  @Column({ name: 'name', type: 'varchar', length: 100 })
  name: string;

  @Column({ name: 'payload', type: 'json' })
  payload: unknown;

  @Column({ name: 'status', type: 'varchar', length: 16 })
  status: JobStatus;

  /** Not run before this time (ms). */
  @Column(epochMillisColumn({ name: 'run_at' }))
  runAt: number;

  @Column({ name: 'attempts', type: 'int', default: 0 })
  attempts: number;

  @Column({ name: 'max_attempts', type: 'int' })
  maxAttempts: number;

  /** While queued: at most one queued or running job per key (null once finished). */
  @Column({ name: 'unique_key', type: 'varchar', length: 200, nullable: true })
  uniqueKey: string | null;

  @Column({ name: 'locked_by', type: 'varchar', length: 100, nullable: true })
  lockedBy: string | null;

  /** A running job whose lease ran out (its instance died) is claimed again. */
  @Column(epochMillisColumn({ name: 'locked_until', nullable: true }))
  lockedUntil: number | null;

  @Column({ name: 'last_error', type: 'varchar', length: 1000, nullable: true })
  lastError: string | null;

  @Column(epochMillisColumn({ name: 'created_at' }))
  createdAt: number;

  @Column(epochMillisColumn({ name: 'finished_at', nullable: true }))
  finishedAt: number | null;
}
