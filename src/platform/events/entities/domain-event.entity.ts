import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { epochMillisColumn } from '../../../database/columns';

/**
 * The outbox: one row per event, inserted in the transaction of the change it reports. Rows are kept
 * (dispatched_at set) so that a subscriber added later, or a webhook, can be replayed from them.
 */
@Entity({ name: 'domain_events' })
@Index('idx_domain_events_pending', ['dispatchedAt', 'eventid'])
@Index('idx_domain_events_entity', ['entityType', 'entityId', 'eventid'])
export class DomainEventEntity {
  @PrimaryGeneratedColumn({ name: 'eventid', type: 'int' })
  eventid: number;

  @Column({ name: 'name', type: 'varchar', length: 100 })
  name: string;

  @Column({ name: 'entity_type', type: 'varchar', length: 50 })
  entityType: string;

  @Column({ name: 'entity_id', type: 'varchar', length: 100 })
  entityId: string;

  @Column({ name: 'payload', type: 'json' })
  payload: unknown;

  @Column({ name: 'request_id', type: 'varchar', length: 200, nullable: true })
  requestId: string | null;

  /** Milliseconds since the epoch. */
  @Column(epochMillisColumn({ name: 'occurred_at' }))
  occurredAt: number;

  /** Set once every subscriber has it; null while any delivery is pending. */
  @Column(epochMillisColumn({ name: 'dispatched_at', nullable: true }))
  dispatchedAt: number | null;

  /** Failed deliveries so far. */
  @Column({ name: 'attempts', type: 'int', default: 0 })
  attempts: number;

  /** No delivery is tried before this time (ms) after a failure. */
  @Column(epochMillisColumn({ name: 'next_attempt_at', default: 0 }))
  nextAttemptAt: number;

  @Column({ name: 'last_error', type: 'varchar', length: 1000, nullable: true })
  lastError: string | null;

  /** Set when delivery was given up after the last attempt (the event is logged and left for an operator). */
  @Column(epochMillisColumn({ name: 'failed_at', nullable: true }))
  failedAt: number | null;
}
