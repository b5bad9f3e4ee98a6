import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';

export const RECURRENCE_TYPES = ['annual', 'interval'] as const;
export type RecurrenceType = (typeof RECURRENCE_TYPES)[number];

/** A periodic-review schedule (docs/enterprise/periodic-review.md). Deletes are soft (`deleted_date`). */
@Entity({ name: 'periodic_review_schedules' })
@Index('idx_pr_schedules_live', ['deletedDate', 'prsid'])
export class ReviewScheduleEntity {
  @PrimaryGeneratedColumn({ name: 'prsid', type: 'int' })
  prsid: number;

  @Column({ name: 'name', type: 'varchar', length: 255 })
  name: string;

  @Column({ name: 'recurrence_type', type: 'varchar', length: 16 })
  recurrenceType: RecurrenceType;

  /** Annual schedules: 1-12. */
  @Column({ name: 'annual_month', type: 'int', nullable: true })
  annualMonth: number | null;

  /** Annual schedules: 1-31 (a valid date with the month; Feb 29 falls on Feb 28 in other years). */
  @Column({ name: 'annual_day', type: 'int', nullable: true })
  annualDay: number | null;

  /** Interval schedules: 2-3650. */
  @Column({ name: 'interval_days', type: 'int', nullable: true })
  intervalDays: number | null;

  @Column({ name: 'completion_window_days', type: 'int' })
  completionWindowDays: number;

  @Column({ name: 'default_reviewer_userid', type: 'int', nullable: true })
  defaultReviewerUserid: number | null;

  @Column({ name: 'default_teamid', type: 'int', nullable: true })
  defaultTeamid: number | null;

  @Column({ name: 'created_by_userid', type: 'int' })
  createdByUserid: number;

  @Column(unixTimeColumn({ name: 'created_date' }))
  createdDate: number;

  @Column(unixTimeColumn({ name: 'deleted_date', nullable: true }))
  deletedDate: number | null;
}
