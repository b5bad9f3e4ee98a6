import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { epochMillisColumn } from '../../../database/columns';

/** A failed signing attempt (wrong password or code), counted for the lockout across instances. */
@Entity({ name: 'signature_failures' })
@Index('idx_signature_failures_user', ['userid', 'failedAt'])
export class SignatureFailureEntity {
  @PrimaryGeneratedColumn({ name: 'failureid', type: 'int' })
  failureid: number;

  @Column({ name: 'userid', type: 'int' })
  userid: number;

  @Column(epochMillisColumn({ name: 'failed_at' }))
  failedAt: number;
}
