import { Column, Entity, PrimaryColumn } from 'typeorm';
import { epochMillisColumn } from '../../../database/columns';

/** A user whose signing is locked until a time (5 failures in 15 minutes). */
@Entity({ name: 'signature_lockouts' })
export class SignatureLockoutEntity {
  @PrimaryColumn({ name: 'userid', type: 'int' })
  userid: number;

  @Column(epochMillisColumn({ name: 'locked_until' }))
  lockedUntil: number;
}
