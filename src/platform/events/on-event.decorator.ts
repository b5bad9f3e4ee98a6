import { appendMethodMetadata } from '../../common/discovery/decorated-methods';
import type { EventType } from './domain-event';
import type { AnyEventType } from './event-bus';

export const EVENT_SUBSCRIBER = 'eventSubscriber';

export interface EventSubscriberOptions {
  types: readonly AnyEventType[];
  /** The stable name its deliveries are recorded under: renaming it redelivers everything it already had. */
  subscriber: string;
  /** The due events of one delivery round together, in eventid order, in one transaction. */
  batch: boolean;
}

/**
 * The method handles each event of `type` (its payload, then the delivered event) after the change that
 * published it committed (EventBus delivers it from the outbox, at least once).
 */
export function OnEvent<P>(type: EventType<P>, subscriber: string): MethodDecorator {
  return appendMethodMetadata<EventSubscriberOptions>(EVENT_SUBSCRIBER, { types: [type], subscriber, batch: false });
}

/**
 * As OnEvent, for high-volume events whose handler takes many at once: the method gets the due events of one
 * delivery round of any of `types` as one list (DeliveredEvent[]), in eventid order, in one transaction.
 */
export function OnEvents(types: AnyEventType | readonly AnyEventType[], subscriber: string): MethodDecorator {
  const list = Array.isArray(types) ? (types as readonly AnyEventType[]) : [types as AnyEventType];
  return appendMethodMetadata<EventSubscriberOptions>(EVENT_SUBSCRIBER, { types: list, subscriber, batch: true });
}
