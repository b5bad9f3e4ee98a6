import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { epochMillisColumn } from '../../../database/columns';

/**
 * The audit log: append-only, one row per security-relevant change, written in the change's transaction.
 * `hash` = HMAC-SHA256 under the audit key of (prev_hash + canonical row); rows of one entity form a chain.
 * Database triggers refuse UPDATE and DELETE.
 */
@Entity({ name: 'audit_events' })
@Index('idx_audit_entity', ['entityType', 'entityId', 'auditid'])
@Index('idx_audit_actor', ['actorUserid', 'auditid'])
@Index('idx_audit_action', ['action', 'auditid'])
@Index('idx_audit_time', ['occurredAt'])
export class AuditEventEntity {
  @PrimaryGeneratedColumn({ name: 'auditid', type: 'int' })
  auditid: number;

  /** Milliseconds since the epoch. */
  @Column(epochMillisColumn({ name: 'occurred_at' }))
  occurredAt: number;

  @Column({ name: 'actor_userid', type: 'int', nullable: true })
  actorUserid: number | null;

  /** The actor's name as it was then. */
  @Column({ name: 'actor_name', type: 'varchar', length: 255, nullable: true })
  actorName: string | null;

  /** A dotted verb: `release.create`, `user.privileges`, `signature.failed`. */
  @Column({ name: 'action', type: 'varchar', length: 100 })
  action: string;

  @Column({ name: 'entity_type', type: 'varchar', length: 50 })
  entityType: string;

  @Column({ name: 'entity_id', type: 'varchar', length: 100 })
  entityId: string;

  @Column({ name: 'before_json', type: 'json', nullable: true })
  before: unknown;

  @Column({ name: 'after_json', type: 'json', nullable: true })
  after: unknown;

  @Column({ name: 'reason', type: 'varchar', length: 2000, nullable: true })
  reason: string | null;

  @Column({ name: 'request_id', type: 'varchar', length: 200, nullable: true })
  requestId: string | null;

  @Column({ name: 'ip', type: 'varchar', length: 64, nullable: true })
  ip: string | null;

  @Column({ name: 'user_agent', type: 'varchar', length: 500, nullable: true })
  userAgent: string | null;

  @Column({ name: 'prev_hash', type: 'varchar', length: 64, nullable: true })
  prevHash: string | null;

  @Column({ name: 'hash', type: 'varchar', length: 64 })
  hash: string;

  /** How `hash` was made (HashVersion): 1 plain SHA-256, rows older than the audit key; 2 keyed. */
  @Column({ name: 'hash_version', type: 'int', default: 1 })
  hashVersion: number;
}
