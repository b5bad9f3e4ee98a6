import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { createUser, type CreatedUser } from '../factories/user.factory';
import {
  auditActions,
  BASE,
  draftWithImport,
  multipartBody,
  progress,
  scorm12Package,
  startTrainingApp,
  type TrainingTest,
} from './training-kit';

/** A local file header: what the upload checks first (the rest never completes a ZIP here). */
const ZIP_HEAD = Buffer.from('PK\x03\x04', 'latin1');

describe('T10 byUpload: who first, then the body; a refused body is not read on', () => {
  let k: TrainingTest;
  let author: CreatedUser;
  let port: number;
  beforeAll(async () => {
    k = await startTrainingApp();
    author = await createUser(k.t, { privilege: 'Author' });
    await k.t.app.listen(0, '127.0.0.1');
    port = (k.t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => k.t.close());

  const start = (importid: number, token: string | undefined, headers: Record<string, string>, payload: unknown) =>
    k.t.as(token, {
      method: 'POST',
      url: `${BASE}/imports/${importid}/start/byUpload`,
      headers,
      payload: payload as string,
    });

  it('401 anonymous and 403 for an Author whatever the Content-Type; 415 only for an Admin', async () => {
    const { importid } = await draftWithImport(k, 'Who before what');
    const zip = await scorm12Package();
    const form = multipartBody(zip);
    const bodies: [string, Record<string, string>, unknown][] = [
      ['text/plain', { 'content-type': 'text/plain' }, 'hello'],
      ['application/json', { 'content-type': 'application/json' }, '{"a":1}'],
      ['application/zip', { 'content-type': 'application/zip' }, zip],
      ['multipart', { 'content-type': form.contentType }, form.payload],
      ['no type', {}, 'x'],
    ];
    for (const [what, headers, payload] of bodies) {
      for (const [who, token, status] of [
        ['anonymous', undefined, 401],
        ['a bad token', 'not-a-token', 401],
        ['an Author', author.token, 403],
      ] as const) {
        const response = await start(importid, token, headers, payload);
        expect({ what, who, status: response.statusCode, error: response.json().error }).toEqual({
          what,
          who,
          status,
          error: true,
        });
      }
    }
    const typed = await start(importid, k.admin.token, { 'content-type': 'text/plain' }, 'hello');
    expect(typed.statusCode).toBe(415);
    expect(typed.json()).toEqual({ error: true, message: expect.stringContaining('application/zip') });
    expect((await progress(k, importid)).status).toBe('created');
    expect(await auditActions(k, 'training_import', importid)).toEqual(['training_import.create']);
  });

  /** An upload over a real socket that keeps sending 64 KiB every 10 ms until the server closes the connection. */
  function endlessUpload(importid: number) {
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `${BASE}/imports/${importid}/start/byUpload`,
      headers: {
        authorization: `api ${k.admin.token}`,
        'content-type': 'application/zip',
        'transfer-encoding': 'chunked',
      },
    });
    let closed = false;
    let sent = 0;
    const answer = new Promise<{ status?: number; connection?: string; body: string }>((resolve) => {
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () =>
          resolve({ status: response.statusCode, connection: response.headers.connection, body }),
        );
        response.on('error', () => resolve({ status: response.statusCode, body }));
      });
      request.on('error', () => resolve({ body: '' }));
    });
    const socketClosed = new Promise<void>((resolve) =>
      request.on('socket', (socket) => socket.on('close', () => ((closed = true), resolve()))),
    );
    request.write(ZIP_HEAD);
    const chunk = Buffer.alloc(64 * 1024, 7);
    const timer = setInterval(() => {
      if (closed) return clearInterval(timer);
      request.write(chunk);
      sent += chunk.length;
    }, 10);
    return { answer, socketClosed, sent: () => sent, stop: () => (clearInterval(timer), request.destroy()) };
  }

  const receiving = async (importid: number) => {
    for (let i = 0; i < 2000 && (await progress(k, importid)).status !== 'receiving'; i += 1) await sleep(10);
    expect((await progress(k, importid)).status).toBe('receiving');
  };

  it('a cancel during the upload answers at once; the upload answers 409 and its connection closes', async () => {
    const { importid, moduleid } = await draftWithImport(k, 'Cancel closes');
    const upload = endlessUpload(importid);
    try {
      await receiving(importid);
      const cancelled = await k.t.as(k.admin.token, {
        method: 'POST',
        url: `${BASE}/imports/${importid}/cancel`,
        payload: {},
      });
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json()).toMatchObject({ importid, status: 'cancelled' });
      const sentAtCancel = upload.sent();
      // The client goes on sending; the server closes the connection instead of reading on.
      const closedInTime = await Promise.race([upload.socketClosed.then(() => true), sleep(5000).then(() => false)]);
      expect(closedInTime).toBe(true);
      // The answer arrives whole before the connection is reset (it stays half-open for a moment).
      const answer = await upload.answer;
      expect(answer).toMatchObject({ status: 409, connection: 'close' });
      expect(JSON.parse(answer.body)).toMatchObject({ importid, status: 'cancelled' });
      expect(upload.sent() - sentAtCancel).toBeLessThan(64 * 1024 * 1024);
      expect(existsSync(join(k.dir, 'incoming', `${importid}.zip`))).toBe(false);
      expect(existsSync(join(k.dir, 'modules', String(moduleid), `.import-${importid}`))).toBe(false);
    } finally {
      upload.stop();
    }
  });

  it('a burst of 10 cancels: one 200, nine 409 with the cancelled import; one cancel audited', async () => {
    const { importid } = await draftWithImport(k, 'Cancel burst');
    const upload = endlessUpload(importid);
    try {
      await receiving(importid);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          k.t.as(k.admin.token, { method: 'POST', url: `${BASE}/imports/${importid}/cancel`, payload: {} }),
        ),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, ...Array(9).fill(409)]);
      for (const answer of answers) expect(answer.json()).toMatchObject({ importid, status: 'cancelled' });
      await Promise.race([upload.socketClosed, sleep(5000)]);
      const actions = await auditActions(k, 'training_import', importid);
      expect(actions.filter((a) => a === 'training_import.cancel')).toHaveLength(1);
      expect(actions.filter((a) => a === 'training_import.fail')).toHaveLength(0);
    } finally {
      upload.stop();
    }
  });

  it('a body refused before it is read (the import is not created any more) is not read either', async () => {
    const { importid } = await draftWithImport(k, 'Refused at once');
    await k.t.as(k.admin.token, { method: 'POST', url: `${BASE}/imports/${importid}/cancel`, payload: {} });
    const upload = endlessUpload(importid);
    try {
      const answer = await upload.answer;
      expect(answer).toMatchObject({ status: 409, connection: 'close' });
      expect(await Promise.race([upload.socketClosed.then(() => true), sleep(5000).then(() => false)])).toBe(true);
    } finally {
      upload.stop();
    }
  });

  it('through inject too, a refused body is answered in full with Connection: close', async () => {
    const { importid } = await draftWithImport(k, 'Inject refusals');
    const stream = new PassThrough();
    const pending = k.t.as(k.admin.token, {
      method: 'POST',
      url: `${BASE}/imports/${importid}/start/byUpload`,
      headers: { 'content-type': 'application/zip', 'transfer-encoding': 'chunked' },
      payload: stream,
    });
    stream.end(await scorm12Package());
    expect((await pending).statusCode).toBe(202);
    const twice = await start(importid, k.admin.token, { 'content-type': 'application/zip' }, await scorm12Package());
    expect(twice.statusCode).toBe(409);
    expect(twice.headers.connection).toBe('close');
    expect(twice.json()).toMatchObject({ importid });
  });
});
