import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { databasePool } from './database-pool';
import { OperationsRepository, type BacklogFacts } from './operations.repository';

/** Seconds; covers a cached read (ms) to a slow upload or report. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The Prometheus registry of one application instance: request count and duration by route pattern,
 * method and status (counted in an onResponse hook), the database pool, the outbox backlog and lag, the
 * job queue, and Node's process metrics. Gauges are read when scraped.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route' | 'status'>;
  private backlog: BacklogFacts = { pendingEvents: 0, oldestPendingEventAt: null, jobs: { queued: 0, running: 0 } };

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: OperationsRepository,
    private readonly clock: Clock,
  ) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.durations = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    const pool = new Gauge({
      name: 'db_pool_connections',
      help: 'Database connections by state (size: the most the pool opens; SQLite has one).',
      labelNames: ['state'],
      registers,
      collect: () => {
        const facts = databasePool(this.dataSource);
        for (const state of ['size', 'open', 'idle', 'waiting'] as const) pool.set({ state }, facts[state]);
      },
    });
    // One read per scrape (in metrics()) serves the three backlog gauges.
    const read = () => this.backlog;
    new Gauge({
      name: 'outbox_pending_events',
      help: 'Domain events not yet delivered to every subscriber.',
      registers,
      collect() {
        this.set(read().pendingEvents);
      },
    });
    const now = () => this.clock.now();
    new Gauge({
      name: 'outbox_lag_seconds',
      help: 'Age of the oldest undelivered domain event (0 when none).',
      registers,
      collect() {
        const oldest = read().oldestPendingEventAt;
        this.set(oldest === null ? 0 : Math.max(0, (now() - oldest) / 1000));
      },
    });
    new Gauge({
      name: 'jobs_queue_depth',
      help: 'Background jobs by status (queued, running).',
      labelNames: ['status'],
      registers,
      collect() {
        const { jobs } = read();
        this.set({ status: 'queued' }, jobs.queued);
        this.set({ status: 'running' }, jobs.running);
      },
    });
    collectDefaultMetrics({ register: this.registry });
  }

  /** Counts every response, including errors raised before a handler (labelled by the matched pattern). */
  attach(fastify: FastifyInstance): void {
    fastify.addHook('onResponse', (request, reply, done) => {
      const labels = {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      };
      this.requests.inc(labels);
      this.durations.observe(labels, reply.elapsedTime / 1000);
      done();
    });
  }

  async metrics(): Promise<string> {
    this.backlog = await this.repository.backlog();
    return this.registry.metrics();
  }
}
