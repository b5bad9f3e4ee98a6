import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { Database } from '../../src/database/database';
import { TransactionService } from '../../src/database/transaction.service';
import { TeamEntity } from '../../src/modules/teams/entities/team.entity';
import { createUser } from '../factories/user.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { usingMysql } from '../utils/test-config';
import { gate, pause } from '../utils/hold';

describe('transactions hold on every database (one request never runs inside another request’s transaction)', () => {
  let t: TestApp;
  let transactions: TransactionService;
  let dataSource: DataSource;
  const teams = () => dataSource.manager.getRepository(TeamEntity);
  const team = (name: string) => ({ name, description: '', ownerUserid: null, createdDate: 1 });
  const names = async () => (await teams().find({ order: { teamid: 'ASC' } })).map((row) => row.name);

  beforeAll(async () => {
    t = await createTestApp();
    transactions = t.app.get(TransactionService);
    dataSource = t.app.get(DataSource);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await dataSource.query('DELETE FROM team_members');
    await dataSource.query('DELETE FROM teams');
  });

  it('a concurrent read never sees a row another transaction has not committed', async () => {
    const hold = gate();
    let committed = false;
    const writer = transactions.run(async (tx) => {
      await tx.manager.insert(TeamEntity, team('uncommitted'));
      await hold.wait;
      committed = true;
    });
    await pause(20);
    const reader = names().then((seen) => ({ seen, beforeCommit: !committed }));
    await pause(50);
    hold.open();
    await writer;
    const { seen, beforeCommit } = await reader;
    // Either the read ran beside the transaction (MySQL) and saw nothing, or it waited for the commit (SQLite).
    expect(beforeCommit ? seen : ['uncommitted']).toEqual(beforeCommit ? [] : seen);
  });

  it('a concurrent insert outside the transaction survives that transaction’s rollback', async () => {
    const hold = gate();
    const failing = transactions.run(async (tx) => {
      await tx.manager.insert(TeamEntity, team('rolled back'));
      await hold.wait;
      throw new Error('conflict');
    });
    await pause(20);
    const outside = teams().insert(team('outside'));
    await pause(50);
    hold.open();
    await expect(failing).rejects.toThrow('conflict');
    await outside;
    expect(await names()).toEqual(['outside']);
  });

  it('a nested run joins the open transaction (no deadlock) and rolls back with it', async () => {
    const started = Date.now();
    await transactions.run(async () => {
      await teams().insert(team('outer'));
      await transactions.run(async (inner) => {
        await inner.manager.insert(TeamEntity, team('inner'));
      });
    });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await names()).toEqual(['outer', 'inner']);

    await expect(
      transactions.run(async () => {
        await teams().insert(team('outer 2'));
        await transactions.run(async () => {
          await teams().insert(team('inner 2'));
          throw new Error('inner failed');
        });
      }),
    ).rejects.toThrow('inner failed');
    expect(await names()).toEqual(['outer', 'inner']);
  });

  it('repositories using dataSource.manager inside a transaction join it', async () => {
    await expect(
      transactions.run(async () => {
        await dataSource.manager.insert(TeamEntity, team('via manager'));
        expect(await names()).toEqual(['via manager']);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await names()).toEqual([]);
  });

  it("Database gives the open transaction's manager inside run, the data source's outside it", async () => {
    const database = new Database(dataSource);
    await expect(
      transactions.run(async (tx) => {
        expect(database.manager).toBe(tx.manager);
        await database.getRepository(TeamEntity).insert(team('via Database'));
        if (usingMysql()) expect(database.outsideTransaction(() => database.manager)).not.toBe(tx.manager);
        expect(await names()).toEqual(['via Database']);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await names()).toEqual([]);
    expect(database.manager).toBe(database.outsideTransaction(() => dataSource.manager));
  });

  it('after-commit tasks run once the outermost transaction commits, never after a rollback', async () => {
    const ran: string[] = [];
    await transactions.run(async (tx) => {
      tx.afterCommit(() => void ran.push('outer'));
      await transactions.run(async (inner) => {
        inner.afterCommit(() => void ran.push('inner'));
        expect(ran).toEqual([]);
      });
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual(['outer', 'inner']);
    await transactions
      .run(async (tx) => {
        tx.afterCommit(() => void ran.push('never'));
        throw new Error('rollback');
      })
      .catch(() => undefined);
    expect(ran).toEqual(['outer', 'inner']);
  });
});

// SQLite only (skipped with TEST_DB=mysql): two processes sharing one database file.
(usingMysql() ? describe.skip : describe)('SQLite: two instances on one file', () => {
  let dir: string;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rgcs-two-'));
    const env = { DB_PATH: join(dir, 'shared.sqlite'), DB_BUSY_TIMEOUT_MS: '10000' };
    a = await createTestApp({ env });
    b = await createTestApp({ env, keepData: true });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('concurrent writes from both wait for the file lock and never answer 500', async () => {
    const moderator = await createUser(a, { privilege: 'Moderator' });
    const hold = gate();
    // Instance A holds the write lock in an open transaction while B's requests arrive.
    const holding = a.app.get(TransactionService).run(async (tx) => {
      await tx.manager.insert(TeamEntity, { name: 'held', description: '', ownerUserid: null, createdDate: 1 });
      await hold.wait;
    });
    const requests = Array.from({ length: 40 }, (_, i) =>
      (i % 2 ? a : b).as(moderator.token, { method: 'POST', url: '/api/2.0/teams', payload: { name: `Team ${i}` } }),
    );
    await pause(300);
    hold.open();
    await holding;
    const statuses = (await Promise.all(requests)).map((res) => res.statusCode);
    expect(statuses).toEqual(Array(40).fill(201));
    const rows = await b.app.get(DataSource).manager.getRepository(TeamEntity).count();
    expect(rows).toBe(41);
  });

  it('a writer that cannot get the lock within DB_BUSY_TIMEOUT_MS answers 503 with Retry-After, not 500', async () => {
    const impatient = await createTestApp({
      env: { DB_PATH: join(dir, 'shared.sqlite'), DB_BUSY_TIMEOUT_MS: '200' },
      keepData: true,
    });
    try {
      const moderator = await createUser(a, { privilege: 'Moderator' });
      const hold = gate();
      const holding = a.app.get(TransactionService).run(async () => {
        await a.app
          .get(DataSource)
          .manager.insert(TeamEntity, { name: 'long', description: '', ownerUserid: null, createdDate: 1 });
        await hold.wait;
      });
      await pause(50);
      const res = await impatient.as(moderator.token, {
        method: 'POST',
        url: '/api/2.0/teams',
        payload: { name: 'late' },
      });
      hold.open();
      await holding;
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({ error: true, message: 'The database is unavailable; try again shortly' });
    } finally {
      await impatient.close();
    }
  });
});
