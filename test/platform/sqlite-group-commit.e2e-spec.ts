import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { TransactionService } from '../../src/database/transaction.service';
import { TeamEntity } from '../../src/modules/teams/entities/team.entity';
import { createTestApp, type TestApp } from '../utils/test-app';
import { usingMysql } from '../utils/test-config';
import { gate, pause } from '../utils/hold';

/**
 * SQLite on a file (src/database/drivers/sqlite/): transactions that wait while another works share its COMMIT
 * (each in a savepoint), none is answered before that COMMIT, a failing one undoes only its own work, and
 * reads outside transactions run on a second connection that sees only committed rows and never waits.
 */
// SQLite only (skipped with TEST_DB=mysql): group commit and the reading connection are SQLite's.
(usingMysql() ? describe.skip : describe)('SQLite group commit and the reading connection', () => {
  let dir: string;
  let file: string;
  let t: TestApp;
  let transactions: TransactionService;
  let dataSource: DataSource;
  let statements: string[] = [];
  const team = (name: string) => ({ name, description: '', ownerUserid: null, createdDate: 1 });
  const names = async () =>
    (await dataSource.manager.getRepository(TeamEntity).find({ order: { teamid: 'ASC' } })).map((row) => row.name);
  /** What another process reading the file sees now. */
  const committedNames = () => {
    const raw = new BetterSqlite3(file, { readonly: true });
    try {
      return (raw.prepare('SELECT name FROM teams ORDER BY teamid').all() as { name: string }[]).map((r) => r.name);
    } finally {
      raw.close();
    }
  };
  const control = () => statements.filter((sql) => /^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/.test(sql));
  const insert = (name: string) => transactions.run((tx) => tx.manager.insert(TeamEntity, team(name)));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rgcs-group-commit-'));
    file = join(dir, 'app.sqlite');
    t = await createTestApp({ env: { DB_PATH: file, SCHEDULER_ENABLED: 'false' } });
    transactions = t.app.get(TransactionService);
    dataSource = t.app.get(DataSource);
    const logQuery = dataSource.logger.logQuery.bind(dataSource.logger);
    dataSource.logger.logQuery = (sql, parameters, runner) => {
      statements.push(sql);
      logQuery(sql, parameters, runner);
    };
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await dataSource.query('DELETE FROM team_members');
    await dataSource.query('DELETE FROM teams');
    statements = [];
  });

  it('transactions that wait while one works share its COMMIT, and none is answered before it', async () => {
    const hold = gate();
    const seenAtAnswer: Record<string, string[]> = {};
    const answered = (name: string) => () => void (seenAtAnswer[name] = committedNames());
    const first = transactions
      .run(async (tx) => {
        await tx.manager.insert(TeamEntity, team('a'));
        await hold.wait;
      })
      .then(answered('a'));
    await pause(20);
    const others = [insert('b').then(answered('b')), insert('c').then(answered('c'))];
    await pause(20);
    expect(committedNames()).toEqual([]);
    hold.open();
    await Promise.all([first, ...others]);

    expect(control()).toEqual([
      'BEGIN IMMEDIATE',
      'SAVEPOINT member',
      'RELEASE member',
      'SAVEPOINT member',
      'RELEASE member',
      'COMMIT',
    ]);
    // Each was answered only once its rows were in the file for every other reader.
    expect(seenAtAnswer).toEqual({ a: ['a', 'b', 'c'], b: ['a', 'b', 'c'], c: ['a', 'b', 'c'] });
  });

  it('a transaction that fails inside a group undoes only its own work', async () => {
    const hold = gate();
    const first = transactions.run(async (tx) => {
      await tx.manager.insert(TeamEntity, team('a'));
      await hold.wait;
    });
    await pause(20);
    const failing = transactions.run(async (tx) => {
      await tx.manager.insert(TeamEntity, team('failed'));
      throw new Error('conflict');
    });
    const last = insert('c');
    await pause(20);
    hold.open();
    await expect(failing).rejects.toThrow('conflict');
    await Promise.all([first, last]);

    expect(committedNames()).toEqual(['a', 'c']);
    expect(control()).toEqual([
      'BEGIN IMMEDIATE',
      'SAVEPOINT member',
      'ROLLBACK TO member',
      'RELEASE member',
      'SAVEPOINT member',
      'RELEASE member',
      'COMMIT',
    ]);
  });

  it('when the first transaction of a group fails, the ones waiting commit in a group of their own', async () => {
    const hold = gate();
    const failing = transactions.run(async (tx) => {
      await tx.manager.insert(TeamEntity, team('failed'));
      await hold.wait;
      throw new Error('conflict');
    });
    await pause(20);
    const waiting = [insert('b'), insert('c')];
    await pause(20);
    hold.open();
    await expect(failing).rejects.toThrow('conflict');
    await Promise.all(waiting);
    expect(committedNames()).toEqual(['b', 'c']);
    expect(control()).toEqual([
      'BEGIN IMMEDIATE',
      'ROLLBACK',
      'BEGIN IMMEDIATE',
      'SAVEPOINT member',
      'RELEASE member',
      'COMMIT',
    ]);
  });

  it('a group holds at most 8 transactions', async () => {
    const hold = gate();
    const first = transactions.run(async (tx) => {
      await tx.manager.insert(TeamEntity, team('t0'));
      await hold.wait;
    });
    await pause(20);
    const rest = Array.from({ length: 11 }, (_, i) => insert(`t${i + 1}`));
    await pause(20);
    hold.open();
    await Promise.all([first, ...rest]);
    expect(control().filter((sql) => sql === 'COMMIT')).toHaveLength(2);
    expect(control().filter((sql) => sql === 'SAVEPOINT member')).toHaveLength(10);
    expect(committedNames()).toEqual(Array.from({ length: 12 }, (_, i) => `t${i}`));
  });

  it('a read outside transactions neither waits for an open transaction nor sees its rows', async () => {
    await insert('before');
    const hold = gate();
    let committed = false;
    const writer = transactions.run(async (tx) => {
      await tx.manager.insert(TeamEntity, team('uncommitted'));
      await hold.wait;
      committed = true;
    });
    await pause(20);
    // Answered while the transaction is still open (it waits for `hold`).
    expect(await names()).toEqual(['before']);
    expect(committed).toBe(false);
    hold.open();
    await writer;
    expect(await names()).toEqual(['before', 'uncommitted']);
  });

  it('a write outside transactions still waits for the open transaction', async () => {
    const hold = gate();
    const order: string[] = [];
    const writer = transactions.run(async (tx) => {
      await tx.manager.insert(TeamEntity, team('in transaction'));
      await hold.wait;
      order.push('transaction done');
    });
    await pause(20);
    const outside = dataSource.manager
      .getRepository(TeamEntity)
      .insert(team('outside'))
      .then(() => void order.push('outside written'));
    await pause(30);
    expect(order).toEqual([]);
    hold.open();
    await Promise.all([writer, outside]);
    expect(order).toEqual(['transaction done', 'outside written']);
    expect(committedNames()).toEqual(['in transaction', 'outside']);
  });
});
