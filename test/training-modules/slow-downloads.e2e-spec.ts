import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { zipBuffer } from '../../src/modules/training-modules/zip-writer';
import {
  BASE,
  draftWithImport,
  drainJobs,
  PAGE,
  progress,
  scorm12Manifest,
  scorm12Package,
  startTrainingApp,
  upload,
  type TrainingTest,
} from './training-kit';

/** Sends `data` in `chunk`-byte pieces, one every `everyMs`, until done or the client goes away. */
function trickle(response: ServerResponse, data: Buffer, chunk: number, everyMs: number): void {
  response.writeHead(200, { 'content-type': 'application/zip', 'content-length': data.length });
  let at = 0;
  const timer = setInterval(() => {
    response.write(data.subarray(at, at + chunk));
    at += chunk;
    if (at >= data.length) {
      clearInterval(timer);
      response.end();
    }
  }, everyMs);
  response.on('close', () => clearInterval(timer));
}

/**
 * Issue 42 point 8: a remote that sends a byte now and then no longer holds an import slot for the whole time
 * limit (10 minutes): below TRAINING_DOWNLOAD_MIN_RATE over a window of TRAINING_DOWNLOAD_RATE_WINDOW seconds
 * the download fails; bytes_done shows the bytes as they arrive. A real slow server on loopback, a 1 s window.
 */
describe('slow byUrl downloads (T9)', () => {
  let k: TrainingTest;
  let server: Server;
  let port: number;
  let steady: Buffer;

  beforeAll(async () => {
    const pkg = await scorm12Package();
    steady = await zipBuffer([
      { name: 'imsmanifest.xml', data: scorm12Manifest() },
      { name: 'index.html', data: PAGE },
      { name: 'media.bin', data: randomBytes(96 * 1024), store: true },
    ]);
    server = createServer((request, response) => {
      // One byte every 200 ms: 5 bytes/s.
      if (request.url === '/slow.zip') return trickle(response, pkg, 1, 200);
      // 8 KiB every 100 ms: 80 KiB/s, above the floor.
      if (request.url === '/steady.zip') return trickle(response, steady, 8192, 100);
      response.writeHead(404);
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    k = await startTrainingApp({
      TRAINING_URL_ALLOW: `127.0.0.1:${port}`,
      TRAINING_DOWNLOAD_MIN_RATE: '10240',
      TRAINING_DOWNLOAD_RATE_WINDOW: '1',
    });
  });
  afterAll(async () => {
    await k.t.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const byUrl = (importid: number, path: string) =>
    k.t.as(k.admin.token, {
      method: 'POST',
      url: `${BASE}/imports/${importid}/start/byUrl`,
      payload: { url: `http://127.0.0.1:${port}${path}` },
    });

  it('two trickling remotes fail with DOWNLOAD_FAILED within seconds; the upload queued behind them completes', async () => {
    const slow = [await draftWithImport(k, 'Trickle 1'), await draftWithImport(k, 'Trickle 2')];
    for (const { importid } of slow) expect((await byUrl(importid, '/slow.zip')).statusCode).toBe(202);
    const waiting = await draftWithImport(k, 'Upload behind them');
    expect((await upload(k, waiting.importid, await scorm12Package())).statusCode).toBe(202);
    const started = Date.now();
    const drained = drainJobs(k);
    // bytes_done counts the bytes as they arrive, a handful here.
    let seen = 0;
    for (let i = 0; i < 400 && seen === 0; i += 1) {
      const now = await progress(k, slow[0].importid);
      if (now.status === 'receiving') seen = now.progress.bytes_done;
      if (now.status === 'failed') break;
      await sleep(10);
    }
    expect(seen).toBeGreaterThan(0);
    await drained;
    for (const { importid } of slow) {
      expect(await progress(k, importid)).toMatchObject({
        status: 'failed',
        error: { code: 'DOWNLOAD_FAILED', message: expect.stringContaining('too slow') },
      });
    }
    expect(await progress(k, waiting.importid)).toMatchObject({ status: 'complete' });
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('a download above the floor completes, however long it takes', async () => {
    const { importid } = await draftWithImport(k, 'Steady');
    expect((await byUrl(importid, '/steady.zip')).statusCode).toBe(202);
    await drainJobs(k);
    expect(await progress(k, importid)).toMatchObject({
      status: 'complete',
      progress: { bytes_done: steady.length, bytes_total: steady.length },
    });
  });
});
