import { Column, Entity, PrimaryColumn } from 'typeorm';
import { epochMillisColumn } from '../../../database/columns';

/** Who runs a scheduled task now: each task runs on one instance at a time. */
@Entity({ name: 'scheduler_locks' })
export class SchedulerLockEntity {
  @PrimaryColumn({ name: 'name', type: 'varchar', length: 100 })
  name: string;

  @Column({ name: 'locked_by', type: 'varchar', length: 100, nullable: true })
  lockedBy: string | null;

  @Column(epochMillisColumn({ name: 'locked_until' }))
  lockedUntil: number;

  @Column(epochMillisColumn({ name: 'last_run_at', nullable: true }))
  lastRunAt: number | null;
}
