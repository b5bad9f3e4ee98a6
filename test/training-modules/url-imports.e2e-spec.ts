import dns from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TrainingImportJob } from '../../src/modules/training-modules/training-import-job';
import {
  BASE,
  draftWithImport,
  drainJobs,
  progress,
  scorm12Package,
  startTrainingApp,
  type TrainingTest,
} from './training-kit';

/** A package server on 127.0.0.1: /pkg.zip, /missing, /text, and redirects. */
function packageServer(zip: Buffer, redirectTo: () => string): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.url === '/pkg.zip') {
      response.writeHead(200, { 'content-type': 'application/zip', 'content-length': zip.length });
      return response.end(zip);
    }
    if (request.url === '/text') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      return response.end('not a zip archive, just text');
    }
    if (request.url === '/redirect-private') {
      response.writeHead(302, { location: redirectTo() });
      return response.end();
    }
    if (request.url === '/redirect-literal') {
      response.writeHead(302, { location: 'https://10.1.2.3/pkg.zip' });
      return response.end();
    }
    if (request.url === '/redirect-ok') {
      response.writeHead(301, { location: '/pkg.zip' });
      return response.end();
    }
    response.writeHead(404);
    response.end();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('Training imports by URL (T9)', () => {
  let k: TrainingTest;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = await packageServer(await scorm12Package(), () => `https://packages.test:${port}/pkg.zip`);
    port = (server.address() as AddressInfo).port;
    k = await startTrainingApp({ TRAINING_URL_ALLOW: `127.0.0.1:${port}` });
    // A name that resolves to a loopback address, as a hostile DNS answer would: the text passes, the
    // address is refused when the connection is made.
    k.t.app.get(TrainingImportJob).lookup = (hostname: string, options: unknown, callback: unknown) => {
      const done = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
      const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
      if (hostname !== 'packages.test') return dns.lookup(hostname, options as dns.LookupOptions, done as never);
      process.nextTick(() => (all ? done(null, [{ address: '127.0.0.1', family: 4 }]) : done(null, '127.0.0.1', 4)));
    };
  });
  afterAll(async () => {
    await k.t.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const start = (importid: number, url: unknown, token = k.admin.token) =>
    k.t.as(token, { method: 'POST', url: `${BASE}/imports/${importid}/start/byUrl`, payload: { url } });

  it('401, 403, 404 and 422 for a bad body', async () => {
    const { importid } = await draftWithImport(k, 'Url errors');
    expect(
      (await k.t.inject({ method: 'POST', url: `${BASE}/imports/${importid}/start/byUrl`, payload: {} })).statusCode,
    ).toBe(401);
    expect((await start(importid, 'https://example.com/a.zip', k.user.token)).statusCode).toBe(403);
    expect((await start(99999, 'https://example.com/a.zip')).statusCode).toBe(404);
    const missing = await start(importid, undefined);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors[0].field).toBe('url');
    expect((await start(importid, `https://example.com/${'a'.repeat(2100)}`)).statusCode).toBe(422);
  });

  it('a host listed in TRAINING_URL_ALLOW is fetched (plain http too) and the import completes', async () => {
    const { importid, versionid } = await draftWithImport(k, 'Url allowed');
    const started = await start(importid, `http://127.0.0.1:${port}/pkg.zip`);
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({ status: 'receiving', source: 'url' });
    await drainJobs(k);
    expect(await progress(k, importid)).toMatchObject({ status: 'complete', versionid, progress: { percent: 100 } });
    const again = await start(importid, `http://127.0.0.1:${port}/pkg.zip`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ importid, status: 'complete' });
  });

  it('a redirect on the allowed host is followed', async () => {
    const { importid } = await draftWithImport(k, 'Url redirect ok');
    expect((await start(importid, `http://127.0.0.1:${port}/redirect-ok`)).statusCode).toBe(202);
    await drainJobs(k);
    expect((await progress(k, importid)).status).toBe('complete');
  });

  it.each([
    ['the same server on another port (not listed)', () => `http://127.0.0.1:${port + 1}/pkg.zip`],
    ['https to a literal loopback address', () => 'https://127.0.0.1/pkg.zip'],
    ['localhost', () => 'https://localhost/pkg.zip'],
    ['an IPv6 loopback', () => 'https://[::1]/pkg.zip'],
    ['an IPv4-mapped IPv6 private address', () => 'https://[::ffff:10.0.0.1]/pkg.zip'],
    ['a hexadecimal loopback spelling', () => 'https://0x7f.1/pkg.zip'],
    ['a decimal loopback spelling', () => 'https://2130706433/pkg.zip'],
    ['the metadata address', () => 'https://169.254.169.254/latest/meta-data'],
    ['a private address', () => 'https://192.168.1.10/pkg.zip'],
    ['a unique-local address', () => 'https://[fd00::1]/pkg.zip'],
    ['plain http elsewhere', () => 'http://example.com/pkg.zip'],
    ['another scheme', () => 'ftp://example.com/pkg.zip'],
  ])('422 at once for %s; the import stays created', async (_what, url) => {
    const { importid } = await draftWithImport(k, `Refused ${_what}`);
    const response = await start(importid, url());
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: true, errors: [{ field: 'url' }] });
    expect((await progress(k, importid)).status).toBe('created');
    await k.t.as(k.admin.token, { method: 'POST', url: `${BASE}/imports/${importid}/cancel`, payload: {} });
  });

  it('a name that resolves to a loopback address is refused at connect time: URL_REFUSED', async () => {
    const { importid } = await draftWithImport(k, 'Url resolves to loopback');
    expect((await start(importid, `https://packages.test:${port}/pkg.zip`)).statusCode).toBe(202);
    await drainJobs(k);
    expect(await progress(k, importid)).toMatchObject({ status: 'failed', error: { code: 'URL_REFUSED' } });
  });

  it('a redirect to a private address is refused (re-checked at connect time, and from its text)', async () => {
    const resolved = await draftWithImport(k, 'Url redirect private');
    expect((await start(resolved.importid, `http://127.0.0.1:${port}/redirect-private`)).statusCode).toBe(202);
    await drainJobs(k);
    expect(await progress(k, resolved.importid)).toMatchObject({ status: 'failed', error: { code: 'URL_REFUSED' } });
    const literal = await draftWithImport(k, 'Url redirect literal');
    expect((await start(literal.importid, `http://127.0.0.1:${port}/redirect-literal`)).statusCode).toBe(202);
    await drainJobs(k);
    expect(await progress(k, literal.importid)).toMatchObject({ status: 'failed', error: { code: 'URL_REFUSED' } });
  });

  it('a missing file fails with DOWNLOAD_FAILED; a body that is not a ZIP with NOT_A_ZIP', async () => {
    const missing = await draftWithImport(k, 'Url missing');
    expect((await start(missing.importid, `http://127.0.0.1:${port}/missing`)).statusCode).toBe(202);
    await drainJobs(k);
    expect(await progress(k, missing.importid)).toMatchObject({ status: 'failed', error: { code: 'DOWNLOAD_FAILED' } });
    const text = await draftWithImport(k, 'Url text');
    expect((await start(text.importid, `http://127.0.0.1:${port}/text`)).statusCode).toBe(202);
    await drainJobs(k);
    expect(await progress(k, text.importid)).toMatchObject({ status: 'failed', error: { code: 'NOT_A_ZIP' } });
  });

  it('the size cap applies to downloads', async () => {
    const training = k.t.config.training;
    const limit = training.uploadLimit;
    training.uploadLimit = 100;
    try {
      const { importid } = await draftWithImport(k, 'Url too big');
      expect((await start(importid, `http://127.0.0.1:${port}/pkg.zip`)).statusCode).toBe(202);
      await drainJobs(k);
      expect(await progress(k, importid)).toMatchObject({
        status: 'failed',
        error: { code: 'DOWNLOAD_FAILED', message: expect.stringContaining('larger than the limit') },
      });
    } finally {
      training.uploadLimit = limit;
    }
  });
});
