import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';

/**
 * A wiki's identity (namespace + title) and its language-independent state. Contents live in
 * revisions (`wiki_revisions`); which revision each language shows is in `wiki_languages`.
 */
@Entity({ name: 'wikis' })
@Index('uq_wikis_namespace_title', ['namespace', 'titleHash'], { unique: true })
@Index('idx_wikis_namespace_title', ['namespace', 'title'])
@Index('idx_wikis_namespace_modified', ['namespace', 'modifiedDate'])
@Index('idx_wikis_parent', ['parentWikiid'])
export class WikiEntity {
  @PrimaryGeneratedColumn({ name: 'wikiid', type: 'int' })
  wikiid: number;

  @Column({ name: 'namespace', type: 'varchar', length: 16 })
  namespace: string;

  /** Exact title (spaces, never underscores). */
  @Column({ name: 'title', type: 'varchar', length: 255 })
  title: string;

  /**
   * SHA-256 (hex) of the lower-cased title (titleHash): titles are unique and looked up case-insensitively, the
   * same on both dialects whatever the column collation.
   */
  @Column({ name: 'title_hash', type: 'varchar', length: 64 })
  titleHash: string;

  /** The source (master) language. */
  @Column({ name: 'langid', type: 'varchar', length: 16 })
  langid: string;

  /** CATEGORY tree: the parent category, null at the top level. Not versioned (a move is structural). */
  @Column({ name: 'parent_wikiid', type: 'int', nullable: true })
  parentWikiid: number | null;

  @ManyToOne(() => WikiEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'parent_wikiid', foreignKeyConstraintName: 'fk_wikis_parent' })
  parent?: WikiEntity;

  /** The creator: the "document's author" of the patrol rule. */
  @Column({ name: 'authorid', type: 'int' })
  authorid: number;

  /** Mirrors whether the source language's newest patrolled revision is a deletion. */
  @Column({ name: 'deleted', type: 'boolean', default: false })
  deleted: boolean;

  @Column(unixTimeColumn({ name: 'created_date' }))
  createdDate: number;

  /** Time of the newest patrolled change in any language (lists, modifiedSince). */
  @Column(unixTimeColumn({ name: 'modified_date' }))
  modifiedDate: number;
}
