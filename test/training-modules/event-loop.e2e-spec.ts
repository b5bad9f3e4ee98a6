import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { zipBuffer } from '../../src/modules/training-modules/zip-writer';
import type { TrainingImportDto } from '../../src/modules/training-modules/dto/training-response.dto';
import { freePort, startService, tempDir, type ServiceProcess } from '../startup/spawn-service';
import { BASE, cmi5Au, cmi5Course, PAGE, scorm12Package } from './training-kit';

setFlagsFromString('--expose-gc');
/** A full collection, so that the garbage the test made building its packages is not collected while it measures. */
const collectGarbage = runInNewContext('gc') as () => void;

const POLL_MS = 50;
/** The most any answer may be held up by an import. */
const MAX_DELAY_MS = 100;
/**
 * The most time between two answers: a poll, its answer held up to MAX_DELAY_MS, and the poller's own timer, which
 * a machine busy with other processes fires some milliseconds late (154 ms seen with nothing held). An import
 * that holds the loop shows seconds here.
 */
const MAX_GAP_MS = POLL_MS + MAX_DELAY_MS + 50;

/** A SCORM descriptor of about 4 MiB: one SCO and 40,000 asset resources (parsing it takes seconds of CPU). */
function heavyManifest(): string {
  const assets = Array.from(
    { length: 40_000 },
    (_, i) => `<resource identifier="asset${i}" type="webcontent" adlcp:scormtype="asset" href="media/f${i}.png"/>`,
  ).join('');
  return `<?xml version="1.0"?>
<manifest identifier="heavy" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schemaversion>1.2</schemaversion></metadata>
  <organizations default="o"><organization identifier="o"><title>Heavy</title>
    <item identifier="i" identifierref="sco"><title>Lesson</title></item></organization></organizations>
  <resources><resource identifier="sco" adlcp:scormtype="sco" href="index.html"/>${assets}</resources>
</manifest>`;
}

/**
 * Issue 42 point 2: packages whose checks cost CPU time (9,000 AUs, a descriptor of megabytes) are parsed and
 * checked off the event loop. `/health` is polled every 50 ms on a real listening server while the import
 * runs: every answer comes back within 100 ms, and no gap between answers exceeds MAX_GAP_MS.
 */
