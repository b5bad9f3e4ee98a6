import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { DataSource, EntityManager } from 'typeorm';
import { BetterSqlite3QueryRunner } from 'typeorm/driver/better-sqlite3/BetterSqlite3QueryRunner';
import { QueryResult } from 'typeorm/query-runner/QueryResult';
import { requestContext } from '../../../common/context/request-context';
import { TransactionService } from '../../transaction.service';
import { bindSqliteNumbers } from '../sqlite/number-parameters';
import { clock, limits, silentLogger } from '../internals-test-helpers';

/** The SQLite driver's library internals (see ../README.md and ../library-internals.spec.ts). */

describe('SQLite as the service prepares it (a database file)', () => {
  let dir: string;
  let dataSource: DataSource;
  let transactions: TransactionService;
  const statements: string[] = [];
  const count = async (name: string) =>
    (await dataSource.query<{ n: number }[]>('SELECT count(*) AS n FROM items WHERE name = ?', [name]))[0].n;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rgcs-internals-'));
    dataSource = new DataSource({
      type: 'better-sqlite3',
      database: join(dir, 'internals.sqlite'),
      enableWAL: true,
      logger: silentLogger(statements),
    });
    bindSqliteNumbers(dataSource);
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
    transactions = new TransactionService(dataSource, clock, limits());
  });
  afterAll(async () => {
    await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the driver has one query runner, and its query is the service’s', () => {
    const runner = dataSource.createQueryRunner();
    expect(dataSource.createQueryRunner()).toBe(runner);
    expect(runner).toBeInstanceOf(BetterSqlite3QueryRunner);
    expect(Object.prototype.hasOwnProperty.call(runner, 'query')).toBe(true);
    expect(runner.query).not.toBe(BetterSqlite3QueryRunner.prototype.query);
  });

  it('numbers are bound as parameters (escapeQueryWithParameters replaced)', () => {
    const [sql, parameters] = dataSource
      .createQueryBuilder()
      .select('i.id')
      .from('items', 'i')
      .where('i.id = :id', { id: 17 })
      .getQueryAndParameters();
    expect(sql).not.toContain('17');
    expect(parameters).toEqual([17]);
  });

  it('a read outside the transaction goes through the replaced query to the reading connection: no uncommitted rows', async () => {
    await transactions.run(async (tx) => {
      await tx.manager.query('INSERT INTO items (name) VALUES (?)', ['uncommitted']);
      expect(await tx.manager.query('SELECT count(*) AS n FROM items')).toEqual([{ n: 1 }]);
      const outside = await requestContext.outsideTransaction(() =>
        dataSource.query('SELECT count(*) AS n FROM items'),
      );
      expect(outside).toEqual([{ n: 0 }]);
    });
    expect(await count('uncommitted')).toBe(1);
  });

  it('a service transaction is one: a write inside it is gone after its rollback', async () => {
    await expect(
      transactions.run(async (tx) => {
        await tx.manager.query('INSERT INTO items (name) VALUES (?)', ['rolled back']);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await count('rolled back')).toBe(0);
  });

  it('inside a service transaction, dataSource.manager is its manager and TypeORM sees the runner as in a transaction', async () => {
    const base = dataSource.manager;
    expect(base).toBeInstanceOf(EntityManager);
    await transactions.run(async (tx) => {
      expect(dataSource.manager).toBe(tx.manager);
      expect(dataSource.createQueryRunner().isTransactionActive).toBe(true);
    });
    expect(dataSource.manager).toBe(base);
    expect(dataSource.createQueryRunner().isTransactionActive).toBe(false);
  });

  it('TypeORM’s own transaction calls are no-ops: dataSource.transaction() sends no BEGIN and keeps its writes', async () => {
    statements.length = 0;
    await expect(
      dataSource.transaction(async (manager) => {
        await manager.query('INSERT INTO items (name) VALUES (?)', ['typeorm transaction']);
        throw new Error('not undone');
      }),
    ).rejects.toThrow('not undone');
    expect(statements.filter((sql) => /^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/i.test(sql))).toEqual([]);
    expect(await count('typeorm transaction')).toBe(1);
  });

  it('TypeORM reads `affected` from the replaced query’s structured result', async () => {
    const result = await dataSource
      .createQueryBuilder()
      .update('items')
      .set({ name: 'renamed' })
      .where('name = :name', { name: 'uncommitted' })
      .execute();
    expect(result.affected).toBe(1);
    const raw: unknown = await dataSource.createQueryRunner().query('SELECT 1 AS one', [], true);
    expect(raw).toBeInstanceOf(QueryResult);
  });

  it('the driver’s connection is better-sqlite3’s Database, its busy timeout 0, and destroy() is wrapped', () => {
    const connection = (dataSource.driver as unknown as { databaseConnection: BetterSqlite3.Database })
      .databaseConnection;
    expect(connection).toBeInstanceOf(BetterSqlite3);
    expect(connection.pragma('busy_timeout', { simple: true })).toBe(0);
    expect(connection.inTransaction).toBe(false);
    expect(Object.prototype.hasOwnProperty.call(dataSource, 'destroy')).toBe(true);
  });
});

describe('better-sqlite3: what the SQLite connection reads of statements and errors', () => {
  let dir: string;
  let db: BetterSqlite3.Database;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rgcs-internals-'));
    db = new BetterSqlite3(join(dir, 'statements.sqlite'));
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)');
  });
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reader and readonly tell reads, writes and writes with RETURNING apart; source, columns() and raw(true)', () => {
    const select = db.prepare('SELECT id, name FROM t');
    const insert = db.prepare('INSERT INTO t (name) VALUES (?)');
    const returning = db.prepare('INSERT INTO t (name) VALUES (?) RETURNING id');
    expect([select.reader, select.readonly]).toEqual([true, true]);
    expect([insert.reader, insert.readonly]).toEqual([false, false]);
    expect([returning.reader, returning.readonly]).toEqual([true, false]);
    expect(select.source).toBe('SELECT id, name FROM t');
    expect(insert.run('a')).toEqual({ changes: 1, lastInsertRowid: 1 });
    expect(select.columns().map((column) => column.name)).toEqual(['id', 'name']);
    expect(select.raw(true).all()).toEqual([[1, 'a']]);
  });

  it('a write while another connection holds the write lock fails at once with an SQLITE_BUSY code', () => {
    const other = new BetterSqlite3(join(dir, 'statements.sqlite'));
    other.pragma('busy_timeout = 0');
    db.exec('BEGIN IMMEDIATE');
    try {
      expect(() => other.prepare('INSERT INTO t (name) VALUES (?)').run('b')).toThrow(
        expect.objectContaining({ code: expect.stringMatching(/^SQLITE_BUSY/) as unknown }) as Error,
      );
    } finally {
      db.exec('ROLLBACK');
      other.close();
    }
  });
});
