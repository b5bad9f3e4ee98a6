import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The newest row of each entity's audit chain. Appending locks it, so concurrent changes of one entity
 * chain one after the other; verification compares it with the chain, so a removed last row shows.
 */
@Entity({ name: 'audit_chain_heads' })
@Index('idx_audit_heads_due', ['checkpointDue'])
export class AuditChainHeadEntity {
  @PrimaryColumn({ name: 'entity_type', type: 'varchar', length: 50 })
  entityType: string;

  @PrimaryColumn({ name: 'entity_id', type: 'varchar', length: 100 })
  entityId: string;

  @Column({ name: 'last_auditid', type: 'int' })
  lastAuditid: number;

  @Column({ name: 'last_hash', type: 'varchar', length: 64 })
  lastHash: string;

  /** The head moved since the last checkpoint listed it (set by every append, cleared by the checkpoint). */
  @Column({ name: 'checkpoint_due', type: 'boolean', default: true })
  checkpointDue: boolean;
}

/** A chain's head as the audit writer and the verifier use it. */
export type ChainHead = Omit<AuditChainHeadEntity, 'checkpointDue'>;
