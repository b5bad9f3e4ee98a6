import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { epochMillisColumn } from '../../../database/columns';

export type SignatureAttemptState = 'pending' | 'failed' | 'passed';

/**
 * A signing attempt counted against the signer's lockout. It is written before the secret is checked
 * ('pending'), so attempts running at the same time are counted while they run, in every instance. A wrong
 * secret makes it 'failed'; a right one deletes it, or makes it 'passed' while other attempts still run.
 */
@Entity({ name: 'signature_attempts' })
@Index('idx_signature_attempts_user', ['userid', 'countedAt'])
export class SignatureAttemptEntity {
  @PrimaryGeneratedColumn({ name: 'attemptid', type: 'int' })
  attemptid: number;

  @Column({ name: 'userid', type: 'int' })
  userid: number;

  /** When it began; for a success, when it ended (signing-attempts.ts). */
  @Column(epochMillisColumn({ name: 'counted_at' }))
  countedAt: number;

  @Column({ name: 'state', type: 'varchar', length: 8 })
  state: SignatureAttemptState;
}
