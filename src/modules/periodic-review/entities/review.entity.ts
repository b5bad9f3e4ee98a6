import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';
import type { DocType } from '../../../platform/documents/document-registry';

export const REVIEW_OUTCOMES = ['no_changes', 'changes_requested'] as const;
export type ReviewOutcome = (typeof REVIEW_OUTCOMES)[number];
export type ReviewSource = 'review' | 'release';

/** A signed periodic review (P11) or a release that confirmed the review (source `release`). Immutable. */
@Entity({ name: 'periodic_reviews' })
@Index('idx_pr_reviews_user', ['userid', 'reviewid'])
@Index('idx_pr_reviews_document', ['doctype', 'docid', 'reviewid'])
export class ReviewEntity {
  @PrimaryGeneratedColumn({ name: 'reviewid', type: 'int' })
  reviewid: number;

  @Column({ name: 'prdid', type: 'int' })
  prdid: number;

  @Column({ name: 'doctype', type: 'varchar', length: 8 })
  doctype: DocType;

  @Column({ name: 'docid', type: 'int' })
  docid: number;

  @Column({ name: 'revisionid', type: 'int', nullable: true })
  revisionid: number | null;

  @Column({ name: 'userid', type: 'int' })
  userid: number;

  @Column({ name: 'outcome', type: 'varchar', length: 24 })
  outcome: ReviewOutcome;

  @Column({ name: 'notes', type: 'text' })
  notes: string;

  @Column({ name: 'source', type: 'varchar', length: 16 })
  source: ReviewSource;

  @Column({ name: 'releaseid', type: 'int', nullable: true })
  releaseid: number | null;

  @Column({ name: 'signatureid', type: 'int', nullable: true })
  signatureid: number | null;

  @Column(unixTimeColumn({ name: 'created_date' }))
  createdDate: number;
}
