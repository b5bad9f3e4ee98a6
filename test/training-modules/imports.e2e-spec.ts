import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { DataSource } from 'typeorm';
import { TrainingImportEntity } from '../../src/modules/training-modules/entities/training-import.entity';
import { IMPORT_JOB } from '../../src/modules/training-modules/training-import-job';
import {
  SILENT_AFTER_SECONDS,
  TrainingImportsService,
} from '../../src/modules/training-modules/training-imports.service';
import { JobEntity } from '../../src/platform/jobs/entities/job.entity';
import { zipBuffer } from '../../src/modules/training-modules/zip-writer';
import {
  auditActions,
  BASE,
  draftWithImport,
  drainJobs,
  eventRows,
  multipartBody,
  PAGE,
  progress,
  scorm12Package,
  startTrainingApp,
  upload,
  type TrainingTest,
} from './training-kit';

describe('Training imports (T5, T8, T10-T13)', () => {
  let k: TrainingTest;
  beforeAll(async () => {
    k = await startTrainingApp();
  });
  afterAll(() => k.t.close());

  describe('T8 POST /imports', () => {
    it('401 without a token, 403 for a non-Admin, 422 for a bad body, 404 for an unknown module', async () => {
      expect((await k.t.inject({ method: 'POST', url: `${BASE}/imports`, payload: { moduleid: 1 } })).statusCode).toBe(
        401,
      );
      expect(
        (await k.t.as(k.user.token, { method: 'POST', url: `${BASE}/imports`, payload: { moduleid: 1 } })).statusCode,
      ).toBe(403);
      const bad = await k.t.as(k.admin.token, { method: 'POST', url: `${BASE}/imports`, payload: { moduleid: 'x' } });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors[0].field).toBe('moduleid');
      expect(
        (await k.t.as(k.admin.token, { method: 'POST', url: `${BASE}/imports`, payload: { moduleid: 999999 } }))
          .statusCode,
      ).toBe(404);
    });

    it('201 created; 409 with the running import while one runs', async () => {
      const { moduleid, importid } = await draftWithImport(k, 'Running guard');
      const again = await k.t.as(k.admin.token, { method: 'POST', url: `${BASE}/imports`, payload: { moduleid } });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ importid, status: 'created' });
      const body = await progress(k, importid);
      expect(body).toEqual({
        importid,
        moduleid,
        source: null,
        status: 'created',
        progress: { stage: 'created', percent: 0, bytes_done: 0, bytes_total: null },
        warnings: [],
        error: null,
        versionid: null,
        created_date: expect.any(Number),
        finished_date: null,
      });
      expect(await auditActions(k, 'training_import', importid)).toEqual(['training_import.create']);
    });
  });

  describe('T10 byUpload', () => {
    it('a raw ZIP body is stored (202 validating), then the job completes it (T12 polled)', async () => {
      const { moduleid, importid, versionid } = await draftWithImport(k, 'Raw upload');
      const data = await scorm12Package();
      const started = await upload(k, importid, data);
      expect(started.statusCode).toBe(202);
      expect(started.json()).toMatchObject({
        status: 'validating',
        source: 'upload',
        progress: { percent: 60, bytes_done: data.length },
      });
      await drainJobs(k);
      const done = await progress(k, importid);
      expect(done).toMatchObject({
        status: 'complete',
        progress: { stage: 'complete', percent: 100, bytes_total: data.length },
        versionid,
        error: null,
      });
      expect(done.finished_date).toEqual(expect.any(Number));
      expect(readFileSync(join(k.dir, 'modules', String(moduleid), String(versionid), 'index.html'), 'utf8')).toBe(
        PAGE,
      );
      expect(existsSync(join(k.dir, 'incoming', `${importid}.zip`))).toBe(false);
      const module = await k.t.as(k.admin.token, { method: 'GET', url: `${BASE}/${moduleid}/imports` });
      expect(module.json().map((i: { importid: number }) => i.importid)).toEqual([importid]);
      expect(await auditActions(k, 'training_import', importid)).toEqual([
        'training_import.create',
        'training_import.start',
        'training_import.received',
        'training_import.validated',
        'training_import.complete',
      ]);
      const events = await eventRows(k, 'training_import', importid);
      expect(events.map((e) => e.name)).toEqual(['training_module.import_completed']);
      expect(events[0].payload).toEqual(done);
    });

    it('a multipart `file` works too; T13 previews the manifest, files and a preview launch URL', async () => {
      const { importid, moduleid, versionid } = await draftWithImport(k, 'Multipart upload');
      const form = multipartBody(await scorm12Package([{ name: 'img/a.png', data: 'png' }]));
      const started = await k.t.as(k.admin.token, {
        method: 'POST',
        url: `${BASE}/imports/${importid}/start/byUpload`,
        headers: { 'content-type': form.contentType },
        payload: form.payload,
      });
      expect(started.statusCode).toBe(202);
      const early = await k.t.as(k.admin.token, { method: 'GET', url: `${BASE}/imports/${importid}/preview` });
      expect(early.statusCode).toBe(409);
      expect(early.json()).toMatchObject({ importid, status: 'validating' });
      await drainJobs(k);
      const preview = await k.t.as(k.admin.token, { method: 'GET', url: `${BASE}/imports/${importid}/preview` });
      expect(preview.statusCode).toBe(200);
      const body = preview.json();
      expect(body.import).toMatchObject({ importid, status: 'complete', versionid });
      expect(body.manifest).toEqual({
        identifier: 'kit',
        title: 'Kit course',
        standard: 'scorm12',
        schemaversion: '1.2',
        scos: [{ identifier: 'r', title: 'Lesson', href: 'index.html' }],
        launch_path: 'index.html',
      });
      expect(body.files.map((f: { path: string }) => f.path).sort()).toEqual([
        'img/a.png',
        'imsmanifest.xml',
        'index.html',
      ]);
      expect(body.preview_launch_url).toMatch(
        /^http:\/\/guides\.test\/training-content\/player\/[0-9a-f-]{36}\/\d+\/[\w-]+$/,
      );
      const draft = (await k.t.as(k.admin.token, { method: 'GET', url: `${BASE}/${moduleid}/usage` })).json();
      expect(draft.registrations.total).toBe(0);
    });

    it('415 for another content type or bytes that are not a ZIP; the import stays created', async () => {
      const { importid } = await draftWithImport(k, 'Not a zip');
      const typed = await k.t.as(k.admin.token, {
        method: 'POST',
        url: `${BASE}/imports/${importid}/start/byUpload`,
        headers: { 'content-type': 'text/plain' },
        payload: 'hello',
      });
      expect(typed.statusCode).toBe(415);
      expect(typed.json().error).toBe(true);
      const bytes = await upload(k, importid, Buffer.from('this is not a zip archive'));
      expect(bytes.statusCode).toBe(415);
      expect((await progress(k, importid)).status).toBe('created');
    });

    it('413 over TRAINING_UPLOAD_LIMIT (declared, and counted while streaming)', async () => {
      const training = k.t.config.training;
      const limit = training.uploadLimit;
      training.uploadLimit = 2048;
      try {
        const data = await zipBuffer([{ name: 'big.bin', data: Buffer.alloc(8000, 7), store: true }]);
        const declared = await draftWithImport(k, 'Too big');
        const tooBig = await upload(k, declared.importid, data);
        expect(tooBig.statusCode).toBe(413);
        expect((await progress(k, declared.importid)).status).toBe('created');
        const streamed = await draftWithImport(k, 'Too big, chunked');
        const stream = new PassThrough();
        const pending = k.t.as(k.admin.token, {
          method: 'POST',
          url: `${BASE}/imports/${streamed.importid}/start/byUpload`,
          headers: { 'content-type': 'application/zip', 'transfer-encoding': 'chunked' },
          payload: stream,
        });
        stream.end(data);
        const response = await pending;
        expect(response.statusCode).toBe(413);
        const failed = await progress(k, streamed.importid);
        expect(failed).toMatchObject({ status: 'failed', error: { code: 'ZIP_TOO_LARGE' } });
        expect(existsSync(join(k.dir, 'incoming', `${streamed.importid}.zip`))).toBe(false);
      } finally {
        training.uploadLimit = limit;
      }
    });

    it('a package that fails a check fails the import with its code, deletes its files and publishes import_failed', async () => {
      const { importid, moduleid } = await draftWithImport(k, 'Bad package');
      const data = await zipBuffer([{ name: 'course/imsmanifest.xml', data: '<manifest/>' }]);
      expect((await upload(k, importid, data)).statusCode).toBe(202);
      await drainJobs(k);
      const failed = await progress(k, importid);
      expect(failed).toMatchObject({ status: 'failed', error: { code: 'MANIFEST_NOT_AT_ROOT' }, versionid: null });
      expect(existsSync(join(k.dir, 'incoming', `${importid}.zip`))).toBe(false);
      expect(existsSync(join(k.dir, 'modules', String(moduleid), `.import-${importid}`))).toBe(false);
      expect((await eventRows(k, 'training_import', importid)).map((e) => e.name)).toEqual([
        'training_module.import_failed',
      ]);
      const next = await k.t.as(k.admin.token, { method: 'POST', url: `${BASE}/imports`, payload: { moduleid } });
      expect(next.statusCode).toBe(201);
    });

    it('warnings do not stop an import', async () => {
      const { importid } = await draftWithImport(k, 'Warnings');
      const manifest = `<manifest xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"><metadata><schemaversion>1.2</schemaversion></metadata>
        <organizations default="o"><organization identifier="o"><title>Two</title>
        <item identifier="a" identifierref="ra"/><item identifier="b" identifierref="rb"/></organization></organizations>
        <resources><resource identifier="ra" adlcp:scormtype="sco" href="a.html"/><resource identifier="rb" adlcp:scormtype="sco" href="b.html"/></resources></manifest>`;
      const data = await zipBuffer([
        { name: 'imsmanifest.xml', data: manifest },
        { name: 'a.html', data: PAGE },
        { name: 'b.html', data: PAGE },
      ]);
      expect((await upload(k, importid, data)).statusCode).toBe(202);
      await drainJobs(k);
      const done = await progress(k, importid);
      expect(done.status).toBe('complete');
      expect(done.warnings).toEqual([{ code: 'MULTI_SCO', message: expect.stringContaining('2 SCOs') }]);
    });

    it('409 with the import when it is not created; 404 for an unknown import', async () => {
      const { importid } = await draftWithImport(k, 'Twice');
      expect((await upload(k, importid, await scorm12Package())).statusCode).toBe(202);
      const twice = await upload(k, importid, await scorm12Package());
      expect(twice.statusCode).toBe(409);
      expect(twice.json()).toMatchObject({ importid });
      await drainJobs(k);
      expect((await upload(k, 99999, await scorm12Package())).statusCode).toBe(404);
      expect((await k.t.as(k.admin.token, { method: 'GET', url: `${BASE}/imports/abc/progress` })).statusCode).toBe(
        404,
      );
      expect(
        (await k.t.as(k.user.token, { method: 'GET', url: `${BASE}/imports/${importid}/progress` })).statusCode,
      ).toBe(403);
    });
  });

  describe('T11 cancel', () => {
    it('cancels a created import; a terminal one is 409 with the import', async () => {
      const { importid } = await draftWithImport(k, 'Cancel created');
      const cancelled = await k.t.as(k.admin.token, {
        method: 'POST',
        url: `${BASE}/imports/${importid}/cancel`,
        payload: {},
      });
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json()).toMatchObject({ importid, status: 'cancelled' });
      const again = await k.t.as(k.admin.token, {
        method: 'POST',
        url: `${BASE}/imports/${importid}/cancel`,
        payload: {},
      });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ importid, status: 'cancelled' });
      expect(
        (await k.t.as(k.admin.token, { method: 'POST', url: `${BASE}/imports/99999/cancel`, payload: {} })).statusCode,
      ).toBe(404);
    });

    it('cancelling mid-upload stops the upload and removes its partial file', async () => {
      const { importid } = await draftWithImport(k, 'Cancel mid-upload');
      const data = await zipBuffer([{ name: 'big.bin', data: Buffer.alloc(2 * 1024 * 1024, 1), store: true }]);
      const stream = new PassThrough();
      const pending = k.t.as(k.admin.token, {
        method: 'POST',
        url: `${BASE}/imports/${importid}/start/byUpload`,
        headers: { 'content-type': 'application/zip', 'transfer-encoding': 'chunked' },
        payload: stream,
      });
      stream.write(data.subarray(0, 600 * 1024));
      const partial = join(k.dir, 'incoming', `${importid}.zip`);
      // Waits are bounded in steps of 10 ms (up to 20 s), not in event-loop turns, so a loaded machine only slows them.
      const pause = () => new Promise((resolve) => setTimeout(resolve, 10));
      for (let i = 0; i < 2000 && (await progress(k, importid)).status !== 'receiving'; i += 1) await pause();
      expect((await progress(k, importid)).status).toBe('receiving');
      for (let i = 0; i < 2000 && !existsSync(partial); i += 1) await pause();
      expect(existsSync(partial)).toBe(true);
      const cancelled = await k.t.as(k.admin.token, {
        method: 'POST',
        url: `${BASE}/imports/${importid}/cancel`,
        payload: {},
      });
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json().status).toBe('cancelled');
      stream.end(data.subarray(600 * 1024));
      const response = await pending;
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ importid, status: 'cancelled' });
      expect(existsSync(partial)).toBe(false);
      expect(await auditActions(k, 'training_import', importid)).toContain('training_import.cancel');
    });
  });

  describe('who and gone for T5, T10-T13 (docs/enterprise/training-modules.md)', () => {
    it('401 without a token, 403 for a non-Admin, 404 for an unknown module or import', async () => {
      const { moduleid, importid } = await draftWithImport(k, 'Who and gone');
      const routes: [string, string][] = [
        ['GET', `${BASE}/${moduleid}/imports`],
        ['POST', `${BASE}/imports/${importid}/start/byUpload`],
        ['POST', `${BASE}/imports/${importid}/cancel`],
        ['GET', `${BASE}/imports/${importid}/progress`],
        ['GET', `${BASE}/imports/${importid}/preview`],
      ];
      for (const [method, url] of routes) {
        expect({ url, status: (await k.t.inject({ method: method, url })).statusCode }).toEqual({
          url,
          status: 401,
        });
        const who = await k.t.as(k.user.token, { method: method, url });
        expect({ url, status: who.statusCode }).toEqual({ url, status: 403 });
      }
      const gone: [string, string][] = [
        ['GET', `${BASE}/99999/imports`],
        ['GET', `${BASE}/imports/99999/preview`],
        ['GET', `${BASE}/imports/2147483648/progress`],
      ];
      for (const [method, url] of gone) {
        const response = await k.t.as(k.admin.token, { method: method, url });
        expect({ url, status: response.statusCode }).toEqual({ url, status: 404 });
      }
      expect(
        (await k.t.as(k.admin.token, { method: 'GET', url: `${BASE}/${moduleid}/imports?limit=0` })).statusCode,
      ).toBe(422);
      expect((await progress(k, importid)).status).toBe('created');
    });
  });

  describe('restart', () => {
    const imports = () => k.t.app.get(DataSource).getRepository(TrainingImportEntity);
    const service = () => k.t.app.get(TrainingImportsService);
    const now = () => Math.floor(Date.now() / 1000);

    it('an import left working at boot fails with INTERRUPTED and its partial files are deleted', async () => {
      const { importid } = await draftWithImport(k, 'Interrupted');
      await imports().update({ importid }, { status: 'extracting', source: 'upload' });
      const count = await service().failInterrupted();
      expect(count).toBe(1);
      expect(await progress(k, importid)).toMatchObject({ status: 'failed', error: { code: 'INTERRUPTED' } });
    });

    it('an import another instance works on (alive within 2 minutes) is left alone until it falls silent', async () => {
      const { importid } = await draftWithImport(k, 'Another instance');
      await imports().update({ importid }, { status: 'extracting', source: 'upload', heartbeatDate: now() - 60 });
      expect(await service().failInterrupted()).toBe(0);
      expect((await progress(k, importid)).status).toBe('extracting');
      await imports().update({ importid }, { heartbeatDate: now() - SILENT_AFTER_SECONDS - 1 });
      expect(await service().failInterrupted()).toBe(1);
      expect(await progress(k, importid)).toMatchObject({ status: 'failed', error: { code: 'INTERRUPTED' } });
    });

    it('a silent import whose job still waits in the queue is left alone', async () => {
      const { importid } = await draftWithImport(k, 'Queued');
      await imports().update({ importid }, { status: 'validating', source: 'upload', heartbeatDate: now() - 3600 });
      const jobs = k.t.app.get(DataSource).getRepository(JobEntity);
      const later = Date.now() + 3600_000;
      await jobs.insert({
        name: IMPORT_JOB,
        payload: { importid },
        status: 'queued',
        runAt: later,
        attempts: 0,
        maxAttempts: 1,
        uniqueKey: `training-import:${importid}`,
        lockedBy: null,
        lockedUntil: null,
        lastError: null,
        createdAt: Date.now(),
        finishedAt: null,
      });
      try {
        expect(await service().failInterrupted()).toBe(0);
        expect((await progress(k, importid)).status).toBe('validating');
      } finally {
        await jobs.delete({ uniqueKey: `training-import:${importid}` });
        await imports().update({ importid }, { heartbeatDate: null });
        await service().failInterrupted();
      }
    });

    it('the instance receiving an upload keeps marking it alive, so a sweep elsewhere leaves it alone', async () => {
      const { importid } = await draftWithImport(k, 'Slow upload');
      const data = await scorm12Package();
      const stream = new PassThrough();
      const pending = k.t.as(k.admin.token, {
        method: 'POST',
        url: `${BASE}/imports/${importid}/start/byUpload`,
        headers: { 'content-type': 'application/zip', 'transfer-encoding': 'chunked' },
        payload: stream,
      });
      stream.write(data.subarray(0, 64));
      for (let i = 0; i < 800 && (await progress(k, importid)).status !== 'receiving'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect((await progress(k, importid)).status).toBe('receiving');
      await imports().update({ importid }, { heartbeatDate: now() - 3600 });
      await service().heartbeat();
      expect((await imports().findOneByOrFail({ importid })).heartbeatDate).toBeGreaterThanOrEqual(now() - 5);
      expect(await service().failInterrupted()).toBe(0);
      stream.end(data.subarray(64));
      expect((await pending).statusCode).toBe(202);
      await drainJobs(k);
      expect((await progress(k, importid)).status).toBe('complete');
    });
  });
});
