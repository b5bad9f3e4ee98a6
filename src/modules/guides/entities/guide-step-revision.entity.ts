import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';
import { GuideStepEntity } from './guide-step.entity';

/** Every change of a step: its title, lines and media (JSON `data`). */
@Entity({ name: 'guide_step_revisions' })
@Index('idx_guide_step_revisions_step', ['stepid', 'revisionid'])
export class GuideStepRevisionEntity {
  @PrimaryGeneratedColumn({ name: 'revisionid', type: 'int' })
  revisionid: number;

  @Column({ name: 'stepid', type: 'int' })
  stepid: number;

  @ManyToOne(() => GuideStepEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'stepid', foreignKeyConstraintName: 'fk_guide_step_revisions_step' })
  step?: GuideStepEntity;

  @Column({ name: 'guideid', type: 'int' })
  guideid: number;

  @Column({ name: 'userid', type: 'int' })
  userid: number;

  @Column(unixTimeColumn({ name: 'date' }))
  date: number;

  @Column({ name: 'data', type: 'json' })
  data: unknown;
}
