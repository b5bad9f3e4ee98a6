import type { DomainEvent } from '../../src/platform/events/domain-event';
import { EventBus } from '../../src/platform/events/event-bus';
import { TransactionService } from '../../src/database/transaction.service';
import type { TestApp } from './test-app';

/** Publishes events as a module would (through the outbox, in a transaction) and delivers them. */
export async function publishEvents(t: TestApp, ...events: DomainEvent[]): Promise<void> {
  await t.app.get(TransactionService).run(async (tx) => {
    events.forEach((event) => tx.publish(event));
  });
  await settle(t);
}

/** Delivers every pending outbox event to its subscribers and waits for them. */
export const settle = (t: TestApp): Promise<void> => t.app.get(EventBus).drain();
