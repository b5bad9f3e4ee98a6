import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';

/** An operator's run of a guide for a work order (docs/enterprise/work-log.md). Deleted entries stay, marked. */
@Entity({ name: 'work_log_entries' })
@Index('idx_work_log_entries_guide', ['guideid', 'entryid'])
@Index('idx_work_log_entries_user', ['userid', 'entryid'])
@Index('idx_work_log_entries_status', ['status', 'guideid'])
export class WorkLogEntryEntity {
  @PrimaryGeneratedColumn({ name: 'entryid', type: 'int' })
  entryid: number;

  @Column({ name: 'guideid', type: 'int' })
  guideid: number;

  /** The owner (changes when another user assumes a suspended entry). */
  @Column({ name: 'userid', type: 'int' })
  userid: number;

  @Column({ name: 'workorderid', type: 'varchar', length: 255 })
  workorderid: string;

  @Column({ name: 'status', type: 'varchar', length: 16 })
  status: string;

  @Column(unixTimeColumn({ name: 'starttime' }))
  starttime: number;

  @Column(unixTimeColumn({ name: 'endtime', nullable: true }))
  endtime: number | null;

  @Column({ name: 'guide_revisionid', type: 'int' })
  guideRevisionid: number;

  @Column({ name: 'max_form_revisionid', type: 'int' })
  maxFormRevisionid: number;

  /** The release in force when the entry started (null when none). */
  @Column({ name: 'releaseid', type: 'int', nullable: true })
  releaseid: number | null;

  @Column({ name: 'release_version', type: 'varchar', length: 20, nullable: true })
  releaseVersion: string | null;

  @Column({ name: 'paused_seconds', type: 'int', default: 0 })
  pausedSeconds: number;

  @Column(unixTimeColumn({ name: 'paused_at', nullable: true }))
  pausedAt: number | null;

  @Column({ name: 'current_stepid', type: 'int', nullable: true })
  currentStepid: number | null;

  /** The newest timing (open or closed). */
  @Column({ name: 'timingid', type: 'int', nullable: true })
  timingid: number | null;

  /** Bumped by every write, so concurrent writers of one entry take turns on its row. */
  @Column({ name: 'write_count', type: 'int', default: 0 })
  writeCount: number;

  @Column({ name: 'deleted', type: 'boolean', default: false })
  deleted: boolean;
}
