import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A stage of a process revision: exactly one of a user or a team, and the signatures it needs. */
@Entity({ name: 'approval_process_stages' })
@Index('idx_approval_process_stages_revision', ['approvalProcessRevisionid', 'orderby'], { unique: true })
export class ApprovalProcessStageEntity {
  @PrimaryGeneratedColumn({ name: 'approval_process_stageid', type: 'int' })
  approvalProcessStageid: number;

  @Column({ name: 'approval_process_revisionid', type: 'int' })
  approvalProcessRevisionid: number;

  /** 1..10. */
  @Column({ name: 'orderby', type: 'int' })
  orderby: number;

  @Column({ name: 'userid', type: 'int', nullable: true })
  userid: number | null;

  @Column({ name: 'teamid', type: 'int', nullable: true })
  teamid: number | null;

  @Column({ name: 'required_signatures', type: 'int' })
  requiredSignatures: number;
}
