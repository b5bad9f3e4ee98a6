import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';
import type { RequestStatus } from '../approval-request.state-machine';

/** An approval request: one per gated release, moving stage by stage (docs/enterprise/approvals.md). */
@Entity({ name: 'approval_requests' })
@Index('idx_approval_requests_status', ['status', 'approvalRequestid'])
@Index('idx_approval_requests_requester', ['requestedBy', 'approvalRequestid'])
@Index('idx_approval_requests_release', ['releaseid'])
@Index('idx_approval_requests_document', ['doctype', 'docid', 'approvalRequestid'])
export class ApprovalRequestEntity {
  @PrimaryGeneratedColumn({ name: 'approval_requestid', type: 'int' })
  approvalRequestid: number;

  @Column({ name: 'status', type: 'varchar', length: 16 })
  status: RequestStatus;

  @Column({ name: 'releaseid', type: 'int' })
  releaseid: number;

  @Column({ name: 'doctype', type: 'varchar', length: 8 })
  doctype: string;

  @Column({ name: 'docid', type: 'int' })
  docid: number;

  @Column({ name: 'langid', type: 'varchar', length: 16 })
  langid: string;

  /** The frozen revision the signatures cover. */
  @Column({ name: 'revisionid', type: 'int' })
  revisionid: number;

  /** The document's title when the request opened (the title of the frozen revision). */
  @Column({ name: 'document_title', type: 'varchar', length: 255 })
  documentTitle: string;

  @Column({ name: 'requested_by', type: 'int' })
  requestedBy: number;

  @Column({ name: 'approval_processid', type: 'int' })
  approvalProcessid: number;

  @Column({ name: 'approval_process_revisionid', type: 'int' })
  approvalProcessRevisionid: number;

  /** The revision's name (revisions never change). */
  @Column({ name: 'process_name', type: 'varchar', length: 255 })
  processName: string;

  /** The orderby of the open stage; null once the request is closed. */
  @Column({ name: 'current_stage', type: 'int', nullable: true })
  currentStage: number | null;

  @Column({ name: 'stage_count', type: 'int' })
  stageCount: number;

  @Column(unixTimeColumn({ name: 'init_date' }))
  initDate: number;

  @Column(unixTimeColumn({ name: 'end_date', nullable: true }))
  endDate: number | null;
}
