import { Column, Entity, PrimaryColumn } from 'typeorm';
import { epochMillisColumn } from '../../../database/columns';

/** One chain's head as a checkpoint saw it: entity type, entity id, its newest auditid and that row's hash. */
export type CheckpointHead = [entityType: string, entityId: string, auditid: number, hash: string];

/**
 * A signed snapshot of the chain heads that moved since the previous checkpoint, written periodically
 * and to the application log. Checkpoints chain by `prev_signature`, and their HMAC (audit key) covers
 * every column, so a chain cut back or removed after a checkpoint shows against it. Append-only (triggers).
 */
@Entity({ name: 'audit_checkpoints' })
export class AuditCheckpointEntity {
  /** 1, 2, 3 …: the primary key, so two instances cannot both write the next one. */
  @PrimaryColumn({ name: 'seq', type: 'int' })
  seq: number;

  @Column(epochMillisColumn({ name: 'created_at' }))
  createdAt: number;

  /** The newest auditid whose hash is the unkeyed legacy one (0: none); later legacy rows are forged. */
  @Column({ name: 'legacy_through', type: 'int' })
  legacyThrough: number;

  @Column({ name: 'heads_json', type: 'json' })
  heads: CheckpointHead[];

  @Column({ name: 'prev_signature', type: 'varchar', length: 64, nullable: true })
  prevSignature: string | null;

  /** HMAC-SHA256 (hex, audit key) of the canonical JSON of every other column. */
  @Column({ name: 'signature', type: 'varchar', length: 64 })
  signature: string;
}
