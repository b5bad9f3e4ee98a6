import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';
import type { DocType } from '../../../platform/documents/document-registry';
import type { ReviewState } from '../../../platform/documents/review-directory';

/**
 * A document in a schedule. `member_slot` is 1 while the document is in the schedule and NULL once it is
 * removed (soft), so the unique index keeps a document in at most one schedule even under races.
 */
@Entity({ name: 'periodic_review_documents' })
@Index('uq_pr_documents_member', ['doctype', 'docid', 'memberSlot'], { unique: true })
@Index('idx_pr_documents_schedule', ['prsid', 'memberSlot', 'prdid'])
@Index('idx_pr_documents_due', ['memberSlot', 'nextDueDate'])
@Index('idx_pr_documents_member', ['memberSlot', 'prdid'])
export class ReviewDocumentEntity {
  @PrimaryGeneratedColumn({ name: 'prdid', type: 'int' })
  prdid: number;

  @Column({ name: 'prsid', type: 'int' })
  prsid: number;

  @Column({ name: 'doctype', type: 'varchar', length: 8 })
  doctype: DocType;

  @Column({ name: 'docid', type: 'int' })
  docid: number;

  @Column({ name: 'reviewer_userid', type: 'int', nullable: true })
  reviewerUserid: number | null;

  @Column({ name: 'member_slot', type: 'int', nullable: true })
  memberSlot: number | null;

  @Column(unixTimeColumn({ name: 'added_date' }))
  addedDate: number;

  @Column(unixTimeColumn({ name: 'last_reviewed_date', nullable: true }))
  lastReviewedDate: number | null;

  @Column(unixTimeColumn({ name: 'next_due_date' }))
  nextDueDate: number;

  /** The state the scheduler last mailed about (a review resets it to `scheduled`). */
  @Column({ name: 'notified_state', type: 'varchar', length: 16 })
  notifiedState: ReviewState;

  @Column(unixTimeColumn({ name: 'removed_date', nullable: true }))
  removedDate: number | null;
}
