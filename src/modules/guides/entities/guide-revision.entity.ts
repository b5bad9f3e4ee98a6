import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';
import { GuideEntity } from './guide.entity';

/**
 * Every content change of a guide (history is data). `data` is the saved state (source language: every
 * field plus the step revision list; translations: the translated text fields only). `document` is the
 * rendered, caller-independent JSON served by reads; it is built once (revisions never change) and
 * rebuilt only when `render_key` (the URL bases it was rendered with) no longer matches. `summary` is
 * the list-item part of `document`, kept apart so lists need not read whole documents.
 */
@Entity({ name: 'guide_revisions' })
@Index('idx_guide_revisions_guide_lang', ['guideid', 'langid', 'revisionid'])
@Index('idx_guide_revisions_user', ['userid', 'guideid'])
export class GuideRevisionEntity {
  @PrimaryGeneratedColumn({ name: 'revisionid', type: 'int' })
  revisionid: number;

  @Column({ name: 'guideid', type: 'int' })
  guideid: number;

  @ManyToOne(() => GuideEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'guideid', foreignKeyConstraintName: 'fk_guide_revisions_guide' })
  guide?: GuideEntity;

  @Column({ name: 'langid', type: 'varchar', length: 16 })
  langid: string;

  /** Who saved it. */
  @Column({ name: 'userid', type: 'int' })
  userid: number;

  @Column(unixTimeColumn({ name: 'date' }))
  date: number;

  @Column({ name: 'patrolled', type: 'boolean', default: false })
  patrolled: boolean;

  @Column({ name: 'data', type: 'json' })
  data: unknown;

  @Column({ name: 'document', type: 'json', nullable: true })
  document: unknown;

  /** The part of `document` guide lists show (source revisions; null for translations): lists read only this. */
  @Column({ name: 'summary', type: 'json', nullable: true })
  summary: unknown;

  /** Where the pieces of `document` lie in its text (guide-fragments.ts); null until computed. */
  @Column({ name: 'layout', type: 'text', nullable: true })
  layout: string | null;

  @Column({ name: 'render_key', type: 'varchar', length: 64, default: '' })
  renderKey: string;
}
