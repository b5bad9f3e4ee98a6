import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';

/** A supervisor sign-off of one step of an entry (an extension of the API, docs/enterprise/work-log.md). */
@Entity({ name: 'work_log_signoffs' })
@Index('idx_work_log_signoffs_entry', ['entryid', 'stepid', 'status'])
@Index('idx_work_log_signoffs_status', ['status', 'signoffid'])
export class WorkLogSignoffEntity {
  @PrimaryGeneratedColumn({ name: 'signoffid', type: 'int' })
  signoffid: number;

  @Column({ name: 'entryid', type: 'int' })
  entryid: number;

  @Column({ name: 'stepid', type: 'int' })
  stepid: number;

  @Column({ name: 'teamid', type: 'int' })
  teamid: number;

  @Column({ name: 'status', type: 'varchar', length: 16 })
  status: string;

  @Column({ name: 'requested_by', type: 'int' })
  requestedBy: number;

  @Column(unixTimeColumn({ name: 'requested_date' }))
  requestedDate: number;

  @Column({ name: 'signer_userid', type: 'int', nullable: true })
  signerUserid: number | null;

  @Column({ name: 'signatureid', type: 'int', nullable: true })
  signatureid: number | null;

  @Column(unixTimeColumn({ name: 'date', nullable: true }))
  date: number | null;
}
