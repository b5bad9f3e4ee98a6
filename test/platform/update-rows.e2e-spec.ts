import { TransactionService } from '../../src/database/transaction.service';
import { insertReturningId } from '../../src/database/insert';
import { updateRows } from '../../src/database/update';
import { DomainEventEntity } from '../../src/platform/events/entities/domain-event.entity';
import { createTestApp, type TestApp } from '../utils/test-app';

describe('updateRows (hand-written UPDATE with the driver’s value conversion)', () => {
  let t: TestApp;
  let transactions: TransactionService;
  beforeAll(async () => {
    t = await createTestApp();
    transactions = t.app.get(TransactionService);
  });
  afterAll(() => t.close());

  const insertEvent = () =>
    transactions.run((tx) =>
      insertReturningId(tx.manager, DomainEventEntity, {
        name: 'test.update-rows',
        entityType: 'test',
        entityId: '1',
        payload: { before: true },
        occurredAt: 1_700_000_000_123,
        dispatchedAt: 1_700_000_000_124,
      }),
    );
  const read = (eventid: number) => t.dataSource.getRepository(DomainEventEntity).findOneByOrFail({ eventid });

  it('changes the matching row, converting JSON, transformed and null values, and answers 1', async () => {
    const eventid = await insertEvent();
    const affected = await transactions.run((tx) =>
      updateRows(
        tx.manager,
        DomainEventEntity,
        { payload: { after: [1, 'two'] }, attempts: 3, lastError: null, failedAt: 1_700_000_000_999 },
        { eventid, name: 'test.update-rows' },
      ),
    );
    expect(affected).toBe(1);
    const row = await read(eventid);
    expect(row.payload).toEqual({ after: [1, 'two'] });
    expect(row.attempts).toBe(3);
    expect(row.lastError).toBeNull();
    expect(row.failedAt).toBe(1_700_000_000_999);
  });

  it('answers 0 and changes nothing when a condition does not match (outside a transaction too)', async () => {
    const eventid = await insertEvent();
    const affected = await updateRows(
      t.dataSource.manager,
      DomainEventEntity,
      { attempts: 9 },
      {
        eventid,
        name: 'another.name',
      },
    );
    expect(affected).toBe(0);
    expect((await read(eventid)).attempts).toBe(0);
    expect(await updateRows(t.dataSource.manager, DomainEventEntity, { attempts: 4 }, { eventid })).toBe(1);
    expect((await read(eventid)).attempts).toBe(4);
  });

  it('refuses empty changes, empty conditions, a NULL condition and an unknown property', async () => {
    const manager = t.dataSource.manager;
    await expect(updateRows(manager, DomainEventEntity, {}, { eventid: 1 })).rejects.toThrow(/needs changes/);
    await expect(updateRows(manager, DomainEventEntity, { attempts: 1 }, {})).rejects.toThrow(/needs changes/);
    await expect(updateRows(manager, DomainEventEntity, { attempts: 1 }, { lastError: null })).rejects.toThrow(
      /matches nothing/,
    );
    await expect(
      updateRows(manager, DomainEventEntity, { nope: 1 } as Partial<DomainEventEntity>, { eventid: 1 }),
    ).rejects.toThrow(/has no column nope/);
  });
});
