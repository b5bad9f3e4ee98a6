import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { GuideEntity } from './guide.entity';

/** A language version other than the source: its newest patrolled revision and its newest revision. */
@Entity({ name: 'guide_translations' })
export class GuideTranslationEntity {
  @PrimaryColumn({ name: 'guideid', type: 'int' })
  guideid: number;

  @PrimaryColumn({ name: 'langid', type: 'varchar', length: 16 })
  langid: string;

  @ManyToOne(() => GuideEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'guideid', foreignKeyConstraintName: 'fk_guide_translations_guide' })
  guide?: GuideEntity;

  /** Newest patrolled revision; null while the translation has none. */
  @Column({ name: 'revisionid', type: 'int', nullable: true })
  revisionid: number | null;

  @Column({ name: 'head_revisionid', type: 'int' })
  headRevisionid: number;
}
