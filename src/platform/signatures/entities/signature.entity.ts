import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export type SignatureMeaning = 'approval' | 'rejection' | 'review' | 'verification';
export type SignatureMethod = 'password' | 'sign_token';

/**
 * An electronic signature (docs/signatures.md, 21 CFR Part 11): who signed what, meaning what, when, and a
 * hash of the signed content, so that a signature cannot be moved to other content. Immutable (triggers).
 */
@Entity({ name: 'signatures' })
@Index('idx_signatures_subject', ['subjectType', 'subjectId'])
@Index('idx_signatures_user', ['userid', 'signatureid'])
export class SignatureEntity {
  @PrimaryGeneratedColumn({ name: 'signatureid', type: 'int' })
  signatureid: number;

  @Column({ name: 'subject_type', type: 'varchar', length: 50 })
  subjectType: string;

  @Column({ name: 'subject_id', type: 'varchar', length: 100 })
  subjectId: string;

  @Column({ name: 'userid', type: 'int' })
  userid: number;

  /** The signer's name as printed at signing. */
  @Column({ name: 'printed_name', type: 'varchar', length: 255 })
  printedName: string;

  @Column({ name: 'meaning', type: 'varchar', length: 20 })
  meaning: SignatureMeaning;

  @Column({ name: 'note', type: 'varchar', length: 5000, default: '' })
  note: string;

  /** UNIX seconds. */
  @Column({
    name: 'signed_at',
    type: 'bigint',
    transformer: { to: (v: unknown) => v, from: (v: unknown) => Number(v) },
  })
  signedAt: number;

  @Column({ name: 'auth_method', type: 'varchar', length: 20 })
  authMethod: SignatureMethod;

  /** SHA-256 (hex) of the canonical content of what was signed (e.g. the released revision). */
  @Column({ name: 'record_hash', type: 'varchar', length: 64 })
  recordHash: string;

  @Column({ name: 'request_id', type: 'varchar', length: 200, nullable: true })
  requestId: string | null;
}
