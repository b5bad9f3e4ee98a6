import { DataSource } from 'typeorm';
import { TransactionService } from '../../src/database/transaction.service';
import { FakeClock } from '../../src/platform/clock/clock';
import { defineEvent, type EventType } from '../../src/platform/events/domain-event';
import { DomainEventEntity } from '../../src/platform/events/entities/domain-event.entity';
import { EventBus, MAX_DELIVERY_ATTEMPTS } from '../../src/platform/events/event-bus';
import { OutboxRepository } from '../../src/platform/events/outbox.repository';
import { TeamEntity } from '../../src/modules/teams/entities/team.entity';
import { createTestApp, type TestApp } from '../utils/test-app';

const Pinged = defineEvent<{ n: number }>('test.pinged', (p) => ['test', p.n]);
const Other = defineEvent<{ n: number }>('test.other', (p) => ['test', p.n]);
const Left = defineEvent<{ n: number }>('test.left', (p) => ['test', p.n]);
const Right = defineEvent<{ n: number; side: string }>('test.right', (p) => ['test', p.n]);
const Crowded = defineEvent<{ n: number }>('test.crowded', (p) => ['test', p.n]);
const Queued = defineEvent<{ n: number }>('test.queued', (p) => ['test', p.n]);

describe('outbox: events written with the change, delivered after commit, at least once, in order', () => {
  let t: TestApp;
  let bus: EventBus;
  let transactions: TransactionService;
  let dataSource: DataSource;
  const clock = new FakeClock(Date.UTC(2026, 5, 1));
  const received: number[] = [];
  let failNext = 0;

  const publish = (...ns: number[]) =>
    transactions.run(async (tx) => {
      ns.forEach((n) => tx.publish(Pinged({ n })));
    });
  const rows = () => dataSource.manager.find(DomainEventEntity, { order: { eventid: 'ASC' } });
  const undispatched = async (type: EventType<{ n: number }>) =>
    (await rows()).filter((row) => row.name === type.name && row.dispatchedAt === null);
  /** An outbox row as a commit leaves it before delivery (with `eventid`: one whose id was taken earlier). */
  const undeliveredRow = (name: string, n: number, eventid?: number) => ({
    ...(eventid === undefined ? {} : { eventid }),
    name,
    entityType: 'test',
    entityId: String(n),
    payload: { n },
    requestId: null,
    occurredAt: clock.now(),
    dispatchedAt: null,
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    failedAt: null,
  });
  /** A batch subscriber recording the `n` of what it gets; while `refuse`, it throws on a batch holding `refused`. */
  const recorder = (type: EventType<{ n: number }>, subscriber: string, refused?: number) => {
    const state = { refuse: refused !== undefined, got: [] as number[] };
    bus.subscribeBatch(type, subscriber, (events) => {
      if (state.refuse && events.some((e) => e.payload.n === refused)) throw new Error('not yet');
      state.got.push(...events.map((e) => e.payload.n));
    });
    return state;
  };

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
    bus = t.app.get(EventBus);
    transactions = t.app.get(TransactionService);
    dataSource = t.app.get(DataSource);
    bus.subscribe(Pinged, 'test.recorder', async ({ n }) => {
      if (failNext > 0) {
        failNext -= 1;
        throw new Error(`refused ${n}`);
      }
      // The subscriber's own write commits with its delivery record.
      await dataSource.manager.insert(TeamEntity, {
        name: `from event ${n}`,
        description: '',
        ownerUserid: null,
        createdDate: 1,
      });
      received.push(n);
    });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await bus.drain();
    received.length = 0;
  });

  it('a batch subscriber of two types gets both types’ events in one call, in eventid order', async () => {
    const calls: string[][] = [];
    bus.subscribeBatch([Left, Right], 'test.two-types', (events) => {
      calls.push(events.map((e) => `${e.name}:${e.payload.n}`));
    });
    expect(bus.hasSubscribers(Left.name) && bus.hasSubscribers(Right.name)).toBe(true);
    await transactions.run(async (tx) => {
      tx.publish(Left({ n: 1 }));
      tx.publish(Right({ n: 1, side: 'r' }));
      tx.publish(Left({ n: 2 }));
    });
    await bus.drain();
    expect(calls).toEqual([['test.left:1', 'test.right:1', 'test.left:2']]);
    const mine = (await rows()).filter((row) => row.name === Left.name || row.name === Right.name);
    expect(mine.map((row) => row.dispatchedAt)).toEqual([clock.now(), clock.now(), clock.now()]);
    await bus.drain();
    expect(calls).toHaveLength(1);
  });

  it('writes the event in the transaction: a rollback leaves no event', async () => {
    const before = (await rows()).length;
    await transactions
      .run(async (tx) => {
        tx.publish(Pinged({ n: 1 }));
        throw new Error('rollback');
      })
      .catch(() => undefined);
    expect((await rows()).length).toBe(before);
  });

  it('stores name, entity, payload and request id, and marks the event dispatched once delivered', async () => {
    await publish(10);
    await bus.drain();
    const [row] = (await rows()).slice(-1);
    expect(row).toMatchObject({
      name: 'test.pinged',
      entityType: 'test',
      entityId: '10',
      payload: { n: 10 },
      occurredAt: clock.now(),
      dispatchedAt: clock.now(),
      attempts: 0,
    });
    expect(row.requestId).toMatch(/^transaction:[0-9a-f-]{36}$/);
    expect(received).toEqual([10]);
  });

  it('delivers each event once to each subscriber, even when drained again', async () => {
    await publish(20, 21);
    await Promise.all([bus.drain(), bus.drain()]);
    await bus.drain();
    expect(received).toEqual([20, 21]);
    const teams = await dataSource.manager.countBy(TeamEntity, { name: 'from event 20' });
    expect(teams).toBe(1);
  });

  it('retries a failing subscriber with backoff and never delivers later events before the failed one', async () => {
    failNext = 1;
    await publish(30, 31);
    await bus.drain();
    expect(received).toEqual([]);
    const failed = (await rows()).find((row) => (row.payload as { n: number }).n === 30)!;
    expect(failed).toMatchObject({
      attempts: 1,
      dispatchedAt: null,
      lastError: 'refused 30',
      nextAttemptAt: clock.now() + 2000,
    });
    await bus.drain();
    expect(received).toEqual([]);
    clock.advance(2000);
    await bus.drain();
    expect(received).toEqual([30, 31]);
  });

  it('an event one subscriber cannot take yet holds back only that subscriber, past the first window of 100', async () => {
    const refuser = recorder(Crowded, 'test.crowded-refuser', 1000);
    const batch = recorder(Crowded, 'test.crowded-batch').got;
    const single: number[] = [];
    bus.subscribe(Crowded, 'test.crowded-single', ({ n }) => {
      single.push(n);
    });
    const all = Array.from({ length: 250 }, (_, i) => 1000 + i);
    await transactions.run(async (tx) => all.forEach((n) => tx.publish(Crowded({ n }))));
    await bus.drain();
    // The others got every event, past the first 100 that the refuser holds undispatched; the refuser got
    // none, not even the ones it would take, since they come after the one it refused.
    expect(batch).toEqual(all);
    expect(single).toEqual(all);
    expect(refuser.got).toEqual([]);
    // Its first event is not due yet: it gets no later one either (not the last 150 before the first 100).
    refuser.refuse = false;
    await bus.drain();
    expect(refuser.got).toEqual([]);
    clock.advance(2000);
    await bus.drain();
    expect(refuser.got).toEqual(all);
    expect(await undispatched(Crowded)).toEqual([]);
  });

  it('while a subscriber is held, the pass after a commit reads only newer events; drain() reads from the oldest', async () => {
    const refuser = recorder(Queued, 'test.queued-refuser', 2000);
    const other = recorder(Queued, 'test.queued-other').got;
    // An id taken before the held events, reused below for an event that commits late (nobody takes test.other).
    await transactions.run(async (tx) => tx.publish(Other({ n: 7 })));
    const lateId = (await rows()).slice(-1)[0].eventid;
    const held = Array.from({ length: 250 }, (_, i) => 2000 + i);
    await transactions.run(async (tx) => held.forEach((n) => tx.publish(Queued({ n }))));
    await bus.drain();
    expect(other).toEqual(held);
    expect(refuser.got).toEqual([]);
    const heldThrough = (await rows()).slice(-1)[0].eventid;

    const outbox = t.app.get(OutboxRepository);
    const reads = jest.spyOn(outbox, 'pending');
    const delivered = async (n: number) => {
      for (let i = 0; i < 200 && !other.includes(n); i += 1) await new Promise((r) => setTimeout(r, 5));
      expect(other).toContain(n);
    };
    try {
      await transactions.run(async (tx) => tx.publish(Queued({ n: 2300 })));
      await delivered(2300);
      // The pass the commit asked for started after the held events and kept the refuser out.
      expect(reads.mock.calls.map(([, after]) => after)).toEqual([heldThrough]);
      expect(refuser.got).toEqual([]);

      // An event whose id is below the ones read commits late: a pass after a commit misses it, drain() finds it.
      await dataSource.manager.delete(DomainEventEntity, { eventid: lateId });
      await dataSource.manager.insert(DomainEventEntity, undeliveredRow(Queued.name, 2500, lateId));
      await transactions.run(async (tx) => tx.publish(Queued({ n: 2301 })));
      await delivered(2301);
      expect(other).not.toContain(2500);
      reads.mockClear();
      await bus.drain();
      expect(reads.mock.calls[0]?.[1]).toBe(0);
      expect(other).toContain(2500);
      // The refuser may take the late event (it comes before the held one), nothing after that.
      expect(refuser.got).toEqual([2500]);
    } finally {
      reads.mockRestore();
    }
    refuser.refuse = false;
    clock.advance(2000);
    await bus.drain();
    expect(refuser.got).toEqual([2500, ...held, 2300, 2301]);
    expect(await undispatched(Queued)).toEqual([]);
  });

  it('an event nobody subscribes to is stored dispatched with its commit (no drain needed)', async () => {
    expect(bus.hasSubscribers(Other.name)).toBe(false);
    await transactions.run(async (tx) => tx.publish(Other({ n: 1 })));
    expect((await rows()).slice(-1)[0]).toMatchObject({ name: Other.name, dispatchedAt: clock.now() });
    await bus.drain();
    expect((await rows()).slice(-1)[0].dispatchedAt).toBe(clock.now());
  });

  it('gives up after the last attempt and leaves the event for an operator', async () => {
    failNext = MAX_DELIVERY_ATTEMPTS;
    await publish(40);
    for (let i = 0; i < MAX_DELIVERY_ATTEMPTS; i += 1) {
      clock.advance(11 * 60_000);
      await bus.drain();
    }
    const row = (await rows()).find((r) => (r.payload as { n: number }).n === 40)!;
    expect(row.attempts).toBe(MAX_DELIVERY_ATTEMPTS);
    expect(row.failedAt).not.toBeNull();
    expect(received).toEqual([]);
    failNext = 0;
    await publish(41);
    await bus.drain();
    expect(received).toEqual([41]);
  });

  it('delivers events left undelivered by a stopped instance when the next one starts', async () => {
    // An event committed but never delivered (the process died right after COMMIT).
    await dataSource.manager.insert(DomainEventEntity, undeliveredRow(Pinged.name, 50));
    bus.onApplicationBootstrap();
    await new Promise((resolve) => setImmediate(resolve));
    await bus.drain();
    expect(received).toEqual([50]);
  });
});
