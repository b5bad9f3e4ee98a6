import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

export type ApprovalSlot = 'all' | 'major';

/** A document's process slot (docs/enterprise/approvals.md, Assignment): `all` or `major`, for a guide or a wiki. */
@Entity({ name: 'approval_assignments' })
@Index('idx_approval_assignments_process', ['approvalProcessid'])
export class ApprovalAssignmentEntity {
  @PrimaryColumn({ name: 'doctype', type: 'varchar', length: 8 })
  doctype: string;

  @PrimaryColumn({ name: 'docid', type: 'int' })
  docid: number;

  @PrimaryColumn({ name: 'slot', type: 'varchar', length: 8 })
  slot: ApprovalSlot;

  @Column({ name: 'approval_processid', type: 'int' })
  approvalProcessid: number;
}
