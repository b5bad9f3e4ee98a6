import type { EntityManager } from 'typeorm';
import { requestContext } from '../../common/context/request-context';
import { insertRows } from '../../database/insert';
import type { DomainEvent } from './domain-event';
import { DomainEventEntity } from './entities/domain-event.entity';

/**
 * Inserts the events a transaction published into the outbox, inside that transaction (a deferred write: on MySQL
 * it travels with the COMMIT); those nobody subscribes to are stored as dispatched (the dispatcher would only read
 * them back to mark them so).
 */
export async function writeOutbox(
  manager: EntityManager,
  events: DomainEvent[],
  occurredAt: number,
  isSubscribed: (name: string) => boolean,
): Promise<void> {
  if (!events.length) return;
  const requestId = requestContext.current()?.requestId?.slice(0, 200) ?? null;
  const rows = events.map((event) => ({
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
  await insertRows(manager, DomainEventEntity, rows, { deferred: true });
}
