import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';

@Entity({ name: 'teams' })
export class TeamEntity {
  @PrimaryGeneratedColumn({ name: 'teamid', type: 'int' })
  teamid: number;

  @Index('uq_teams_name', { unique: true })
  @Column({ name: 'name', type: 'varchar', length: 255 })
  name: string;

  @Column({ name: 'description', type: 'text' })
  description: string;

  /** The first member added becomes the owner; when the owner leaves, the earliest remaining member does. */
  @Column({ name: 'owner_userid', type: 'int', nullable: true })
  ownerUserid: number | null;

  @Column({ name: 'created_by_userid', type: 'int', nullable: true })
  createdByUserid: number | null;

  @Column(unixTimeColumn({ name: 'created_date' }))
  createdDate: number;
}
