import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { insertRows } from '../../database/insert';
import { placeholders, SqlReader, type SqlRow } from '../../database/sql-reader';
import { DomainEventEntity } from './entities/domain-event.entity';
import { EventDeliveryEntity } from './entities/event-delivery.entity';
import { Database } from '../../database/database';

/**
 * All SQL of the outbox and its deliveries. The dispatcher's statements run after every write, so the
 * frequent ones are hand-written (the query builder cost more CPU than the statements).
 */
@Injectable()
export class OutboxRepository {
  private readonly sql: SqlReader;
  private readonly hydrateEvent: (row: SqlRow) => DomainEventEntity;
  private readonly pendingSql: string;

  private readonly database: Database;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.database = new Database(dataSource);
    this.sql = new SqlReader(dataSource);
    this.hydrateEvent = this.sql.hydrator(DomainEventEntity);
    const columns = dataSource
      .getMetadata(DomainEventEntity)
      .columns.map((c) => `e.${c.databaseName}`)
      .join(', ');
    this.pendingSql = `SELECT ${columns} FROM domain_events e WHERE e.dispatched_at IS NULL AND e.failed_at IS NULL AND e.eventid > ? ORDER BY e.eventid ASC LIMIT ?`;
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  /**
   * Events after `afterEventid` not yet delivered to every subscriber (given up ones excluded), the oldest
   * first (index idx_domain_events_pending).
   */
  async pending(limit: number, afterEventid = 0): Promise<DomainEventEntity[]> {
    return (await this.sql.rows(this.pendingSql, [afterEventid, limit])).map(this.hydrateEvent);
  }

  /** `subscriber\u0000eventid` of the deliveries already made for these events (index idx_event_deliveries_event). */
  async delivered(eventids: number[]): Promise<Set<string>> {
    if (!eventids.length) return new Set();
    const rows = await this.sql.rows<{ subscriber: string; eventid: number | string }>(
      `SELECT d.subscriber AS subscriber, d.eventid AS eventid FROM event_deliveries d WHERE d.eventid IN (${placeholders(eventids)})`,
      eventids,
    );
    return new Set(rows.map((row) => `${row.subscriber}\u0000${Number(row.eventid)}`));
  }

  /** Records a delivery in the current (the subscriber's) transaction; a duplicate key means it was made. */
  async recordDelivery(subscriber: string, eventid: number, at: number): Promise<void> {
    await this.recordDeliveries(subscriber, [eventid], at);
  }

  async recordDeliveries(subscriber: string, eventids: number[], at: number): Promise<void> {
    await insertRows(
      this.manager,
      EventDeliveryEntity,
      eventids.map((eventid) => ({ subscriber, eventid, deliveredAt: at })),
    );
  }

  async markDispatched(eventids: number[], at: number): Promise<void> {
    if (!eventids.length) return;
    await this.manager.query(
      `UPDATE domain_events SET dispatched_at = ? WHERE eventid IN (${placeholders(eventids)}) AND dispatched_at IS NULL`,
      [at, ...eventids],
    );
  }

  async recordFailure(eventid: number, error: string, nextAttemptAt: number, giveUpAt: number | null): Promise<void> {
    await this.manager
      .createQueryBuilder()
      .update(DomainEventEntity)
      .set({
        attempts: () => 'attempts + 1',
        lastError: error.slice(0, 1000),
        nextAttemptAt,
        ...(giveUpAt === null ? {} : { failedAt: giveUpAt }),
      })
      .where('eventid = :eventid', { eventid })
      .execute();
  }

  /** Events waiting for delivery, and how old the oldest is (ms), for metrics and health. */
  async backlog(now: number): Promise<{ count: number; oldestAgeMs: number }> {
    const row = await this.manager
      .createQueryBuilder(DomainEventEntity, 'e')
      .select('COUNT(*)', 'count')
      .addSelect('MIN(e.occurred_at)', 'oldest')
      .where('e.dispatched_at IS NULL AND e.failed_at IS NULL')
      .getRawOne<{ count: number | string; oldest: number | string | null }>();
    const oldest = row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest);
    return { count: Number(row?.count ?? 0), oldestAgeMs: oldest === null ? 0 : Math.max(0, now - oldest) };
  }
}
