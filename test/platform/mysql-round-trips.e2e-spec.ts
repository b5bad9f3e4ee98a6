import { DataSource } from 'typeorm';
import { requestContext } from '../../src/common/context/request-context';
import { deferWrite } from '../../src/database/drivers/deferred-writes';
import { TransactionService } from '../../src/database/transaction.service';
import { answerTokensChangedBy } from '../../src/database/answer-sources';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';
import { usingMysql } from '../utils/test-config';

/** A table no cached answer is built from: writes of answer sources are never deferred (their tokens change). */
const insertLock = 'INSERT INTO scheduler_locks (name, locked_by, locked_until) VALUES (?, NULL, 0)';
const NAME = 'round-trip';

/**
 * On MySQL a transaction's START TRANSACTION travels with its first statement, and its deferred writes (the
 * outbox rows, the answer tokens: drivers/deferred-writes.ts) with its COMMIT, as one multi-statement query
 * (drivers/mysql/transaction-batch.ts). SQLite has no round trips to save: these run on MySQL only.
 */
(usingMysql() ? describe : describe.skip)('MySQL: statements of a transaction travel together', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let transactions: TransactionService;
  let dataSource: DataSource;
  /** This suite's rows, as `manager` sees them (in a transaction: its own writes too). */
  const names = async (manager = dataSource.manager) =>
    (
      await manager.query<{ name: string }[]>('SELECT name FROM scheduler_locks WHERE name LIKE ? ORDER BY name', [
        `${NAME}%`,
      ])
    ).map((row) => row.name.slice(NAME.length + 1));
  /** Runs `work` as a request would, answering its statement and round-trip counts. */
  const counted = async (work: () => Promise<unknown>) => {
    const stats = { sqlStatements: 0, sqlRoundTrips: 0 };
    const outcome = await requestContext.run({ requestId: 'round-trips', primary: true, stats }, work).then(
      () => undefined,
      (error: unknown) => error,
    );
    return { ...stats, error: outcome as { message?: string; driverError?: { code?: string } } | undefined };
  };

  beforeAll(async () => {
    t = await createTestApp();
    transactions = t.app.get(TransactionService);
    dataSource = t.app.get(DataSource);
    admin = await createUser(t, { privilege: 'Admin' });
    await createCategory(t, admin.user, 'Round Trip Toaster');
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await dataSource.query('DELETE FROM scheduler_locks WHERE name LIKE ?', [`${NAME}%`]);
  });

  it('writes to the table these tests use are not answer-source writes (so they may be deferred)', () => {
    expect(answerTokensChangedBy(insertLock)).toBeUndefined();
  });

  it('a guide create sends START with its first statement and the outbox rows and answer tokens with COMMIT', async () => {
    const res = await t.as(admin.token, {
      method: 'POST',
      url: '/api/2.0/guides',
      payload: { category: 'Round Trip Toaster', type: 'repair', title: 'Fix the toaster', introduction: 'Hello.' },
    });
    expect(res.statusCode).toBe(201);
    const trips = Number(res.headers['x-sql-round-trips']);
    // Three statements ride with others: START TRANSACTION, the answer tokens' upsert and the outbox INSERT.
    expect(trips).toBe(sqlCount(res) - 3);
    expect(trips).toBeLessThanOrEqual(9);
    const events = await dataSource.query<{ name: string }[]>(
      "SELECT name FROM domain_events WHERE entity_type = 'guide' AND entity_id = ?", // written with the COMMIT
      [String(res.json<{ guideid: number }>().guideid)],
    );
    expect(events.map((event) => event.name).sort()).toEqual(['guide.changed', 'guide.revised']);
  });

  it('a transaction that sent no statement sends neither START nor COMMIT', async () => {
    const run = await counted(() => transactions.run(async () => undefined));
    expect(run).toMatchObject({ error: undefined, sqlStatements: 2, sqlRoundTrips: 0 });
  });

  it('deferred writes travel with the COMMIT and are committed with the transaction', async () => {
    const run = await counted(() =>
      transactions.run(async (tx) => {
        await tx.manager.query(insertLock, [`${NAME} 1 first`]);
        await deferWrite(tx.manager, insertLock, [`${NAME} 2 deferred`]);
        await deferWrite(tx.manager, insertLock, [`${NAME} 3 deferred`]);
      }),
    );
    // START + INSERT in one query, both deferred INSERTs + COMMIT in the other.
    expect(run).toMatchObject({ error: undefined, sqlStatements: 5, sqlRoundTrips: 2 });
    expect(await names()).toEqual(['1 first', '2 deferred', '3 deferred']);
  });

  it('a rollback drops deferred writes unsent', async () => {
    const run = await counted(() =>
      transactions.run(async (tx) => {
        await deferWrite(tx.manager, insertLock, [`${NAME} never`]);
        throw new Error('changed my mind');
      }),
    );
    expect(run.error?.message).toBe('changed my mind');
    expect(run.sqlRoundTrips).toBe(0);
    expect(await names()).toEqual([]);
  });

  it('deferred writes go before a later statement of the transaction, which answers its own error', async () => {
    await dataSource.query(insertLock, [`${NAME} 1 taken`]);
    let seenByLater: string[] = [];
    const run = await counted(() =>
      transactions.run(async (tx) => {
        await deferWrite(tx.manager, insertLock, [`${NAME} 2 deferred`]);
        seenByLater = await names(tx.manager);
        await tx.manager.query(insertLock, [`${NAME} 1 taken`]);
      }),
    );
    expect(seenByLater).toEqual(['1 taken', '2 deferred']);
    expect(run.error?.driverError?.code).toBe('ER_DUP_ENTRY');
    expect(await names()).toEqual(['1 taken']);
  });

  it('a deferred write that fails fails the COMMIT, and its connection goes back to the pool with nothing open', async () => {
    const run = await counted(() =>
      transactions.run(async (tx) => {
        await tx.manager.query(insertLock, [`${NAME} written before`]);
        await deferWrite(tx.manager, 'INSERT INTO no_such_table (a) VALUES (?)', [1]);
      }),
    );
    expect(run.error?.driverError?.code).toBe('ER_NO_SUCH_TABLE');
    // Every connection of the pool is used again: one still inside the failed transaction would commit it
    // implicitly at its next START TRANSACTION.
    const poolSize = t.config.databaseLimits.poolSize;
    for (let i = 0; i < poolSize * 2; i += 1) {
      await Promise.all(
        Array.from({ length: poolSize }, (_, k) =>
          transactions.run((tx) => tx.manager.query('SELECT ? AS n FROM dual', [k])),
        ),
      );
    }
    expect(await names()).toEqual([]);
  });

  it('a deferred write that fails before a later statement fails the transaction, even when the work goes on', async () => {
    let caught: { driverError?: { code?: string } } | undefined;
    const run = await counted(() =>
      transactions.run(async (tx) => {
        await deferWrite(tx.manager, 'INSERT INTO no_such_table (a) VALUES (?)', [1]);
        caught = await tx.manager.query('SELECT 1 AS a FROM dual').then(
          () => undefined,
          (error: { driverError?: { code?: string } }) => error,
        );
        await tx.manager.query(insertLock, [`${NAME} after the failure`]);
      }),
    );
    expect(caught?.driverError?.code).toBe('ER_NO_SUCH_TABLE');
    expect(run.error?.driverError?.code).toBe('ER_NO_SUCH_TABLE');
    expect(await names()).toEqual([]);
  });

  it('SQL a caller passes is one statement: a second one is refused before anything is sent', async () => {
    await expect(dataSource.query("SELECT 1 AS a; DELETE FROM scheduler_locks WHERE name = 'x'")).rejects.toThrow(
      'One SQL statement per query',
    );
    await expect(dataSource.query("SELECT ';' AS a -- a comment; with a semicolon")).resolves.toEqual([{ a: ';' }]);
    await expect(dataSource.query('SELECT 2 AS a;')).resolves.toEqual([{ a: 2 }]);
    const deferred = transactions.run((tx) =>
      deferWrite(tx.manager, `${insertLock}; DELETE FROM teams`, [`${NAME} x`]),
    );
    await expect(deferred).rejects.toThrow('One SQL statement per query');
    expect(await names()).toEqual([]);
  });
});
