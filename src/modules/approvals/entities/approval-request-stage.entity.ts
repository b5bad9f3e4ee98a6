import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';
import type { StageStatus } from '../approval-request.state-machine';

/** A stage of a request, copied from the process revision when the request opened. */
@Entity({ name: 'approval_request_stages' })
@Index('idx_approval_request_stages_request', ['approvalRequestid', 'orderby'], { unique: true })
@Index('idx_approval_request_stages_user', ['userid', 'approvalRequestid'])
@Index('idx_approval_request_stages_team', ['teamid', 'approvalRequestid'])
export class ApprovalRequestStageEntity {
  @PrimaryGeneratedColumn({ name: 'approval_request_stageid', type: 'int' })
  approvalRequestStageid: number;

  @Column({ name: 'approval_requestid', type: 'int' })
  approvalRequestid: number;

  @Column({ name: 'orderby', type: 'int' })
  orderby: number;

  @Column({ name: 'status', type: 'varchar', length: 16 })
  status: StageStatus;

  @Column({ name: 'userid', type: 'int', nullable: true })
  userid: number | null;

  @Column({ name: 'teamid', type: 'int', nullable: true })
  teamid: number | null;

  @Column({ name: 'required_signatures', type: 'int' })
  requiredSignatures: number;

  @Column(unixTimeColumn({ name: 'init_date', nullable: true }))
  initDate: number | null;

  @Column(unixTimeColumn({ name: 'end_date', nullable: true }))
  endDate: number | null;
}
