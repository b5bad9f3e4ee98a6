import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMillisColumn } from '../../../database/columns';

/**
 * One row per (subscriber, event) delivered, written in the subscriber's own transaction: a delivery
 * and its effects commit together, so an event reaches each subscriber's data exactly once even when
 * the dispatcher runs it twice (a retry, or two instances at once).
 */
@Entity({ name: 'event_deliveries' })
@Index('idx_event_deliveries_event', ['eventid'])
export class EventDeliveryEntity {
  @PrimaryColumn({ name: 'subscriber', type: 'varchar', length: 100 })
  subscriber: string;

  @PrimaryColumn({ name: 'eventid', type: 'int' })
  eventid: number;

  @Column(epochMillisColumn({ name: 'delivered_at' }))
  deliveredAt: number;
}
