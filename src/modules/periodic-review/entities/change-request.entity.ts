import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';
import type { DocType } from '../../../platform/documents/document-registry';

export const CHANGE_REQUEST_STATUSES = ['open', 'resolved'] as const;
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];

/** Opened by a `changes_requested` review; resolved by a later release or a later `no_changes` review. */
@Entity({ name: 'periodic_review_change_requests' })
@Index('idx_pr_requests_assignee', ['assigneeUserid', 'status', 'requestid'])
@Index('idx_pr_requests_document', ['doctype', 'docid', 'status'])
export class ChangeRequestEntity {
  @PrimaryGeneratedColumn({ name: 'requestid', type: 'int' })
  requestid: number;

  @Column({ name: 'reviewid', type: 'int' })
  reviewid: number;

  @Column({ name: 'doctype', type: 'varchar', length: 8 })
  doctype: DocType;

  @Column({ name: 'docid', type: 'int' })
  docid: number;

  @Column({ name: 'assignee_userid', type: 'int' })
  assigneeUserid: number;

  @Column({ name: 'requested_by_userid', type: 'int' })
  requestedByUserid: number;

  @Column({ name: 'description', type: 'text' })
  description: string;

  @Column({ name: 'status', type: 'varchar', length: 16 })
  status: ChangeRequestStatus;

  @Column({ name: 'resolved_by_releaseid', type: 'int', nullable: true })
  resolvedByReleaseid: number | null;

  @Column(unixTimeColumn({ name: 'created_date' }))
  createdDate: number;

  @Column(unixTimeColumn({ name: 'resolved_date', nullable: true }))
  resolvedDate: number | null;
}
