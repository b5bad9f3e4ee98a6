import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';
import type { DocType } from '../../../platform/documents/document-registry';

export const RELEASE_STATUSES = ['pending', 'released', 'rejected', 'cancelled', 'removed'] as const;
export type ReleaseStatus = (typeof RELEASE_STATUSES)[number];
export const RELEASE_TYPES = ['major', 'minor'] as const;
export type ReleaseType = (typeof RELEASE_TYPES)[number];

/**
 * A release of a guide or wiki (docs/enterprise/releases.md): a frozen revision with a version number. Two unique
 * indexes hold the rules even under races: at most one `pending` release per document and language
 * (`pending_slot` is 1 while pending, else NULL), and a version number is taken once (`released_version`
 * is set when the release goes live and kept when it is removed; NULL otherwise).
 */
@Entity({ name: 'releases' })
@Index('idx_releases_document', ['doctype', 'docid', 'langid', 'status'])
@Index('idx_releases_doctype', ['doctype', 'status', 'releaseid'])
@Index('uq_releases_pending', ['doctype', 'docid', 'langid', 'pendingSlot'], { unique: true })
@Index('uq_releases_version', ['doctype', 'docid', 'langid', 'releasedVersion'], { unique: true })
export class ReleaseEntity {
  @PrimaryGeneratedColumn({ name: 'releaseid', type: 'int' })
  releaseid: number;

  @Column({ name: 'doctype', type: 'varchar', length: 8 })
  doctype: DocType;

  @Column({ name: 'docid', type: 'int' })
  docid: number;

  @Column({ name: 'langid', type: 'varchar', length: 16 })
  langid: string;

  /** The frozen revision. */
  @Column({ name: 'revisionid', type: 'int' })
  revisionid: number;

  /** The creator. */
  @Column({ name: 'userid', type: 'int' })
  userid: number;

  @Column({ name: 'status', type: 'varchar', length: 16 })
  status: ReleaseStatus;

  @Column({ name: 'title', type: 'varchar', length: 255 })
  title: string;

  /** TEXT on MySQL too (64 KiB): the service refuses longer notes on both dialects. */
  @Column({ name: 'notes', type: 'text' })
  notes: string;

  @Column({ name: 'type', type: 'varchar', length: 8 })
  type: ReleaseType;

  @Column({ name: 'version_major', type: 'int' })
  versionMajor: number;

  @Column({ name: 'version_minor', type: 'int' })
  versionMinor: number;

  /** `X.Y` once released (kept when removed); NULL while pending and for rejected or cancelled releases. */
  @Column({ name: 'released_version', type: 'varchar', length: 16, nullable: true })
  releasedVersion: string | null;

  /** 1 while pending, else NULL (see the unique index). */
  @Column({ name: 'pending_slot', type: 'int', nullable: true })
  pendingSlot: number | null;

  @Column(unixTimeColumn({ name: 'init_date' }))
  initDate: number;

  @Column(unixTimeColumn({ name: 'release_date', nullable: true }))
  releaseDate: number | null;

  @Column({ name: 'approval_requestid', type: 'int', nullable: true })
  approvalRequestid: number | null;

  @Column({ name: 'periodic_review_confirmed', type: 'boolean', default: false })
  periodicReviewConfirmed: boolean;
}
