import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { WikiEntity } from './wiki.entity';

/**
 * One language version of a wiki: the newest patrolled revision (what reads show) and the newest
 * revision (what `unpatrolled` shows and what edits must name). The conditional update on
 * `head_revisionid` is the optimistic-concurrency check.
 */
@Entity({ name: 'wiki_languages' })
export class WikiLanguageEntity {
  @PrimaryColumn({ name: 'wikiid', type: 'int' })
  wikiid: number;

  @PrimaryColumn({ name: 'langid', type: 'varchar', length: 16 })
  langid: string;

  @ManyToOne(() => WikiEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'wikiid', foreignKeyConstraintName: 'fk_wiki_languages_wiki' })
  wiki?: WikiEntity;

  /** Newest patrolled revision; null while a translation has none. */
  @Column({ name: 'revisionid', type: 'int', nullable: true })
  revisionid: number | null;

  @Column({ name: 'head_revisionid', type: 'int' })
  headRevisionid: number;

  /** For a translation: the source-language revision it was started from. */
  @Column({ name: 'source_revisionid', type: 'int', nullable: true })
  sourceRevisionid: number | null;
}
