import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { IsIn, getMetadataStorage, validate } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { DataSource, EntityManager, QueryFailedError, type Logger } from 'typeorm';
import { BetterSqlite3Driver } from 'typeorm/driver/better-sqlite3/BetterSqlite3Driver';
import { BetterSqlite3QueryRunner } from 'typeorm/driver/better-sqlite3/BetterSqlite3QueryRunner';
import { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import { MysqlQueryRunner } from 'typeorm/driver/mysql/MysqlQueryRunner';
import { QueryResult } from 'typeorm/query-runner/QueryResult';
import { backgroundContext, requestContext } from '../../common/context/request-context';
import { memoizeValidationMetadata } from '../../common/validation/validation-metadata-cache';
import type { AppConfig } from '../../config/app-config';
import type { Clock } from '../../platform/clock/clock';
import { DatabaseUnavailableError } from '../errors';
import { TransactionService } from '../transaction.service';
import { bindSqliteNumbers } from './sqlite/number-parameters';

/**
 * Every library internal the service patches or relies on (listed in README.md next to this file): the shape
 * each patch relies on, the patched behaviour in effect on a real connection, and the library versions the README
 * was checked against. A failure here after an upgrade means: read README.md, check the symbol, then update it.
 */

const README = readFileSync(join(__dirname, 'README.md'), 'utf8');
const LIBRARIES = ['typeorm', 'better-sqlite3', 'mysql2', 'class-validator'];

describe('library versions', () => {
  const checked = new Map(
    [...README.matchAll(/^\| ([a-z0-9-]+) +\| ([0-9][^ |]*) +\|$/gm)].map((m) => [m[1], m[2]] as const),
  );
  it.each(LIBRARIES)('%s is the version README.md was checked against', (library) => {
    const installed = (
      JSON.parse(readFileSync(join(__dirname, '../../../node_modules', library, 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    expect(`${library} ${installed}`).toBe(`${library} ${checked.get(library)}`);
  });
});

/** The methods a patch replaces or calls, with the arity it was written against. */
describe('TypeORM: the methods the drivers replace or call', () => {
  const arity = (owner: object, name: string): number | string => {
    const member = (owner as Record<string, unknown>)[name];
    return typeof member === 'function' ? member.length : typeof member;
  };
  it.each([
    ['BetterSqlite3QueryRunner', 'query', 1, BetterSqlite3QueryRunner.prototype],
    ['BetterSqlite3QueryRunner', 'startTransaction', 1, BetterSqlite3QueryRunner.prototype],
    ['BetterSqlite3QueryRunner', 'commitTransaction', 0, BetterSqlite3QueryRunner.prototype],
    ['BetterSqlite3QueryRunner', 'rollbackTransaction', 0, BetterSqlite3QueryRunner.prototype],
    ['BetterSqlite3Driver', 'createQueryRunner', 1, BetterSqlite3Driver.prototype],
    ['BetterSqlite3Driver', 'escapeQueryWithParameters', 2, BetterSqlite3Driver.prototype],
    ['BetterSqlite3Driver', 'createParameter', 2, BetterSqlite3Driver.prototype],
    ['MysqlQueryRunner', 'query', 2, MysqlQueryRunner.prototype],
    ['MysqlQueryRunner', 'connect', 0, MysqlQueryRunner.prototype],
    ['MysqlQueryRunner', 'release', 0, MysqlQueryRunner.prototype],
    ['MysqlDriver', 'obtainMasterConnection', 0, MysqlDriver.prototype],
    ['MysqlDriver', 'obtainSlaveConnection', 0, MysqlDriver.prototype],
    ['DataSource', 'createQueryRunner', 0, DataSource.prototype],
    ['DataSource', 'destroy', 0, DataSource.prototype],
  ] as const)('%s.%s takes %d declared parameters', (_, name, expected, owner) => {
    expect(arity(owner, name)).toBe(expected);
  });

  it('DataSource.manager is an own, configurable property (replaced by a getter)', () => {
    const dataSource = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
    const descriptor = Object.getOwnPropertyDescriptor(dataSource, 'manager');
    expect(descriptor?.configurable).toBe(true);
    expect(descriptor?.value).toBeInstanceOf(EntityManager);
  });

  it('QueryResult (deep import) is a class the drivers construct', () => {
    expect(new QueryResult().records).toEqual([]);
  });
});

describe('TypeORM MysqlQueryRunner: what the transaction batch and the limits rely on (no server needed)', () => {
  const dataSource = new DataSource({ type: 'mysql', host: '127.0.0.1' });
  const driver = dataSource.driver as MysqlDriver;

  it('begins, commits and rolls back with exactly START TRANSACTION, COMMIT and ROLLBACK, sent while active', async () => {
    const runner = driver.createQueryRunner('master');
    expect(runner).toBeInstanceOf(MysqlQueryRunner);
    const sent: [string, boolean][] = [];
    runner.query = (sql: string) => {
      sent.push([sql, runner.isTransactionActive]);
      return Promise.resolve() as never;
    };
    await runner.startTransaction();
    await runner.commitTransaction();
    await runner.startTransaction();
    await runner.rollbackTransaction();
    expect(sent).toEqual([
      ['START TRANSACTION', true],
      ['COMMIT', true],
      ['START TRANSACTION', true],
      ['ROLLBACK', true],
    ]);
    expect(runner.isTransactionActive).toBe(false);
  });

  it('connect() takes its connection from driver.obtainMasterConnection (read per call), and release() marks it released', async () => {
    const connection = { release: jest.fn() };
    const original = Object.getOwnPropertyDescriptor(driver, 'obtainMasterConnection');
    driver.obtainMasterConnection = () => Promise.resolve(connection);
    try {
      for (const mode of ['master', 'slave'] as const) {
        const runner = driver.createQueryRunner(mode) as unknown as {
          connect(): Promise<unknown>;
          release(): Promise<void>;
          databaseConnection: unknown;
          isReleased: boolean;
        };
        expect(await runner.connect()).toBe(connection);
        expect(runner.databaseConnection).toBe(connection);
        expect(runner.isReleased).toBe(false);
        await runner.release();
        expect(runner.isReleased).toBe(true);
      }
      expect(connection.release).toHaveBeenCalledTimes(2);
    } finally {
      if (original) Object.defineProperty(driver, 'obtainMasterConnection', original);
      else delete (driver as { obtainMasterConnection?: unknown }).obtainMasterConnection;
    }
  });
});

const silentLogger = (statements: string[]): Logger => ({
  logQuery: (sql) => void statements.push(sql),
  logQueryError: () => undefined,
  logQuerySlow: () => undefined,
  logSchemaBuild: () => undefined,
  logMigration: () => undefined,
  log: () => undefined,
});

const limits = (overrides: Partial<AppConfig['databaseLimits']> = {}) =>
  ({
    databaseLimits: { busyTimeoutMs: 200, queryTimeoutMs: 5000, connectTimeoutMs: 5000, poolSize: 2, ...overrides },
  }) as AppConfig;
const clock = { now: () => Date.now() } as Clock;

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

(process.env.TEST_DB === 'mysql' ? describe : describe.skip)(
  'MySQL as the service prepares it (runs with TEST_DB=mysql)',
  () => {
    let dataSource: DataSource;
    let transactions: TransactionService;
    const stats = () => backgroundContext('library-internals');
    const count = async (name: string) =>
      Number(
        (
          await dataSource.query<{ n: unknown }[]>('SELECT count(*) AS n FROM driver_internals WHERE name = ?', [name])
        )[0].n,
      );

    beforeAll(async () => {
      dataSource = new DataSource({
        type: 'mysql',
        url: process.env.TEST_MYSQL_URL,
        multipleStatements: true,
        extra: { connectionLimit: 1 },
        logger: silentLogger([]),
      });
      await dataSource.initialize();
      await dataSource.query(
        'CREATE TABLE IF NOT EXISTS driver_internals (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(50))',
      );
      transactions = new TransactionService(dataSource, clock, limits({ queryTimeoutMs: 300, connectTimeoutMs: 300 }));
    });
    afterAll(async () => {
      await dataSource.query('DROP TABLE IF EXISTS driver_internals');
      await dataSource.destroy();
    });

    it('every runner’s query is the service’s: START TRANSACTION travels with the first statement', async () => {
      const context = stats();
      await requestContext.run(context, () =>
        transactions.run((tx) => tx.manager.query('INSERT INTO driver_internals (name) VALUES (?)', ['batched'])),
      );
      // START TRANSACTION with the INSERT, then the COMMIT.
      expect(context.stats.sqlRoundTrips).toBe(2);
      expect(await count('batched')).toBe(1);
    });

    it('a transaction is one: a write inside it is gone after its rollback', async () => {
      await expect(
        transactions.run(async (tx) => {
          await tx.manager.query('INSERT INTO driver_internals (name) VALUES (?)', ['rolled back']);
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      expect(await count('rolled back')).toBe(0);
    });

    it('inside a transaction, dataSource.manager is its manager: a write through it is undone with the transaction', async () => {
      const base = dataSource.manager;
      await expect(
        transactions.run(async (tx) => {
          expect(dataSource.manager).toBe(tx.manager);
          await dataSource.manager.query('INSERT INTO driver_internals (name) VALUES (?)', ['joined']);
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      expect(await count('joined')).toBe(0);
      expect(dataSource.manager).toBe(base);
    });

    it('taking a connection has a deadline (obtainMasterConnection wrapped): the pool’s only one is in use', async () => {
      const holder = dataSource.createQueryRunner('master');
      await holder.connect();
      // Freed after 1.5 s in any case: without the deadline the query gets the connection then and succeeds.
      const freed = new Promise((resolve) => setTimeout(resolve, 1500)).then(() => holder.release());
      const waiting = dataSource.createQueryRunner('master');
      try {
        await expect(waiting.query('SELECT 1')).rejects.toBeInstanceOf(DatabaseUnavailableError);
      } finally {
        await freed;
        await waiting.release();
      }
    });

    it('a statement past the query time-out fails with mysql2’s PROTOCOL_SEQUENCE_TIMEOUT', async () => {
      const failure = (await dataSource.query('SELECT SLEEP(1)').catch((error: unknown) => error)) as QueryFailedError;
      expect(failure).toBeInstanceOf(QueryFailedError);
      expect((failure.driverError as { code?: string }).code).toBe('PROTOCOL_SEQUENCE_TIMEOUT');
      // The connection was dropped, not returned busy: the next statement runs at once.
      expect(await dataSource.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    });
  },
);

describe('class-validator: the metadata storage the validation memo replaces and the OpenAPI polish reads', () => {
  class Probe {
    @IsIn(['a', 'b'])
    kind!: string;
  }
  const storage = getMetadataStorage();
  /** Private in the library's types: src/openapi/document-polish.ts reads it. */
  const byClass = () =>
    (storage as unknown as { validationMetadatas: Map<Function, ValidationMetadata[]> }).validationMetadatas;
  beforeAll(() => memoizeValidationMetadata());

  it('the storage methods keep their arity', () => {
    expect(storage.getTargetValidationMetadatas).toHaveLength(5);
    expect(storage.groupByPropertyName).toHaveLength(1);
    expect(storage.addValidationMetadata).toHaveLength(1);
  });

  it('validate() looks rules up through the storage object, once per call, and the memo answers the same array', async () => {
    const { getTargetValidationMetadatas: memoized, groupByPropertyName: grouping } = storage;
    const lookup = memoized.bind(storage);
    const group = grouping.bind(storage);
    const calls: string[] = [];
    storage.getTargetValidationMetadatas = (...args) => {
      calls.push('lookup');
      return lookup(...args);
    };
    storage.groupByPropertyName = (metadatas) => {
      calls.push('group');
      return group(metadatas);
    };
    try {
      expect(await validate(Object.assign(new Probe(), { kind: 'c' }))).toHaveLength(1);
    } finally {
      storage.getTargetValidationMetadatas = memoized;
      storage.groupByPropertyName = grouping;
    }
    expect(calls).toEqual(['lookup', 'group']);
    expect(storage.getTargetValidationMetadatas(Probe, '', false, false)).toBe(
      storage.getTargetValidationMetadatas(Probe, '', false, false),
    );
  });

  it('validationMetadatas is a Map by class holding @IsIn as name isIn with its list', () => {
    expect(byClass()).toBeInstanceOf(Map);
    const [rule] = byClass().get(Probe) ?? [];
    expect([rule?.name, rule?.propertyName, rule?.constraints?.[0]]).toEqual(['isIn', 'kind', ['a', 'b']]);
  });
});

describe('Node: the shutdown grace for idle connections', () => {
  it('server.close() calls the instance’s closeIdleConnections (shutdownApp replaces it for a while)', async () => {
    const server = new Server();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    let called = 0;
    server.closeIdleConnections = () => void (called += 1);
    await new Promise((resolve) => server.close(resolve));
    expect(called).toBe(1);
  });
});
