import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';
import { GuideEntity } from './guide.entity';

/** A team allowed to read and edit a guide (`/guides/{guideid}/teams`). */
@Entity({ name: 'guide_team_grants' })
@Index('idx_guide_team_grants_team', ['teamid'])
export class GuideTeamGrantEntity {
  @PrimaryColumn({ name: 'guideid', type: 'int' })
  guideid: number;

  @PrimaryColumn({ name: 'teamid', type: 'int' })
  teamid: number;

  @ManyToOne(() => GuideEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'guideid', foreignKeyConstraintName: 'fk_guide_team_grants_guide' })
  guide?: GuideEntity;

  @Column(unixTimeColumn({ name: 'date' }))
  date: number;
}
