import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';
import { UserEntity } from '../../users/entities/user.entity';

/** A login session. Only the SHA-256 of the token is stored. */
@Entity({ name: 'auth_tokens' })
export class AuthTokenEntity {
  @PrimaryGeneratedColumn({ name: 'tokenid', type: 'int' })
  tokenid: number;

  @Index('idx_auth_tokens_userid')
  @Column({ name: 'userid', type: 'int' })
  userid: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'userid', foreignKeyConstraintName: 'fk_auth_tokens_user' })
  user?: UserEntity;

  @Index('uq_auth_tokens_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  @Column({ name: 'app_id', type: 'varchar', length: 255, nullable: true })
  appId: string | null;

  @Column(unixTimeColumn({ name: 'created_date' }))
  createdDate: number;

  @Column(unixTimeColumn({ name: 'last_used_date', nullable: true }))
  lastUsedDate: number | null;

  @Column(unixTimeColumn({ name: 'revoked_date', nullable: true }))
  revokedDate: number | null;
}
