import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';
import { GuideEntity } from './guide.entity';

/** A user's favorite of a guide (at most one per user and guide, whatever the language). */
@Entity({ name: 'guide_favorites' })
@Index('idx_guide_favorites_user', ['userid', 'date'])
export class GuideFavoriteEntity {
  @PrimaryColumn({ name: 'guideid', type: 'int' })
  guideid: number;

  @PrimaryColumn({ name: 'userid', type: 'int' })
  userid: number;

  @ManyToOne(() => GuideEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'guideid', foreignKeyConstraintName: 'fk_guide_favorites_guide' })
  guide?: GuideEntity;

  @Column({ name: 'langid', type: 'varchar', length: 16 })
  langid: string;

  @Column(unixTimeColumn({ name: 'date' }))
  date: number;
}
