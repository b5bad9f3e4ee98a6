import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

export type Decision = 'approve' | 'reject';

/** Links a signature to the stage it was given in; the key makes "signs once in each stage" hold. */
@Entity({ name: 'approval_stage_signatures' })
@Index('idx_approval_stage_signatures_signature', ['signatureid'], { unique: true })
export class ApprovalStageSignatureEntity {
  @PrimaryColumn({ name: 'approval_requestid', type: 'int' })
  approvalRequestid: number;

  @PrimaryColumn({ name: 'orderby', type: 'int' })
  orderby: number;

  @PrimaryColumn({ name: 'userid', type: 'int' })
  userid: number;

  @Column({ name: 'signatureid', type: 'int' })
  signatureid: number;

  @Column({ name: 'decision', type: 'varchar', length: 8 })
  decision: Decision;
}
