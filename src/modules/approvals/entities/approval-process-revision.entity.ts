import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';

/** One version of a process's name and stages; requests keep the revision they started with. */
@Entity({ name: 'approval_process_revisions' })
@Index('idx_approval_process_revisions_process', ['approvalProcessid', 'approvalProcessRevisionid'])
export class ApprovalProcessRevisionEntity {
  @PrimaryGeneratedColumn({ name: 'approval_process_revisionid', type: 'int' })
  approvalProcessRevisionid: number;

  @Column({ name: 'approval_processid', type: 'int' })
  approvalProcessid: number;

  @Column({ name: 'name', type: 'varchar', length: 255 })
  name: string;

  @Column(unixTimeColumn({ name: 'created_date' }))
  createdDate: number;
}
