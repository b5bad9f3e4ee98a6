import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface BacklogFacts {
  /** Events not yet delivered to every subscriber (and not given up). */
  pendingEvents: number;
  /** occurred_at (ms) of the oldest of them, or null. */
  oldestPendingEventAt: number | null;
  /** Jobs by status, queued and running only. */
  jobs: { queued: number; running: number };
}

/** The two backlog figures of /metrics, read with two aggregate statements on indexed columns. */
@Injectable()
export class OperationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async backlog(): Promise<BacklogFacts> {
    const [events] = await this.dataSource.query<{ pending: number | string; oldest: number | string | null }[]>(
      'SELECT COUNT(*) AS pending, MIN(occurred_at) AS oldest FROM domain_events WHERE dispatched_at IS NULL AND failed_at IS NULL',
    );
    const jobs = await this.dataSource.query<{ status: string; n: number | string }[]>(
      "SELECT status, COUNT(*) AS n FROM jobs WHERE status IN ('queued', 'running') GROUP BY status",
    );
    const count = (status: string) => Number(jobs.find((row) => row.status === status)?.n ?? 0);
    return {
      pendingEvents: Number(events?.pending ?? 0),
      oldestPendingEventAt: events?.oldest === null || events?.oldest === undefined ? null : Number(events.oldest),
      jobs: { queued: count('queued'), running: count('running') },
    };
  }
}
