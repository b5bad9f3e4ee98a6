import { requestContext } from '../../common/context/request-context';
import type { DomainEvent } from './domain-event';
import type { DomainEventEntity } from './entities/domain-event.entity';

/**
 * The outbox rows of the events a transaction published (TransactionService inserts them inside that transaction);
 * those nobody subscribes to are stored as dispatched (the dispatcher would only read them back to mark them so).
 */
export function outboxRows(
  events: DomainEvent[],
  occurredAt: number,
  isSubscribed: (name: string) => boolean,
): Omit<DomainEventEntity, 'eventid'>[] {
  const requestId = requestContext.current()?.requestId?.slice(0, 200) ?? null;
  return events.map((event) => ({
    name: event.name,
    entityType: event.entityType,
    entityId: event.entityId,
    payload: event.payload as object,
    requestId,
    occurredAt,
    dispatchedAt: isSubscribed(event.name) ? null : occurredAt,
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    failedAt: null,
  }));
}
