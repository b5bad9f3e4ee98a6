import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { requestContext, type ActiveTransaction } from '../common/context/request-context';
import type { DomainEvent } from '../platform/events/domain-event';
import { DomainEventEntity } from '../platform/events/entities/domain-event.entity';
import { outboxRows } from '../platform/events/outbox-rows';
import { DatabaseUnavailableError, isDatabaseUnavailable } from './errors';
import { insertRows } from './insert';
import { Clock } from '../platform/clock/clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { prepareDataSource, sqliteTransactionsOf } from './database-connection';

/** The open transaction as work inside it sees it. */
export interface Transaction extends ActiveTransaction {
  readonly manager: EntityManager;
  /** Writes the event to the outbox in this transaction; subscribers get it after commit. */
  publish(event: DomainEvent): void;
}

interface OpenTransaction extends Transaction {
  readonly events: DomainEvent[];
  readonly committed: (() => void | Promise<void>)[];
  readonly committing: (() => Promise<void>)[];
}

const RETRYABLE_MYSQL = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']);
const MAX_ATTEMPTS = 5;
const isRetryable = (error: unknown): boolean => {
  const code = (error as { driverError?: { code?: string } }).driverError?.code;
  return code !== undefined && RETRYABLE_MYSQL.has(code);
};
const backoff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, 5 * 2 ** attempt + Math.random() * 20));

/**
 * Every write runs through here: one transaction per piece of work, carried by the request context so
 * that anything called inside it (a repository through `Database`, a nested `run`) joins it (docs/transactions.md).
 * Events published inside are written to the outbox before COMMIT; after-commit tasks and event
 * delivery run only once the outermost transaction has committed. MySQL deadlocks and lock timeouts
 * retry the whole work with jittered backoff; SQLite transactions are serialized by the connection
 * gate and begin IMMEDIATE.
 */
@Injectable()
export class TransactionService {
  private readonly logger = new Logger('Transactions');
  private readonly eventListeners: (() => void)[] = [];
  /** Whether an event of this name has a subscriber (until the dispatcher says, every event is assumed to). */
  private isSubscribed: (name: string) => boolean = () => true;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    // The connection is prepared for transactions here, before any work can run on it.
    prepareDataSource(dataSource, config.databaseLimits);
  }

  /**
   * Called after a transaction that published events with a subscriber has committed (the event dispatcher
   * listens). Events nobody subscribes to are stored already dispatched, and wake nobody.
   */
  onEventsCommitted(listener: () => void, isSubscribed: (name: string) => boolean): void {
    this.eventListeners.push(listener);
    this.isSubscribed = isSubscribed;
  }

  /** The transaction the current work runs in, if any. */
  current(): Transaction | undefined {
    return requestContext.current()?.tx as Transaction | undefined;
  }

  async run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const open = this.current();
    if (open) return work(open);
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.runOnce(work);
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || !isRetryable(error)) throw error;
        await backoff(attempt);
      }
    }
  }

  /**
   * One write statement, retried like run() on a MySQL deadlock or lock wait. On MySQL it runs on its own
   * (autocommit: no BEGIN and COMMIT round trips); on SQLite, and inside an open transaction, it runs through
   * run() (on SQLite a transaction of its own can share a group commit). It may publish no event.
   */
  async single<T>(work: () => Promise<T>): Promise<T> {
    if (this.current() || sqliteTransactionsOf(this.dataSource)) return this.run(() => work());
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await work();
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || !isRetryable(error)) throw error;
        await backoff(attempt);
      }
    }
  }

  private async runOnce<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const sqlite = sqliteTransactionsOf(this.dataSource);
    const token = Symbol('transaction');
    let result: T;
    let tx: OpenTransaction;
    if (sqlite) {
      await sqlite.begin(token);
      tx = this.open(token, this.baseManager());
      try {
        result = await requestContext.withTransaction(tx, () => this.work(tx, work));
        await sqlite.commit(token);
      } catch (error) {
        await sqlite.rollback(token);
        throw error;
      }
    } else {
      const runner = this.dataSource.createQueryRunner('master');
      try {
        await runner.connect();
        await runner.startTransaction();
        tx = this.open(token, runner.manager);
        try {
          result = await requestContext.withTransaction(tx, () => this.work(tx, work));
        } catch (error) {
          await runner.rollbackTransaction().catch(() => undefined);
          throw error;
        }
        await this.commitMysql(runner);
      } finally {
        await runner.release().catch(() => undefined);
      }
    }
    const stats = requestContext.current()?.stats;
    if (stats) stats.commits = (stats.commits ?? 0) + 1;
    await this.afterCommit(tx);
    return result;
  }

  /** The work, its before-commit tasks, then its events into the outbox, inside the transaction. */
  private async work<T>(tx: OpenTransaction, work: (tx: Transaction) => Promise<T>): Promise<T> {
    const result = await work(tx);
    for (let i = 0; i < tx.committing.length; i += 1) await tx.committing[i]();
    // A deferred write: on MySQL it travels with the COMMIT.
    if (tx.events.length)
      await insertRows(tx.manager, DomainEventEntity, outboxRows(tx.events, this.clock.now(), this.isSubscribed), {
        deferred: true,
      });
    return result;
  }

  private async commitMysql(runner: { commitTransaction(): Promise<void> }): Promise<void> {
    try {
      await runner.commitTransaction();
    } catch (error) {
      if (isDatabaseUnavailable(error)) {
        // The COMMIT may or may not have been applied: the client gets a 503 and must check.
        this.logger.error(
          { err: error, requestId: requestContext.current()?.requestId },
          'COMMIT outcome unknown: the connection failed during COMMIT',
        );
        throw new DatabaseUnavailableError(
          'The database connection failed during COMMIT; the outcome is unknown',
          error,
          'The database connection failed while the change was being committed: it may or may not have been ' +
            'saved. Read the resource again before repeating the request.',
        );
      }
      throw error;
    }
  }

  private open(token: symbol, manager: EntityManager): OpenTransaction {
    const events: DomainEvent[] = [];
    const committed: (() => void | Promise<void>)[] = [];
    const committing: (() => Promise<void>)[] = [];
    return {
      manager,
      token,
      events,
      committed,
      committing,
      publish: (event) => void events.push(event),
      afterCommit: (task) => void committed.push(task),
      beforeCommit: (task) => void committing.push(task),
    };
  }

  private async afterCommit(tx: OpenTransaction): Promise<void> {
    if (tx.events.some((event) => this.isSubscribed(event.name))) this.eventListeners.forEach((listener) => listener());
    for (const task of tx.committed) {
      try {
        await requestContext.outsideTransaction(task);
      } catch (error) {
        this.logger.error({ err: error }, 'an after-commit task failed');
      }
    }
  }

  /** The data source's own manager (the getter answers the open transaction's manager instead). */
  private baseManager(): EntityManager {
    return requestContext.outsideTransaction(() => this.dataSource.manager);
  }
}
