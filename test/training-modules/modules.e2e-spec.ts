import { CoursesService } from '../../src/modules/courses/courses.service';
import { createWiki } from '../factories/wiki.factory';
import {
  auditActions,
  BASE,
  draftWithImport,
  drainJobs,
  eventRows,
  progress,
  publishedModule,
  scorm12Package,
  startTrainingApp,
  upload,
  type TrainingTest,
} from './training-kit';

const version = (fields: Record<string, unknown>) => ({
  versionid: expect.any(Number),
  status: 'draft',
  standard: null,
  title: expect.any(String),
  launch_path: null,
  launch_method: 'iframe',
  mastery_score: null,
  sco_count: 0,
  file_count: 0,
  package_bytes: 0,
  package_sha256: null,
  created_date: expect.any(Number),
  published_date: null,
  ...fields,
});

describe('Training modules (T1-T3, T6, T7)', () => {
  let k: TrainingTest;
  beforeAll(async () => {
    k = await startTrainingApp();
  });
  afterAll(() => k.t.close());

  describe('T2 POST /drafts', () => {
    it('401, 403, 422 (title), 404 (moduleid)', async () => {
      expect((await k.t.inject({ method: 'POST', url: `${BASE}/drafts`, payload: { title: 'x' } })).statusCode).toBe(
        401,
      );
      expect(
        (await k.t.as(k.user.token, { method: 'POST', url: `${BASE}/drafts`, payload: { title: 'x' } })).statusCode,
      ).toBe(403);
      for (const payload of [
        {},
        { title: '' },
        { title: 'x'.repeat(256) },
        { title: 'x', moduleid: 0 },
        { title: 3 },
      ]) {
        const response = await k.t.as(k.admin.token, { method: 'POST', url: `${BASE}/drafts`, payload });
        expect(response.statusCode).toBe(422);
        expect(response.json().error).toBe(true);
      }
      const unknown = await k.t.as(k.admin.token, {
        method: 'POST',
        url: `${BASE}/drafts`,
        payload: { title: 'x', moduleid: 99999 },
      });
      expect(unknown.statusCode).toBe(404);
    });

    it('201 with a new module and an empty draft; 409 with the module for a second draft', async () => {
      const created = await k.t.as(k.admin.token, {
        method: 'POST',
        url: `${BASE}/drafts`,
        payload: { title: 'Soldering basics', description: 'Irons and flux.' },
      });
      expect(created.statusCode).toBe(201);
      const body = created.json();
      expect(body).toEqual({
        moduleid: expect.any(Number),
        title: 'Soldering basics',
        description: 'Irons and flux.',
        current: null,
        draft: version({ title: 'Soldering basics' }),
        created_date: expect.any(Number),
        modified_date: expect.any(Number),
      });
      const again = await k.t.as(k.admin.token, {
        method: 'POST',
        url: `${BASE}/drafts`,
        payload: { title: 'Another', moduleid: body.moduleid },
      });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual(body);
      expect(await auditActions(k, 'training_module', body.moduleid)).toEqual(['training_module.create']);
    });
  });

  describe('T7 PUT /{id}/draft', () => {
    it('401, 403, 404, 422 (empty body, bad values), 409 without a draft; 200 edits the draft', async () => {
      const created = (
        await k.t.as(k.admin.token, { method: 'POST', url: `${BASE}/drafts`, payload: { title: 'Settings' } })
      ).json();
      const url = `${BASE}/${created.moduleid}/draft`;
      expect((await k.t.inject({ method: 'PUT', url, payload: { title: 'x' } })).statusCode).toBe(401);
      expect((await k.t.as(k.user.token, { method: 'PUT', url, payload: { title: 'x' } })).statusCode).toBe(403);
      expect(
        (await k.t.as(k.admin.token, { method: 'PUT', url: `${BASE}/99999/draft`, payload: { title: 'x' } }))
          .statusCode,
      ).toBe(404);
      expect(
        (await k.t.as(k.admin.token, { method: 'PUT', url: `${BASE}/abc/draft`, payload: { title: 'x' } })).statusCode,
      ).toBe(404);
      for (const payload of [
        {},
        { mastery_score: 101 },
        { mastery_score: 1.5 },
        { launch_method: 'popup' },
        { title: '' },
      ]) {
        expect((await k.t.as(k.admin.token, { method: 'PUT', url, payload })).statusCode).toBe(422);
      }
      const edited = await k.t.as(k.admin.token, {
        method: 'PUT',
        url,
        payload: { title: 'Settings v2', mastery_score: 80, launch_method: 'new_window' },
      });
      expect(edited.statusCode).toBe(200);
      expect(edited.json().draft).toMatchObject({
        title: 'Settings v2',
        mastery_score: 80,
        launch_method: 'new_window',
      });
      const cleared = await k.t.as(k.admin.token, { method: 'PUT', url, payload: { mastery_score: null } });
      expect(cleared.json().draft.mastery_score).toBeNull();
      expect(await auditActions(k, 'training_module', created.moduleid)).toEqual([
        'training_module.create',
        'training_module.draft_update',
        'training_module.draft_update',
      ]);
      const { moduleid } = await publishedModule(k, undefined, 'No draft left');
      const noDraft = await k.t.as(k.admin.token, {
        method: 'PUT',
        url: `${BASE}/${moduleid}/draft`,
        payload: { title: 'x' },
      });
      expect(noDraft.statusCode).toBe(409);
      // A 409 answers the module as it is (as every 409 of the service answers the current state).
      const module = (await k.t.as(k.admin.token, { method: 'GET', url: `${BASE}/current` }))
        .json()
        .find((m: { moduleid: number }) => m.moduleid === moduleid);
      expect(module).toMatchObject({ moduleid, draft: null, current: { status: 'current' } });
      expect(noDraft.json()).toEqual(module);
      const noImport = await k.t.as(k.admin.token, { method: 'POST', url: `${BASE}/imports`, payload: { moduleid } });
      expect(noImport.statusCode).toBe(409);
      expect(noImport.json()).toEqual(module);
      expect(await auditActions(k, 'training_module', moduleid)).toEqual([
        'training_module.create',
        'training_module.publish',
      ]);
    });
  });

  describe('T6 PUT /{id}/current', () => {
    it('409 for a draft without a completed package; 401, 403, 404', async () => {
      const created = (
        await k.t.as(k.admin.token, { method: 'POST', url: `${BASE}/drafts`, payload: { title: 'Empty' } })
      ).json();
      const url = `${BASE}/${created.moduleid}/current`;
      expect((await k.t.inject({ method: 'PUT', url, payload: {} })).statusCode).toBe(401);
      expect((await k.t.as(k.user.token, { method: 'PUT', url, payload: {} })).statusCode).toBe(403);
      expect(
        (await k.t.as(k.admin.token, { method: 'PUT', url: `${BASE}/99999/current`, payload: {} })).statusCode,
      ).toBe(404);
      expect((await k.t.as(k.admin.token, { method: 'PUT', url, payload: { versionid: 99999 } })).statusCode).toBe(404);
      expect((await k.t.as(k.admin.token, { method: 'PUT', url, payload: { versionid: 'x' } })).statusCode).toBe(422);
      const empty = await k.t.as(k.admin.token, { method: 'PUT', url, payload: {} });
      expect(empty.statusCode).toBe(409);
      expect(empty.json()).toEqual(created);
    });

    it('publishes the draft, supersedes it with the next one, rolls back, and refuses a current versionid', async () => {
      const first = await draftWithImport(k, 'Ladder safety');
      expect((await upload(k, first.importid, await scorm12Package())).statusCode).toBe(202);
      await drainJobs(k);
      const published = await k.t.as(k.admin.token, {
        method: 'PUT',
        url: `${BASE}/${first.moduleid}/current`,
        payload: {},
      });
      expect(published.statusCode).toBe(200);
      const v1 = published.json();
      expect(v1.draft).toBeNull();
      expect(v1.current).toMatchObject({
        versionid: first.versionid,
        status: 'current',
        standard: 'scorm12',
        launch_path: 'index.html',
        sco_count: 1,
        file_count: 2,
        package_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        published_date: expect.any(Number),
      });
      const second = await k.t.as(k.admin.token, {
        method: 'POST',
        url: `${BASE}/drafts`,
        payload: { title: 'Ladder safety, 2nd edition', moduleid: first.moduleid },
      });
      expect(second.statusCode).toBe(201);
      const v2id = second.json().draft.versionid;
      const imp = (
        await k.t.as(k.admin.token, { method: 'POST', url: `${BASE}/imports`, payload: { moduleid: first.moduleid } })
      ).json();
      expect(
        (await upload(k, imp.importid, await scorm12Package([{ name: 'extra.txt', data: 'more' }]))).statusCode,
      ).toBe(202);
      await drainJobs(k);
      expect((await progress(k, imp.importid)).status).toBe('complete');
      const currentAsVersion = await k.t.as(k.admin.token, {
        method: 'PUT',
        url: `${BASE}/${first.moduleid}/current`,
        payload: { versionid: first.versionid },
      });
      expect(currentAsVersion.statusCode).toBe(409);
      const v2 = (
        await k.t.as(k.admin.token, { method: 'PUT', url: `${BASE}/${first.moduleid}/current`, payload: {} })
      ).json();
      expect(v2).toMatchObject({
        title: 'Ladder safety, 2nd edition',
        current: { versionid: v2id, status: 'current', file_count: 3 },
        draft: null,
      });
      const rollback = await k.t.as(k.admin.token, {
        method: 'PUT',
        url: `${BASE}/${first.moduleid}/current`,
        payload: { versionid: first.versionid },
      });
      expect(rollback.statusCode).toBe(200);
      expect(rollback.json()).toMatchObject({
        title: 'Ladder safety',
        current: { versionid: first.versionid, status: 'current' },
      });
      const forward = await k.t.as(k.admin.token, {
        method: 'PUT',
        url: `${BASE}/${first.moduleid}/current`,
        payload: { versionid: v2id },
      });
      expect(forward.json().current).toMatchObject({ versionid: v2id, status: 'current' });
      const other = await publishedModule(k, undefined, 'Other module');
      const foreign = await k.t.as(k.admin.token, {
        method: 'PUT',
        url: `${BASE}/${first.moduleid}/current`,
        payload: { versionid: other.versionid },
      });
      expect(foreign.statusCode).toBe(404);
      expect(await auditActions(k, 'training_module', first.moduleid)).toEqual([
        'training_module.create',
        'training_module.publish',
        'training_module.draft_create',
        'training_module.publish',
        'training_module.rollback',
        'training_module.rollback',
      ]);
      const events = await eventRows(k, 'training_module', first.moduleid);
      expect(events.map((e) => e.name)).toEqual(Array(4).fill('training_module.published'));
      expect(events[0].payload).toEqual(v1);
    });
  });

  describe('T1 GET /current', () => {
    it('any signed-in user lists modules with a current version (401 anonymous); the draft only for Admins', async () => {
      const a = await publishedModule(k, undefined, 'Zeta torque drivers');
      const b = await publishedModule(k, undefined, 'Zeta heat guns');
      await k.t.as(k.admin.token, {
        method: 'POST',
        url: `${BASE}/drafts`,
        payload: { title: 'Zeta never published' },
      });
      await k.t.as(k.admin.token, {
        method: 'POST',
        url: `${BASE}/drafts`,
        payload: { title: 'Next', moduleid: a.moduleid },
      });
      const anonymous = await k.t.inject({ method: 'GET', url: `${BASE}/current?search=zeta` });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual({ error: true, message: expect.any(String) });
      const badToken = await k.t.as('not-a-token', { method: 'GET', url: `${BASE}/current` });
      expect(badToken.statusCode).toBe(401);
      const user = await k.t.as(k.user.token, { method: 'GET', url: `${BASE}/current?search=zeta` });
      expect(user.statusCode).toBe(200);
      expect(user.json().map((m: { moduleid: number }) => m.moduleid)).toEqual([a.moduleid, b.moduleid]);
      expect(user.json()[0].draft).toBeNull();
      const admin = await k.t.as(k.admin.token, { method: 'GET', url: `${BASE}/current?search=zeta&order=DESC` });
      expect(admin.json().map((m: { moduleid: number }) => m.moduleid)).toEqual([b.moduleid, a.moduleid]);
      expect(admin.json()[1].draft).toMatchObject({ status: 'draft', title: 'Next' });
      const get = (query: string) => k.t.as(k.user.token, { method: 'GET', url: `${BASE}/current?${query}` });
      const words = await get('search=heat%20zeta');
      expect(words.json().map((m: { moduleid: number }) => m.moduleid)).toEqual([b.moduleid]);
      const page = await get('search=zeta&limit=1&offset=1');
      expect(page.json().map((m: { moduleid: number }) => m.moduleid)).toEqual([b.moduleid]);
      expect((await get('limit=x')).statusCode).toBe(422);
      expect((await k.t.inject({ method: 'GET', url: `${BASE}/current?limit=x` })).statusCode).toBe(401);
      expect((await get('search=%25')).json()).toEqual([]);
    });
  });

  describe('T3 GET /{id}/usage', () => {
    it('401, 403, 404; the course stages that use the module and its registrations by status', async () => {
      const { moduleid } = await publishedModule(k, undefined, 'Used module');
      const url = `${BASE}/${moduleid}/usage`;
      expect((await k.t.inject({ method: 'GET', url })).statusCode).toBe(401);
      expect((await k.t.as(k.user.token, { method: 'GET', url })).statusCode).toBe(403);
      expect((await k.t.as(k.admin.token, { method: 'GET', url: `${BASE}/99999/usage` })).statusCode).toBe(404);
      const course = await createWiki(k.t, k.admin.user, { title: 'Technician onboarding course' });
      const stage = await k.t.app.get(CoursesService).createStage({
        courseWikiid: course.wikiid,
        orderby: 1,
        doctype: null,
        docid: null,
        quizid: null,
        passingScore: null,
        moduleid,
      });
      await k.t.as(k.user.token, { method: 'GET', url: `${BASE}/${moduleid}/player` });
      await k.t.as(k.admin.token, { method: 'GET', url: `${BASE}/${moduleid}/player` });
      const usage = await k.t.as(k.admin.token, { method: 'GET', url });
      expect(usage.statusCode).toBe(200);
      expect(usage.json()).toEqual({
        moduleid,
        courses: [
          {
            course_wikiid: course.wikiid,
            course_title: 'Technician onboarding course',
            course_stageid: stage.courseStageid,
          },
        ],
        registrations: { total: 2, not_attempted: 2, incomplete: 0, completed: 0, passed: 0, failed: 0 },
      });
    });
  });
});
