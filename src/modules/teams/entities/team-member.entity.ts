import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';
import { UserEntity } from '../../users/entities/user.entity';
import { TeamEntity } from './team.entity';

@Entity({ name: 'team_members' })
@Index('idx_team_members_userid', ['userid'])
export class TeamMemberEntity {
  @PrimaryColumn({ name: 'teamid', type: 'int' })
  teamid: number;

  @PrimaryColumn({ name: 'userid', type: 'int' })
  userid: number;

  @ManyToOne(() => TeamEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'teamid', foreignKeyConstraintName: 'fk_team_members_team' })
  team?: TeamEntity;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'userid', foreignKeyConstraintName: 'fk_team_members_user' })
  user?: UserEntity;

  @Column(unixTimeColumn({ name: 'joined_date' }))
  joinedDate: number;
}
