import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';

/** Time spent on one step of an entry; `date_end` is null while it runs. */
@Entity({ name: 'work_log_timings' })
@Index('idx_work_log_timings_entry', ['entryid', 'timingid'])
export class WorkLogTimingEntity {
  @PrimaryGeneratedColumn({ name: 'timingid', type: 'int' })
  timingid: number;

  @Column({ name: 'entryid', type: 'int' })
  entryid: number;

  @Column({ name: 'stepid', type: 'int' })
  stepid: number;

  @Column(unixTimeColumn({ name: 'date_start' }))
  dateStart: number;

  @Column(unixTimeColumn({ name: 'date_end', nullable: true }))
  dateEnd: number | null;
}
