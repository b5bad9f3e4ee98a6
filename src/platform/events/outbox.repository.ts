import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, IsNull } from 'typeorm';
import { DomainEventEntity } from './entities/domain-event.entity';
import { EventDeliveryEntity } from './entities/event-delivery.entity';

/** All SQL of the outbox and its deliveries. */
@Injectable()
export class OutboxRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The oldest events not yet delivered to every subscriber (given up ones excluded), in eventid order. */
  pending(limit: number): Promise<DomainEventEntity[]> {
    return this.dataSource.manager.find(DomainEventEntity, {
      where: { dispatchedAt: IsNull(), failedAt: IsNull() },
      order: { eventid: 'ASC' },
      take: limit,
    });
  }

  /** `subscriber\u0000eventid` of the deliveries already made for these events. */
  async delivered(eventids: number[]): Promise<Set<string>> {
    if (!eventids.length) return new Set();
    const rows = await this.dataSource.manager.find(EventDeliveryEntity, {
      select: { subscriber: true, eventid: true },
      where: { eventid: In(eventids) },
    });
    return new Set(rows.map((row) => `${row.subscriber}\u0000${row.eventid}`));
  }

  /** Records a delivery in the current (the subscriber's) transaction; a duplicate key means it was made. */
  async recordDelivery(subscriber: string, eventid: number, at: number): Promise<void> {
    await this.dataSource.manager.insert(EventDeliveryEntity, { subscriber, eventid, deliveredAt: at });
  }

  async recordDeliveries(subscriber: string, eventids: number[], at: number): Promise<void> {
    await this.dataSource.manager.insert(
      EventDeliveryEntity,
      eventids.map((eventid) => ({ subscriber, eventid, deliveredAt: at })),
    );
  }

  async markDispatched(eventids: number[], at: number): Promise<void> {
    if (!eventids.length) return;
    await this.dataSource.manager.update(
      DomainEventEntity,
      { eventid: In(eventids), dispatchedAt: IsNull() },
      {
        dispatchedAt: at,
      },
    );
  }

  async recordFailure(eventid: number, error: string, nextAttemptAt: number, giveUpAt: number | null): Promise<void> {
    await this.dataSource.manager
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
    const row = await this.dataSource.manager
      .createQueryBuilder(DomainEventEntity, 'e')
      .select('COUNT(*)', 'count')
      .addSelect('MIN(e.occurred_at)', 'oldest')
      .where('e.dispatched_at IS NULL AND e.failed_at IS NULL')
      .getRawOne<{ count: number | string; oldest: number | string | null }>();
    const oldest = row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest);
    return { count: Number(row?.count ?? 0), oldestAgeMs: oldest === null ? 0 : Math.max(0, now - oldest) };
  }
}
