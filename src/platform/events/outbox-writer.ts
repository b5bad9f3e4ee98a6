import type { EntityManager } from 'typeorm';
import { requestContext } from '../../common/context/request-context';
import type { DomainEvent } from './domain-event';
import { DomainEventEntity } from './entities/domain-event.entity';

const MAX_ROWS_PER_INSERT = 100;

/** Inserts the events a transaction published into the outbox, inside that transaction. */
export async function writeOutbox(manager: EntityManager, events: DomainEvent[], occurredAt: number): Promise<void> {
  if (!events.length) return;
  const requestId = requestContext.current()?.requestId?.slice(0, 200) ?? null;
  const rows = events.map((event) => ({
    name: event.name,
    entityType: event.entityType,
    entityId: event.entityId,
    payload: event.payload as object,
    requestId,
    occurredAt,
    dispatchedAt: null,
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    failedAt: null,
  }));
  for (let i = 0; i < rows.length; i += MAX_ROWS_PER_INSERT) {
    await manager
      .createQueryBuilder()
      .insert()
      .into(DomainEventEntity)
      .values(rows.slice(i, i + MAX_ROWS_PER_INSERT))
      .updateEntity(false)
      .execute();
  }
}
