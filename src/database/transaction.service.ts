import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { EventBus, type DomainEvent } from '../common/events/event-bus';

export interface Transaction {
  manager: EntityManager;
  /** Queues an event; it is published only if the transaction commits. */
  publish(event: DomainEvent): void;
}

const RETRYABLE_MYSQL = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']);
const MAX_ATTEMPTS = 5;
const backoff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, 5 * 2 ** attempt + Math.random() * 20));

/**
 * Every multi-row write runs through here: one transaction, retried with jittered backoff on MySQL
 * deadlocks and lock timeouts, events after
 * commit. SQLite has a single connection in TypeORM, so its transactions are queued one at a time.
 */
@Injectable()
export class TransactionService {
  private sqliteQueue: Promise<unknown> = Promise.resolve();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: EventBus,
  ) {}

  async run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    if (this.dataSource.options.type !== 'better-sqlite3') return this.runWithRetry(work);
    const next = this.sqliteQueue.then(() => this.runOnce(work));
    this.sqliteQueue = next.catch(() => undefined);
    return next;
  }

  private async runWithRetry<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.runOnce(work);
      } catch (error) {
        const code = (error as { driverError?: { code?: string }; code?: string }).driverError?.code;
        if (attempt >= MAX_ATTEMPTS || !code || !RETRYABLE_MYSQL.has(code)) throw error;
        await backoff(attempt);
      }
    }
  }

  private async runOnce<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const queued: DomainEvent[] = [];
    const result = await this.dataSource.transaction((manager) =>
      work({ manager, publish: (event) => queued.push(event) }),
    );
    for (const event of queued) this.events.publish(event);
    return result;
  }
}
