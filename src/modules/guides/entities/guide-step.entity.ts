import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { GuideEntity } from './guide.entity';

/** A step's identity: the guide it belongs to and its newest revision (what step edits must name). */
@Entity({ name: 'guide_steps' })
@Index('idx_guide_steps_guide', ['guideid'])
export class GuideStepEntity {
  @PrimaryGeneratedColumn({ name: 'stepid', type: 'int' })
  stepid: number;

  @Column({ name: 'guideid', type: 'int' })
  guideid: number;

  @ManyToOne(() => GuideEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'guideid', foreignKeyConstraintName: 'fk_guide_steps_guide' })
  guide?: GuideEntity;

  /** Newest revision of the step. */
  @Column({ name: 'revisionid', type: 'int' })
  revisionid: number;

  /** Set when the step was removed from its guide (kept: older guide revisions still show it). */
  @Column({ name: 'deleted', type: 'boolean', default: false })
  deleted: boolean;
}
