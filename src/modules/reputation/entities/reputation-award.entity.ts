import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';

/**
 * One reputation grant. The unique (userid, kind, subject) key makes every award idempotent: a guide
 * published, unpublished and published again earns its author the points once.
 */
@Entity({ name: 'reputation_awards' })
@Index('uq_reputation_awards', ['userid', 'kind', 'subject'], { unique: true })
export class ReputationAwardEntity {
  @PrimaryGeneratedColumn({ name: 'awardid', type: 'int' })
  awardid: number;

  @Column({ name: 'userid', type: 'int' })
  userid: number;

  @Column({ name: 'kind', type: 'varchar', length: 32 })
  kind: string;

  @Column({ name: 'subject', type: 'varchar', length: 64 })
  subject: string;

  @Column({ name: 'points', type: 'int' })
  points: number;

  @Column(unixTimeColumn({ name: 'created_date' }))
  createdDate: number;
}
