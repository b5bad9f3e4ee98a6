import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';

/** One recorded value (appended, never overwritten), with the label of the field revision it answered. */
@Entity({ name: 'work_log_data' })
@Index('idx_work_log_data_entry', ['entryid', 'dataid'])
export class WorkLogDataEntity {
  @PrimaryGeneratedColumn({ name: 'dataid', type: 'int' })
  dataid: number;

  @Column({ name: 'entryid', type: 'int' })
  entryid: number;

  @Column({ name: 'field_revisionid', type: 'int' })
  fieldRevisionid: number;

  @Column({ name: 'field_guid', type: 'varchar', length: 16 })
  fieldGuid: string;

  @Column({ name: 'stepid', type: 'int' })
  stepid: number;

  @Column({ name: 'label', type: 'varchar', length: 255 })
  label: string;

  @Column({ name: 'value', type: 'text' })
  value: string;

  @Column({ name: 'userid', type: 'int' })
  userid: number;

  @Column(unixTimeColumn({ name: 'date' }))
  date: number;
}
