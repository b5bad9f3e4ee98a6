import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';
import { GuideEntity } from './guide.entity';

/** A user allowed to read and edit a guide (`/guides/{guideid}/users`). */
@Entity({ name: 'guide_user_grants' })
@Index('idx_guide_user_grants_user', ['userid'])
export class GuideUserGrantEntity {
  @PrimaryColumn({ name: 'guideid', type: 'int' })
  guideid: number;

  @PrimaryColumn({ name: 'userid', type: 'int' })
  userid: number;

  @ManyToOne(() => GuideEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'guideid', foreignKeyConstraintName: 'fk_guide_user_grants_guide' })
  guide?: GuideEntity;

  @Column(unixTimeColumn({ name: 'date' }))
  date: number;
}
