import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeClock } from '../../src/platform/clock/clock';
import { DomainEventEntity } from '../../src/platform/events/entities/domain-event.entity';
import { JobEntity } from '../../src/platform/jobs/entities/job.entity';
import { createUser } from '../factories/user.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

const METRICS_TOKEN = 'metrics-secret-0123456789';
const version = (JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as { version: string })
  .version;

/** The value of one sample line `name{labels} value` of a Prometheus text body, or undefined. */
function sample(body: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of body.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const matches = Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`));
    if (matches) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('API index, health probes and metrics', () => {
  const clock = new FakeClock(Date.UTC(2026, 5, 1));
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN }, platform: { clock } });
  });
  afterAll(() => t.close());

  it('GET /api/2.0 answers an index with the version and links', async () => {
    for (const url of ['/api/2.0', '/api/2.0/']) {
      const res = await t.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        name: 'Repair Guide Content Service',
        version,
        api: '2.0',
        links: {
          docs: 'http://guides.test/api/2.0/docs',
          openapi: 'http://guides.test/api/2.0/openapi.json',
          health: 'http://guides.test/health',
          guides: 'http://guides.test/api/2.0/guides',
          wikis: 'http://guides.test/api/2.0/wikis/CATEGORY',
          login: 'http://guides.test/api/2.0/user/token',
        },
      });
    }
  });

  it('/health/live and /health/ready answer beside /health, outside the API prefix', async () => {
    for (const url of ['/health', '/health/live', '/health/ready']) {
      const res = await t.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
    }
    expect((await t.inject({ method: 'GET', url: '/api/2.0/health/ready' })).statusCode).toBe(404);
  });

  it('/metrics refuses a missing, wrong or API token with 401', async () => {
    const { token } = await createUser(t, { privilege: 'Admin' });
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', `api ${token}`, METRICS_TOKEN]) {
      const res = await t.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: true });
    }
  });

  it('/metrics counts requests by route pattern and status, with durations', async () => {
    const before = await t.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const labels = { method: 'GET', route: '/api/2.0/guides/:guideid', status: '404' };
    const count = sample(before.body, 'http_requests_total', labels) ?? 0;
    await t.inject({ method: 'GET', url: '/api/2.0/guides/999999' });
    await t.inject({ method: 'GET', url: '/api/2.0/guides/999998' });

    const res = await t.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sample(res.body, 'http_requests_total', labels)).toBe(count + 2);
    expect(sample(res.body, 'http_request_duration_seconds_count', labels)).toBe(count + 2);
    expect(sample(res.body, 'http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(count + 2);
    expect(sample(res.body, 'db_pool_connections', { state: 'size' })).toBeGreaterThanOrEqual(1);
    expect(sample(res.body, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('/metrics reports the outbox backlog and its lag, and the job queue depth', async () => {
    const manager = t.dataSource.manager;
    await manager.createQueryBuilder().delete().from(DomainEventEntity).execute();
    await manager.createQueryBuilder().delete().from(JobEntity).execute();
    const scrape = async () =>
      (await t.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;

    const idle = await scrape();
    expect(sample(idle, 'outbox_pending_events')).toBe(0);
    expect(sample(idle, 'outbox_lag_seconds')).toBe(0);
    expect(sample(idle, 'jobs_queue_depth', { status: 'queued' })).toBe(0);

    const event = { name: 'probe.pinged', entityType: 'probe', entityId: '1', payload: {}, requestId: null };
    await manager.insert(DomainEventEntity, [
      { ...event, occurredAt: clock.now() - 90_000, dispatchedAt: null },
      { ...event, occurredAt: clock.now() - 10_000, dispatchedAt: null },
      { ...event, occurredAt: clock.now() - 500_000, dispatchedAt: clock.now() - 400_000 },
    ]);
    const job = { name: 'probe', payload: {}, runAt: clock.now(), maxAttempts: 3, createdAt: clock.now() };
    await manager.insert(JobEntity, [
      { ...job, status: 'queued' },
      { ...job, status: 'queued' },
      { ...job, status: 'running' },
      { ...job, status: 'done' },
    ]);

    const busy = await scrape();
    expect(sample(busy, 'outbox_pending_events')).toBe(2);
    expect(sample(busy, 'outbox_lag_seconds')).toBe(90);
    expect(sample(busy, 'jobs_queue_depth', { status: 'queued' })).toBe(2);
    expect(sample(busy, 'jobs_queue_depth', { status: 'running' })).toBe(1);
  });

  it('without METRICS_TOKEN /metrics answers 404, token or not', async () => {
    const plain = await createTestApp({ keepData: true });
    try {
      for (const headers of [{}, { authorization: `Bearer ${METRICS_TOKEN}` }]) {
        const res = await plain.inject({ method: 'GET', url: '/metrics', headers });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: true, message: 'Not found' });
      }
    } finally {
      await plain.close();
    }
  });

  it('/health/ready answers 503 when the database is gone, while /health/live still answers 200', async () => {
    const doomed = await createTestApp({ keepData: true });
    await doomed.dataSource.destroy();
    try {
      const ready = await doomed.inject({ method: 'GET', url: '/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable' });
      const live = await doomed.inject({ method: 'GET', url: '/health/live' });
      expect(live.statusCode).toBe(200);
    } finally {
      await doomed.close().catch(() => undefined);
    }
  });
});
