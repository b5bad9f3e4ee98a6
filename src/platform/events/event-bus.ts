import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { decoratedMethods } from '../../common/discovery/decorated-methods';
import { backgroundContext, requestContext } from '../../common/context/request-context';
import { isUniqueViolation } from '../../database/errors';
import { TransactionService } from '../../database/transaction.service';
import { Clock } from '../clock/clock';
import type { DeliveredEvent, DomainEvent, EventType } from './domain-event';
import { EVENT_SUBSCRIBER, type EventSubscriberOptions } from './on-event.decorator';
import type { DomainEventEntity } from './entities/domain-event.entity';
import { OutboxRepository } from './outbox.repository';

type Handler = (payload: never, event: DeliveredEvent<never>) => void | Promise<void>;
type BatchHandler = (events: DeliveredEvent<never>[]) => void | Promise<void>;

interface Subscription {
  subscriber: string;
  handler: Handler;
}

interface BatchSubscription {
  /** The event names it takes. */
  names: Set<string>;
  subscriber: string;
  handler: BatchHandler;
}

/** Any event type (parameters are contravariant: `never` takes every payload type). */
export type AnyEventType = { readonly name: string; (payload: never): DomainEvent<unknown> };
type PayloadOf<T> = T extends EventType<infer P> ? P : never;

const BATCH = 100;
/** Failed deliveries are retried after 1 s, 2 s, 4 s … at most 10 min apart; given up after this many. */
export const MAX_DELIVERY_ATTEMPTS = 20;
const retryDelay = (attempts: number) => Math.min(1000 * 2 ** attempts, 10 * 60_000);
/**
 * How long a graceful stop spends delivering pending events: most of main.ts's 10 s grace, which the HTTP close
 * (about a second) precedes. Events still pending after it stay in the outbox for the next start.
 */
const SHUTDOWN_BUDGET_MS = 7000;

/**
 * Delivers outbox events to in-process subscribers, in eventid order per subscriber, at least once.
 * Each delivery runs in its own transaction together with a row in `event_deliveries`, so what a
 * subscriber writes and the fact that it got the event commit together: a retry or a second instance
 * never applies an event twice. A subscriber that fails gets no later event until the failed one
 * succeeds (retried with backoff), so it never sees them out of order.
 *
 * Runs after every commit that published events, every 5 s (the scheduler), at start-up, and before a
 * graceful exit. Tests call `drain()`.
 */
