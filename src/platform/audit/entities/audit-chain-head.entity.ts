import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The newest row of each entity's audit chain. Appending locks it, so concurrent changes of one entity
 * chain one after the other; verification compares it with the chain, so a removed last row shows.
 */
@Entity({ name: 'audit_chain_heads' })
export class AuditChainHeadEntity {
  @PrimaryColumn({ name: 'entity_type', type: 'varchar', length: 50 })
  entityType: string;

  @PrimaryColumn({ name: 'entity_id', type: 'varchar', length: 100 })
  entityId: string;

  @Column({ name: 'last_auditid', type: 'int' })
  lastAuditid: number;

  @Column({ name: 'last_hash', type: 'varchar', length: 64 })
  lastHash: string;
}
