import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { epochMillisColumn } from '../../../database/columns';

/**
 * A one-time sign code mailed to a signer (docs/enterprise/approvals.md): 6 digits, valid 10 minutes, single use,
 * bound to (user, subject, stage), stored only as an HMAC.
 */
@Entity({ name: 'sign_codes' })
@Index('idx_sign_codes_binding', ['userid', 'subjectType', 'subjectId', 'createdAt'])
export class SignCodeEntity {
  @PrimaryGeneratedColumn({ name: 'codeid', type: 'int' })
  codeid: number;

  @Column({ name: 'userid', type: 'int' })
  userid: number;

  @Column({ name: 'subject_type', type: 'varchar', length: 50 })
  subjectType: string;

  @Column({ name: 'subject_id', type: 'varchar', length: 100 })
  subjectId: string;

  @Column({ name: 'stage', type: 'varchar', length: 50, default: '' })
  stage: string;

  @Column({ name: 'code_hash', type: 'varchar', length: 64 })
  codeHash: string;

  @Column(epochMillisColumn({ name: 'created_at' }))
  createdAt: number;

  @Column(epochMillisColumn({ name: 'expires_at' }))
  expiresAt: number;

  /** Set when used, or when a newer code voided it. */
  @Column(epochMillisColumn({ name: 'spent_at', nullable: true }))
  spentAt: number | null;
}