@Injectable()
export class EventBus implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('EventBus');
  private readonly subscriptions = new Map<string, Subscription[]>();
  private readonly batchSubscriptions: BatchSubscription[] = [];
  private readonly subscriberNames = new Set<string>();
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private scheduled = false;
  private readonly detached = new Set<Promise<void>>();
  /**
   * After a pass that left subscribers blocked: every pending event up to `through` then lacked only theirs.
   * A pass after a commit starts there with them still blocked, so a held subscriber's backlog is not read
   * again after every write; `drain()` (the timer every 5 s, start-up, shutdown) reads from the oldest
   * pending event, which retries them once due and finds an event whose id committed after a later one's.
   */
  private held: { through: number; subscribers: Set<string> } | undefined;
  private fromOldest = false;

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly transactions: TransactionService,
    private readonly clock: Clock,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {
    transactions.onEventsCommitted(
      () => this.requestDrain(),
      (name) => this.hasSubscribers(name),
    );
  }

  /** Subscribes every provider method marked @OnEvent or @OnEvents (on-event.decorator.ts). */
  onModuleInit(): void {
    for (const { options, handler } of decoratedMethods<EventSubscriberOptions>(
      this.discovery,
      this.scanner,
      EVENT_SUBSCRIBER,
    )) {
      for (const { types, subscriber, batch } of options) {
        if (batch)
          this.subscribeBatch(types, subscriber, handler as (events: DeliveredEvent<never>[]) => Promise<void>);
        else this.subscribe(types[0] as EventType<unknown>, subscriber, handler as (payload: unknown) => Promise<void>);
      }
    }
  }

  /**
   * Registers `handler` for events of `type` under a stable subscriber name (it keys the delivery
   * record: renaming a subscriber redelivers everything it already had).
   */
  subscribe<P>(
    type: EventType<P>,
    subscriber: string,
    handler: (payload: P, event: DeliveredEvent<P>) => void | Promise<void>,
  ): void {
    const list = this.subscriptions.get(type.name) ?? [];
    if (list.some((s) => s.subscriber === subscriber))
      throw new Error(`${subscriber} already subscribes to ${type.name}`);
    list.push({ subscriber, handler: handler });
    this.subscriptions.set(type.name, list);
    this.subscriberNames.add(subscriber);
  }

  /**
   * As `subscribe`, for high-volume events whose handler can take many at once (view history): the due
   * events of one delivery round reach the handler together, in eventid order, in one transaction. With
   * several types, their events come in one batch (so a handler can apply two events about the same
   * document once).
   */
  subscribeBatch<T extends AnyEventType>(
    type: T | readonly T[],
    subscriber: string,
    handler: (events: DeliveredEvent<PayloadOf<T>>[]) => void | Promise<void>,
  ): void {
    if (this.subscriberNames.has(subscriber)) throw new Error(`${subscriber} already subscribes`);
    const names = new Set((Array.isArray(type) ? (type as readonly T[]) : [type as T]).map((t) => t.name));
    this.batchSubscriptions.push({ names, subscriber, handler: handler });
    this.subscriberNames.add(subscriber);
  }

  onApplicationBootstrap(): void {
    this.requestDrain();
  }

  async beforeApplicationShutdown(): Promise<void> {
    const timer = new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_BUDGET_MS).unref());
    await Promise.race([Promise.allSettled([...this.detached]), timer]);
    await Promise.race([this.drain().catch(() => undefined), timer]);
    this.stopped = true;
    await Promise.race([this.running ?? Promise.resolve(), timer]);
  }

  /**
   * Publishes an event in a transaction of its own without making the caller wait (facts of reads, such
   * as a view): failures are logged, and a graceful stop waits for those under way.
   */
  publishDetached(event: DomainEvent): void {
    if (this.stopped) return;
    const run = requestContext
      .run(backgroundContext('publish'), () => this.transactions.run(async (tx) => tx.publish(event)))
      .catch((error: unknown) => this.logger.warn({ err: error, event: event.name }, 'could not publish an event'));
    this.detached.add(run);
    void run.finally(() => this.detached.delete(run));
  }

  /**
   * Delivery soon, off the caller's path (after a commit). While a subscriber is held, this pass starts after
   * the events the last pass read (see `held`).
   */
  requestDrain(): void {
    if (this.stopped || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      Promise.allSettled([...this.detached])
        .then(() => this.drainOutbox(false))
        .catch((error: unknown) => this.logger.error({ err: error }, 'event delivery failed'));
    });
  }

  /**
   * Delivers every event that is due, reading from the oldest pending one; resolves when nothing due is left
   * (tests, shutdown, the timer every 5 s).
   */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.detached]);
    return this.drainOutbox(true);
  }

  private drainOutbox(fromOldest: boolean): Promise<void> {
    if (fromOldest) this.fromOldest = true;
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = requestContext
      .run(backgroundContext('events'), () => this.loop())
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      const fromOldest = this.fromOldest;
      this.fromOldest = false;
      await this.deliverPass(fromOldest);
    } while (this.again);
  }

  /**
   * One pass over every pending event, a window of BATCH at a time (by eventid, not always the oldest
   * BATCH): an event one subscriber cannot take yet must not hide the events after it from the others.
   * A subscriber that fails or meets an event not due is left out for the rest of the pass, so it never
   * gets a later event first. Events committed during the pass ask for another one (`again`).
   */
  private async deliverPass(fromOldest: boolean): Promise<void> {
    const start = fromOldest ? undefined : this.held;
    const blocked = new Set<string>(start?.subscribers);
    let after = start?.through ?? 0;
    for (;;) {
      const events = await this.outbox.pending(BATCH, after);
      if (events.length) {
        await this.deliverWindow(events, blocked);
        after = events[events.length - 1].eventid;
      }
      if (events.length < BATCH) break;
    }
    this.held = blocked.size ? { through: after, subscribers: blocked } : undefined;
  }

  /** The events of one window to every subscriber not blocked in this pass; marks the complete ones dispatched. */
  private async deliverWindow(events: DomainEventEntity[], blocked: Set<string>): Promise<void> {
    const delivered = await this.outbox.delivered(events.map((e) => e.eventid));
    const dispatched: number[] = [];
    for (const batch of this.batchSubscriptions) {
      if (!blocked.has(batch.subscriber) && (await this.deliverMany(events, batch, delivered)) === 'blocked')
        blocked.add(batch.subscriber);
    }
    for (const row of events) {
      const due = row.nextAttemptAt <= this.clock.now();
      let complete = true;
      for (const { subscriber } of this.batchSubscriptions.filter((b) => b.names.has(row.name))) {
        if (!delivered.has(`${subscriber}\u0000${row.eventid}`)) complete = false;
      }
      for (const { subscriber, handler } of this.subscriptions.get(row.name) ?? []) {
        if (delivered.has(`${subscriber}\u0000${row.eventid}`)) continue;
        if (!due || blocked.has(subscriber) || !(await this.deliver(row, subscriber, handler))) {
          blocked.add(subscriber);
          complete = false;
        }
      }
      if (complete) dispatched.push(row.eventid);
    }
    await this.outbox.markDispatched(dispatched, this.clock.now());
  }

  /**
   * The due, undelivered events of a batch subscriber, up to its first event not yet due, in one transaction;
   * 'blocked' when it stopped at an event not due or failed (it gets nothing later in this pass).
   */
  private async deliverMany(
    events: DomainEventEntity[],
    batch: BatchSubscription,
    delivered: Set<string>,
  ): Promise<'blocked' | 'done'> {
    const rows: DomainEventEntity[] = [];
    let stopped = false;
    for (const row of events) {
      if (!batch.names.has(row.name) || delivered.has(`${batch.subscriber}\u0000${row.eventid}`)) continue;
      if (row.nextAttemptAt > this.clock.now()) {
        stopped = true;
        break;
      }
      rows.push(row);
    }
    if (!rows.length) return stopped ? 'blocked' : 'done';
    try {
      await this.transactions.run(async () => {
        await this.outbox.recordDeliveries(
          batch.subscriber,
          rows.map((row) => row.eventid),
          this.clock.now(),
        );
        await batch.handler(rows.map(toDelivered));
      });
    } catch (error) {
      // A duplicate key: another instance delivered some of them; the next pass reads what it did.
      if (!isUniqueViolation(error)) await this.failed(rows[0], batch.subscriber, error);
      return 'blocked';
    }
    rows.forEach((row) => delivered.add(`${batch.subscriber}\u0000${row.eventid}`));
    return stopped ? 'blocked' : 'done';
  }

  private async deliver(row: DomainEventEntity, subscriber: string, handler: Handler): Promise<boolean> {
    const event = toDelivered(row);
    try {
      await this.transactions.run(async () => {
        await this.outbox.recordDelivery(subscriber, row.eventid, this.clock.now());
        await handler(event.payload, event);
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return true;
      await this.failed(row, subscriber, error);
      return false;
    }
  }

  private async failed(row: DomainEventEntity, subscriber: string, error: unknown): Promise<void> {
    const attempts = row.attempts + 1;
    const giveUp = attempts >= MAX_DELIVERY_ATTEMPTS ? this.clock.now() : null;
    this.logger[giveUp ? 'error' : 'warn'](
      { err: error, eventid: row.eventid, event: row.name, subscriber, attempts },
      giveUp ? 'event delivery given up' : 'event delivery failed; will retry',
    );
    await this.outbox
      .recordFailure(
        row.eventid,
        String((error as Error)?.message ?? error),
        this.clock.now() + retryDelay(attempts),
        giveUp,
      )
      .catch(() => undefined);
  }

  /** Whether events of this name have a subscriber (single or batch). */
  hasSubscribers(name: string): boolean {
    return (this.subscriptions.get(name)?.length ?? 0) > 0 || this.batchSubscriptions.some((b) => b.names.has(name));
  }

  /** Names of every registered subscriber (diagnostics and tests). */
  subscribers(): string[] {
    return [...this.subscriberNames];
  }
}

const toDelivered = (row: DomainEventEntity): DeliveredEvent<never> => ({
  eventid: row.eventid,
  name: row.name,
  entityType: row.entityType,
  entityId: row.entityId,
  payload: row.payload as never,
  occurredAt: row.occurredAt,
  requestId: row.requestId,
});
