import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';

/**
 * A guide's identity and the facts lists filter on, mirrored from its newest patrolled source-language
 * revision. Contents live in `guide_revisions`; `head_revisionid` is what edits must name (the
 * conditional update on it is the optimistic-concurrency check), `revisionid` is what reads show.
 */
@Entity({ name: 'guides' })
@Index('idx_guides_public_deleted', ['public', 'deleted', 'guideid'])
@Index('idx_guides_author', ['authorid'])
@Index('idx_guides_modified', ['modifiedDate'])
export class GuideEntity {
  @PrimaryGeneratedColumn({ name: 'guideid', type: 'int' })
  guideid: number;

  @Column({ name: 'authorid', type: 'int' })
  authorid: number;

  /** The source language. */
  @Column({ name: 'langid', type: 'varchar', length: 16 })
  langid: string;

  @Column({ name: 'category', type: 'varchar', length: 255 })
  category: string;

  @Column({ name: 'title', type: 'varchar', length: 255 })
  title: string;

  @Column({ name: 'type', type: 'varchar', length: 16 })
  type: string;

  @Column({ name: 'public', type: 'boolean', default: false })
  public: boolean;

  @Column({ name: 'deleted', type: 'boolean', default: false })
  deleted: boolean;

  /** Comma-separated flag ids (for the featured list). */
  @Column({ name: 'flags', type: 'varchar', length: 255, default: '' })
  flags: string;

  /** Newest patrolled source-language revision. */
  @Column({ name: 'revisionid', type: 'int' })
  revisionid: number;

  /** Newest source-language revision, patrolled or not. */
  @Column({ name: 'head_revisionid', type: 'int' })
  headRevisionid: number;

  @Column(unixTimeColumn({ name: 'created_date' }))
  createdDate: number;

  /** Time of the newest patrolled change. */
  @Column(unixTimeColumn({ name: 'modified_date' }))
  modifiedDate: number;

  /** First time the guide was made public; 0 while never public. */
  @Column(unixTimeColumn({ name: 'published_date', default: 0 }))
  publishedDate: number;
}
