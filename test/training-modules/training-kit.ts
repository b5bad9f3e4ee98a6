import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AuditEventEntity } from '../../src/platform/audit/entities/audit-event.entity';
import { DomainEventEntity } from '../../src/platform/events/entities/domain-event.entity';
import type { TrainingImportDto } from '../../src/modules/training-modules/dto/training-response.dto';
import { JobRunner } from '../../src/platform/jobs/job-runner';
import { zipBuffer, type ZipEntrySpec } from '../../src/modules/training-modules/zip-writer';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

export const API = '/api/2.0';
export const BASE = `${API}/external_training_modules`;

export interface TrainingTest {
  t: TestApp;
  dir: string;
  admin: CreatedUser;
  user: CreatedUser;
}

export async function startTrainingApp(env: Record<string, string> = {}): Promise<TrainingTest> {
  const dir = mkdtempSync(join(tmpdir(), 'rgcs-training-'));
  const t = await createTestApp({ env: { TRAINING_DIR: dir, ...env } });
  const admin = await createUser(t, { privilege: 'Admin' });
  const user = await createUser(t);
  return { t, dir, admin, user };
}

export const PAGE = '<html><body><script>/* lesson */</script>ok</body></html>';

export const scorm12Manifest = (href = 'index.html') => `<?xml version="1.0"?>
<manifest identifier="kit" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schemaversion>1.2</schemaversion></metadata>
  <organizations default="o"><organization identifier="o"><title>Kit course</title>
    <item identifier="i" identifierref="r"><title>Lesson</title></item></organization></organizations>
  <resources><resource identifier="r" adlcp:scormtype="sco" href="${href}"/></resources>
</manifest>`;

export function scorm12Package(extra: ZipEntrySpec[] = []): Promise<Buffer> {
  return zipBuffer([
    { name: 'imsmanifest.xml', data: scorm12Manifest() },
    { name: 'index.html', data: PAGE },
    ...extra,
  ]);
}

export function multipartBody(data: Buffer, field = 'file', filename = 'package.zip') {
  const boundary = '----trainingkitboundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/zip\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, data, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A module with a draft (T2) and an import created for it (T8). */
export async function draftWithImport(
  k: TrainingTest,
  title = 'Kit module',
): Promise<{ moduleid: number; importid: number; versionid: number }> {
  const created = await k.t.as(k.admin.token, { method: 'POST', url: `${BASE}/drafts`, payload: { title } });
  expect(created.statusCode).toBe(201);
  const moduleid = created.json().moduleid as number;
  const imp = await k.t.as(k.admin.token, { method: 'POST', url: `${BASE}/imports`, payload: { moduleid } });
  expect(imp.statusCode).toBe(201);
  return { moduleid, importid: imp.json().importid, versionid: created.json().draft.versionid };
}

export async function upload(k: TrainingTest, importid: number, data: Buffer) {
  return k.t.as(k.admin.token, {
    method: 'POST',
    url: `${BASE}/imports/${importid}/start/byUpload`,
    headers: { 'content-type': 'application/zip' },
    payload: data,
  });
}

export const drainJobs = (k: TrainingTest) => k.t.app.get(JobRunner).drain();

export async function progress(k: TrainingTest, importid: number) {
  const response = await k.t.as(k.admin.token, { method: 'GET', url: `${BASE}/imports/${importid}/progress` });
  expect(response.statusCode).toBe(200);
  return response.json<TrainingImportDto>();
}

/** A module whose draft got the package and was published. */
export async function publishedModule(k: TrainingTest, data?: Buffer, title?: string) {
  const ids = await draftWithImport(k, title);
  expect((await upload(k, ids.importid, data ?? (await scorm12Package()))).statusCode).toBe(202);
  await drainJobs(k);
  expect((await progress(k, ids.importid)).status).toBe('complete');
  const published = await k.t.as(k.admin.token, { method: 'PUT', url: `${BASE}/${ids.moduleid}/current`, payload: {} });
  expect(published.statusCode).toBe(200);
  return ids;
}

export const auditActions = async (k: TrainingTest, entityType: string, entityId: string | number) =>
  (
    await k.t.app.get(DataSource).manager.find(AuditEventEntity, {
      where: { entityType, entityId: String(entityId) },
      order: { auditid: 'ASC' },
    })
  ).map((row) => row.action);

export const eventRows = (k: TrainingTest, entityType: string, entityId: string | number) =>
  k.t.app.get(DataSource).manager.find(DomainEventEntity, {
    where: { entityType, entityId: String(entityId) },
    order: { eventid: 'ASC' },
  });

/** A cmi5 course: `aus` are the <au> (and <block>) elements, as XML. */
export const cmi5Course = (aus: string) => `<?xml version="1.0"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="https://example.test/course"><title><langstring>Kit cmi5</langstring></title></course>
  ${aus}
</courseStructure>`;

export const cmi5Au = (id: string | null, url: string) =>
  `<au${id === null ? '' : ` id="${id}"`} moveOn="Completed"><title><langstring>AU ${id}</langstring></title><url>${url}</url></au>`;

/** Imports `data` into a new draft and answers the finished import (T12). */
export async function importPackage(k: TrainingTest, data: Buffer, title = 'Kit package') {
  const ids = await draftWithImport(k, title);
  const started = await upload(k, ids.importid, data);
  expect(started.statusCode).toBe(202);
  await drainJobs(k);
  return { ...ids, result: await progress(k, ids.importid) };
}
