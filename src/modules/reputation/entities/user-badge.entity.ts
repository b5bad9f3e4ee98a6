import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';
import { UserEntity } from '../../users/entities/user.entity';

/** A badge a user earned; badge definitions themselves live in code (badge-rules.ts). */
@Entity({ name: 'user_badges' })
@Index('idx_user_badges_badgeid', ['badgeid'])
export class UserBadgeEntity {
  @PrimaryColumn({ name: 'userid', type: 'int' })
  userid: number;

  @PrimaryColumn({ name: 'badgeid', type: 'int' })
  badgeid: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'userid', foreignKeyConstraintName: 'fk_user_badges_user' })
  user?: UserEntity;

  @Column({ name: 'times_earned', type: 'int', default: 1 })
  timesEarned: number;

  @Column(unixTimeColumn({ name: 'earned_date' }))
  earnedDate: number;
}