describe('an import does not hold the event loop (the built service, /health polled)', () => {
  // The service runs as its own process (as in production): the test process's own collections do not count.
  let service: ServiceProcess;
  let base: string;
  let token: string;
  const ADMIN = { email: 'admin@event-loop.test', password: 'event loop admin password 7' };

  const api = async (method: string, path: string, body?: Buffer | object) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `api ${token}`,
        ...(body === undefined
          ? {}
          : { 'content-type': Buffer.isBuffer(body) ? 'application/zip' : 'application/json' }),
      },
      body: body === undefined ? undefined : Buffer.isBuffer(body) ? body : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  const draftWithImport = async (title: string): Promise<number> => {
    const created = await api('POST', `${BASE}/drafts`, { title });
    expect(created.status).toBe(201);
    const imp = await api('POST', `${BASE}/imports`, { moduleid: created.body.moduleid });
    expect(imp.status).toBe(201);
    return imp.body.importid as number;
  };

  /** Uploads the package and waits for the import job (run by the service) to end. */
  const importPackage = async (importid: number, data: Buffer): Promise<TrainingImportDto> => {
    expect((await api('POST', `${BASE}/imports/${importid}/start/byUpload`, data)).status).toBe(202);
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(100)) {
      const { body } = await api('GET', `${BASE}/imports/${importid}/progress`);
      if (['complete', 'failed', 'cancelled'].includes(body.status as string))
        return body as unknown as TrainingImportDto;
    }
    throw new Error(`import ${importid} did not end within 60 s`);
  };

  beforeAll(async () => {
    const dir = tempDir();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    service = startService({
      PORT: String(port),
      NODE_ENV: 'production',
      SIGNING_SECRET: 'event-loop-test-signing-secret-0123456789',
      DB_PATH: join(dir, 'app.sqlite'),
      MEDIA_DIR: join(dir, 'media'),
      TRAINING_DIR: join(dir, 'training'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_API_MAX: '100000',
    });
    for (const deadline = Date.now() + 60_000; ; await sleep(100)) {
      if ((await fetch(`${base}/health`).catch(() => null))?.status === 200) break;
      if (Date.now() > deadline || service.child.exitCode !== null) throw new Error(`no start: ${service.output()}`);
    }
    const login = await fetch(`${base}/api/2.0/user/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    token = ((await login.json()) as { authToken: string }).authToken;
    // Warm up (the first request through each path loads and compiles its code): the measure is the import's.
    for (let i = 0; i < 5; i += 1) await (await fetch(`${base}/health`)).arrayBuffer();
    const warm = await importPackage(await draftWithImport('Warm-up'), await scorm12Package());
    if (warm.status !== 'complete') throw new Error(`warm-up import: ${JSON.stringify(warm)}`);
  }, 90_000);
  afterAll(async () => {
    service.child.kill('SIGTERM');
    await service.exited;
  });

  async function pollWhile(work: () => Promise<void>): Promise<{ latencies: number[]; gaps: number[] }> {
    collectGarbage();
    let running = true;
    const latencies: number[] = [];
    const answers: number[] = [];
    const poller = (async () => {
      while (running) {
        const sent = performance.now();
        const response = await fetch(`${base}/health`);
        await response.arrayBuffer();
        const at = performance.now();
        expect(response.status).toBe(200);
        latencies.push(Math.round(at - sent));
        answers.push(at);
        await sleep(POLL_MS);
      }
    })();
    try {
      await work();
    } finally {
      running = false;
      await poller;
    }
    return { latencies, gaps: answers.slice(1).map((at, i) => Math.round(at - answers[i])) };
  }

  const slow = (values: number[], limit: number) => values.filter((v) => v > limit);

  /**
   * Runs `attempt` (an import polled by pollWhile) up to three times and answers the first measure with no answer
   * later than MAX_DELAY_MS, or the last. An import that holds the event loop is late in every attempt (seconds, as
   * before the checks ran off the loop); a machine busy with other processes is late now and then, not thrice.
   */
  async function leastDelayed(attempt: () => Promise<{ latencies: number[]; gaps: number[] }>) {
    let measure = await attempt();
    for (
      let i = 1;
      i < 3 && (slow(measure.latencies, MAX_DELAY_MS).length || slow(measure.gaps, MAX_GAP_MS).length);
      i += 1
    )
      measure = await attempt();
    return measure;
  }

  it('9,000 AUs (a zip of some 30 KB): TOO_MANY_SCOS, /health answered within 100 ms throughout', async () => {
    const aus = Array.from({ length: 9000 }, (_, i) => cmi5Au(`https://example.test/au/${i}`, 'index.html')).join('');
    const data = await zipBuffer([
      { name: 'cmi5.xml', data: cmi5Course(aus) },
      { name: 'index.html', data: PAGE },
    ]);
    const { latencies, gaps } = await leastDelayed(async () => {
      const importid = await draftWithImport('9,000 AUs');
      let result: TrainingImportDto | undefined;
      const measure = await pollWhile(async () => {
        result = await importPackage(importid, data);
      });
      expect(result).toMatchObject({ status: 'failed', error: { code: 'TOO_MANY_SCOS' } });
      return measure;
    });
    expect(latencies.length).toBeGreaterThan(0);
    expect(slow(latencies, MAX_DELAY_MS)).toEqual([]);
    expect(slow(gaps, MAX_GAP_MS)).toEqual([]);
  });

  it('a 4 MiB descriptor of 40,000 resources imports while /health is answered within 100 ms', async () => {
    const data = await zipBuffer([
      { name: 'imsmanifest.xml', data: heavyManifest() },
      { name: 'index.html', data: PAGE },
    ]);
    const { latencies, gaps } = await leastDelayed(async () => {
      const importid = await draftWithImport('Heavy descriptor');
      let result: TrainingImportDto | undefined;
      const measure = await pollWhile(async () => {
        result = await importPackage(importid, data);
      });
      expect(result?.error).toBeNull();
      expect(result).toMatchObject({ status: 'complete' });
      return measure;
    });
    expect(latencies.length).toBeGreaterThan(5);
    expect(slow(latencies, MAX_DELAY_MS)).toEqual([]);
    expect(slow(gaps, MAX_GAP_MS)).toEqual([]);
  });
});
