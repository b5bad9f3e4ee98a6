import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';
import { WikiEntity } from './wiki.entity';

/** Namespace-specific structured fields, stored with the revision (source language only). */
export interface WikiRevisionData {
  info?: { name: string; value: string }[];
  suppliers?: { 'part_#': string; type: string; supplier: string; url: string }[];
  documents?: number[];
  repairability_score?: number | null;
  /** Whether clients show a table of contents (Dozuki's `table_of_contents`); absent means false. */
  table_of_contents?: boolean;
}

/**
 * Every content change is a new row (history is data). A deletion is a revision with empty contents
 * and `deleted` set; reverting to an earlier revision restores it. Translations store only the
 * translatable fields (contents, display title, description); the rest is read from the source language.
 */
@Entity({ name: 'wiki_revisions' })
@Index('idx_wiki_revisions_wiki_lang', ['wikiid', 'langid', 'revisionid'])
export class WikiRevisionEntity {
  @PrimaryGeneratedColumn({ name: 'revisionid', type: 'int' })
  revisionid: number;

  @Column({ name: 'wikiid', type: 'int' })
  wikiid: number;

  @ManyToOne(() => WikiEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'wikiid', foreignKeyConstraintName: 'fk_wiki_revisions_wiki' })
  wiki?: WikiEntity;

  @Column({ name: 'langid', type: 'varchar', length: 16 })
  langid: string;

  /** Who saved it. */
  @Column({ name: 'userid', type: 'int' })
  userid: number;

  @Column(unixTimeColumn({ name: 'date' }))
  date: number;

  @Column({ name: 'patrolled', type: 'boolean', default: false })
  patrolled: boolean;

  @Column({ name: 'deleted', type: 'boolean', default: false })
  deleted: boolean;

  @Column({ name: 'display_title', type: 'varchar', length: 255 })
  displayTitle: string;

  @Column({ name: 'summary', type: 'varchar', length: 1000, default: '' })
  summary: string;

  /** Wiki text. TEXT on MySQL too (64 KiB): the service refuses longer contents on both dialects. */
  @Column({ name: 'contents', type: 'text' })
  contents: string;

  @Column({ name: 'imageid', type: 'int', nullable: true })
  imageid: number | null;

  /** Comma-separated flag ids. */
  @Column({ name: 'flags', type: 'varchar', length: 255, default: '' })
  flags: string;

  /** JSON of WikiRevisionData. */
  @Column({ name: 'data', type: 'text' })
  data: string;
}
