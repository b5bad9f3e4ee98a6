import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';

/** An approval process (docs/enterprise/approvals.md); its name and stages live in immutable revisions. */
@Entity({ name: 'approval_processes' })
@Index('idx_approval_processes_default', ['siteDefault'])
export class ApprovalProcessEntity {
  @PrimaryGeneratedColumn({ name: 'approval_processid', type: 'int' })
  approvalProcessid: number;

  /** The current revision; 0 only while the first one is being written. */
  @Column({ name: 'current_revisionid', type: 'int' })
  currentRevisionid: number;

  /** The current revision's name, kept here for search. */
  @Column({ name: 'name', type: 'varchar', length: 255 })
  name: string;

  @Column({ name: 'site_default', type: 'boolean', default: false })
  siteDefault: boolean;

  @Column(unixTimeColumn({ name: 'created_date' }))
  createdDate: number;

  @Column(unixTimeColumn({ name: 'modified_date' }))
  modifiedDate: number;
}
