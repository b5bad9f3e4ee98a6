import { DataSource, QueryFailedError } from 'typeorm';
import { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import { MysqlQueryRunner } from 'typeorm/driver/mysql/MysqlQueryRunner';
import { backgroundContext, requestContext } from '../../../common/context/request-context';
import { DatabaseUnavailableError } from '../../errors';
import { TransactionService } from '../../transaction.service';
import { clock, limits, silentLogger } from '../internals-test-helpers';

/** The MySQL driver's library internals (see ../README.md and ../library-internals.spec.ts). */

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
