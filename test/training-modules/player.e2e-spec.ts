import { randomUUID } from 'node:crypto';
import {
  auditActions,
  BASE,
  draftWithImport,
  drainJobs,
  eventRows,
  PAGE,
  publishedModule,
  scorm12Package,
  startTrainingApp,
  upload,
  type TrainingTest,
} from './training-kit';
import { DataSource } from 'typeorm';
import { TrainingRegistrationEntity } from '../../src/modules/training-modules/entities/training-registration.entity';
import { AuditEventEntity } from '../../src/platform/audit/entities/audit-event.entity';
import { createUser } from '../factories/user.factory';

const local = (url: string) => url.replace('http://guides.test', '');

describe('Training player (T4), content and registration commits (E)', () => {
  let k: TrainingTest;
  let moduleid: number;
  let versionid: number;
  beforeAll(async () => {
    k = await startTrainingApp();
    ({ moduleid, versionid } = await publishedModule(k, undefined, 'Player module'));
  });
  afterAll(() => k.t.close());

  const launch = (token: string | undefined, query = '') =>
    k.t.as(token, { method: 'GET', url: `${BASE}/${moduleid}/player${query}` });

  const commit = (registrationid: string, payload: unknown, headers: Record<string, string> = {}, token?: string) =>
    k.t.as(token, {
      method: 'PUT',
      url: `${BASE}/registrations/${registrationid}`,
      headers,
      payload: payload as object,
    });

  describe('T4 GET /{id}/player', () => {
    it('401 anonymous; 404 unknown module or version; 409 with the module without a current version', async () => {
      expect((await launch(undefined)).statusCode).toBe(401);
      expect((await k.t.as(k.user.token, { method: 'GET', url: `${BASE}/99999/player` })).statusCode).toBe(404);
      expect((await launch(k.user.token, '?versionid=99999')).statusCode).toBe(404);
      expect((await launch(k.user.token, '?versionid=x')).statusCode).toBe(422);
      const draft = (
        await k.t.as(k.admin.token, { method: 'POST', url: `${BASE}/drafts`, payload: { title: 'Unpublished' } })
      ).json();
      const none = await k.t.as(k.user.token, { method: 'GET', url: `${BASE}/${draft.moduleid}/player` });
      expect(none.statusCode).toBe(409);
      expect(none.json()).toMatchObject({ moduleid: draft.moduleid, current: null, draft: null });
    });

    it('answers a signed launch and reuses the open registration', async () => {
      const first = await launch(k.user.token);
      expect(first.statusCode).toBe(200);
      const body = first.json();
      expect(body).toEqual({
        moduleid,
        versionid,
        standard: 'scorm12',
        registrationid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        launch_url: expect.stringMatching(
          /^http:\/\/guides\.test\/training-content\/player\/[0-9a-f-]{36}\/\d+\/[\w-]{43}$/,
        ),
        launch_method: 'iframe',
        expires_date: expect.any(Number),
        runtime: {
          api: 'API',
          commit_url: `http://guides.test/api/2.0/external_training_modules/registrations/${body.registrationid}`,
          commit_token: expect.stringMatching(/^\d+\.[\w-]{43}$/),
          resume: null,
        },
      });
      expect(body.expires_date - Math.floor(Date.now() / 1000)).toBeGreaterThan(3 * 3600);
      const again = (await launch(k.user.token)).json();
      expect(again.registrationid).toBe(body.registrationid);
      const other = await createUser(k.t);
      expect((await launch(other.token)).json().registrationid).not.toBe(body.registrationid);
      expect(await auditActions(k, 'training_registration', body.registrationid)).toEqual([
        'training_registration.create',
      ]);
    });

    it('a version that is not current is an Admin preview (403 for others), not counted in usage', async () => {
      const ids = await draftWithImport(k, 'Previewed');
      expect((await upload(k, ids.importid, await scorm12Package())).statusCode).toBe(202);
      await drainJobs(k);
      const url = `${BASE}/${ids.moduleid}/player?versionid=${ids.versionid}`;
      expect((await k.t.as(k.user.token, { method: 'GET', url })).statusCode).toBe(403);
      const preview = await k.t.as(k.admin.token, { method: 'GET', url });
      expect(preview.statusCode).toBe(200);
      expect(preview.json().versionid).toBe(ids.versionid);
      const usage = (await k.t.as(k.admin.token, { method: 'GET', url: `${BASE}/${ids.moduleid}/usage` })).json();
      expect(usage.registrations.total).toBe(0);
      const foreign = await k.t.as(k.admin.token, {
        method: 'GET',
        url: `${BASE}/${moduleid}/player?versionid=${ids.versionid}`,
      });
      expect(foreign.statusCode).toBe(404);
    });
  });

  describe('the player page and package files', () => {
    it('the player page hosts scorm-again, frames the signed launch file and holds the commit token', async () => {
      const body = (await launch(k.user.token)).json();
      const page = await k.t.inject({ method: 'GET', url: local(body.launch_url) });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect(page.headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-/);
      expect(page.body).toContain('src="http://guides.test/training-content/assets/scorm-again.min.js"');
      const config = JSON.parse(
        /<script type="application\/json" id="player-config">(.*?)<\/script>/s.exec(page.body)![1],
      );
      expect(config).toMatchObject({ api: 'API', commitUrl: body.runtime.commit_url, launchMethod: 'iframe' });
      expect(config.commitToken).toMatch(/^\d+\.[\w-]{43}$/);
      expect(config.launchUrl).toMatch(
        new RegExp(`^http://guides\\.test/training-content/${versionid}/\\d+/[\\w-]{43}/index\\.html$`),
      );
      const file = await k.t.inject({ method: 'GET', url: local(config.launchUrl) });
      expect(file.statusCode).toBe(200);
      expect(file.body).toBe(PAGE);
      expect(file.headers['content-security-policy']).toBe(
        'sandbox allow-scripts allow-forms allow-popups allow-same-origin',
      );
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(file.headers['content-type']).toBe('text/html; charset=utf-8');
      const runtime = await k.t.inject({ method: 'GET', url: '/training-content/assets/scorm-again.min.js' });
      expect(runtime.statusCode).toBe(200);
      expect(runtime.body).toContain('Scorm12API');
    });

    it('a wrong or expired signature is 403; a path outside the package or a missing file 404', async () => {
      const body = (await launch(k.user.token)).json();
      const page = await k.t.inject({ method: 'GET', url: local(body.launch_url) });
      const config = JSON.parse(/id="player-config">(.*?)<\/script>/s.exec(page.body)![1]);
      const launchUrl = local(config.launchUrl);
      const [, , , expires, sig] = launchUrl.split('/');
      const badSig = launchUrl.replace(sig, 'A'.repeat(43));
      expect((await k.t.inject({ method: 'GET', url: badSig })).statusCode).toBe(403);
      const expired = launchUrl.replace(`/${expires}/`, '/1000/');
      expect((await k.t.inject({ method: 'GET', url: expired })).statusCode).toBe(403);
      const otherVersion = launchUrl.replace(
        `/training-content/${versionid}/`,
        `/training-content/${versionid + 1000}/`,
      );
      expect((await k.t.inject({ method: 'GET', url: otherVersion })).statusCode).toBe(403);
      expect(
        (await k.t.inject({ method: 'GET', url: launchUrl.replace('index.html', 'missing.html') })).statusCode,
      ).toBe(404);
      expect(
        (await k.t.inject({ method: 'GET', url: launchUrl.replace('index.html', '..%2F..%2Fetc%2Fpasswd') }))
          .statusCode,
      ).toBe(404);
      expect(
        (await k.t.inject({ method: 'GET', url: local(body.launch_url).replace(/[\w-]{43}$/, 'B'.repeat(43)) }))
          .statusCode,
      ).toBe(403);
      // API credentials are never read on the content origin: a token changes nothing.
      expect((await k.t.as(k.admin.token, { method: 'GET', url: badSig })).statusCode).toBe(403);
    });
  });

  describe('E PUT /registrations/{registrationid}', () => {
    it('401 with neither token, 403 for a wrong token or another user, 404 unknown, 422 bad values', async () => {
      const body = (await launch(k.user.token)).json();
      const id = body.registrationid;
      expect((await commit(id, { status: 'incomplete' })).statusCode).toBe(401);
      expect((await commit(id, { status: 'incomplete' }, { 'x-registration-token': '123.abc' })).statusCode).toBe(403);
      const otherToken = (await launch(k.admin.token)).json().runtime.commit_token;
      expect((await commit(id, { status: 'incomplete' }, { 'x-registration-token': otherToken })).statusCode).toBe(403);
      const expired = body.runtime.commit_token.replace(/^\d+/, '1000');
      expect((await commit(id, {}, { 'x-registration-token': expired })).statusCode).toBe(403);
      const stranger = await createUser(k.t);
      expect((await commit(id, { status: 'incomplete' }, {}, stranger.token)).statusCode).toBe(403);
      expect((await commit(randomUUID(), { status: 'incomplete' }, {}, k.user.token)).statusCode).toBe(404);
      expect((await commit('not-a-uuid', {}, {}, k.user.token)).statusCode).toBe(404);
      const token = { 'x-registration-token': body.runtime.commit_token };
      for (const payload of [
        { status: 'done' },
        { score_scaled: 2 },
        { location: 'x'.repeat(1001) },
        { suspend_data: 'x'.repeat(64001) },
        { cmi: 'x' },
      ]) {
        expect((await commit(id, payload, token)).statusCode).toBe(422);
      }
    });

    it('moves forward only, sets completed_date once, resumes from location and suspend data', async () => {
      const learner = await createUser(k.t);
      const body = (await launch(learner.token)).json();
      const id = body.registrationid;
      const token = { 'x-registration-token': body.runtime.commit_token };
      const started = await commit(id, { status: 'incomplete', location: 'page-2', suspend_data: 'a=1' }, token);
      expect(started.statusCode).toBe(200);
      expect(started.json()).toEqual({
        registrationid: id,
        moduleid,
        versionid,
        userid: learner.user.userid,
        status: 'incomplete',
        score_scaled: null,
        total_time_s: 0,
        location: 'page-2',
        started_date: expect.any(Number),
        last_commit_date: expect.any(Number),
        completed_date: null,
      });
      const resumed = (await launch(learner.token)).json();
      expect(resumed.registrationid).toBe(id);
      expect(resumed.runtime.resume).toEqual({ location: 'page-2', suspend_data: 'a=1' });
      const completed = (
        await commit(
          id,
          { cmi: { core: { lesson_status: 'completed', score: { raw: '80', max: '100' } } } },
          {},
          learner.token,
        )
      ).json();
      expect(completed).toMatchObject({ status: 'completed', score_scaled: 0.8 });
      expect(completed.completed_date).toEqual(expect.any(Number));
      const back = (await commit(id, { status: 'incomplete', location: 'page-3' }, token)).json();
      expect(back).toMatchObject({ status: 'completed', location: 'page-3', completed_date: completed.completed_date });
      const passed = (await commit(id, { status: 'passed', score_scaled: 0.9 }, token)).json();
      expect(passed).toMatchObject({ status: 'passed', score_scaled: 0.9, completed_date: completed.completed_date });
      expect((await launch(learner.token)).json().registrationid).not.toBe(id);
      expect(await auditActions(k, 'training_registration', id)).toEqual([
        'training_registration.create',
        'training_registration.status',
        'training_registration.status',
        'training_registration.status',
      ]);
      const events = await eventRows(k, 'training_registration', id);
      expect(events.map((e) => e.name)).toEqual(['training_module.registration_completed']);
      const usage = (await k.t.as(k.admin.token, { method: 'GET', url: `${BASE}/${moduleid}/usage` })).json();
      expect(usage.registrations.passed).toBe(1);
    });
  });

  describe('E: how a result was set is recorded', () => {
    const row = (registrationid: string) =>
      k.t.app.get(DataSource).getRepository(TrainingRegistrationEntity).findOneByOrFail({ registrationid });
    const audits = (registrationid: string) =>
      k.t.app.get(DataSource).manager.find(AuditEventEntity, {
        where: { entityType: 'training_registration', entityId: registrationid },
        order: { auditid: 'ASC' },
      });
    const CONTRACT_KEYS = [
      'completed_date',
      'last_commit_date',
      'location',
      'moduleid',
      'registrationid',
      'score_scaled',
      'started_date',
      'status',
      'total_time_s',
      'userid',
      'versionid',
    ];

    it("the owner's API token may set passed without the content: recorded as api by that user", async () => {
      const learner = await createUser(k.t);
      const id = (await launch(learner.token)).json().registrationid;
      const passed = await commit(id, { status: 'passed', score_scaled: 1 }, {}, learner.token);
      expect(passed.statusCode).toBe(200);
      expect(Object.keys(passed.json()).sort()).toEqual(CONTRACT_KEYS);
      expect(passed.json()).toMatchObject({ status: 'passed', score_scaled: 1 });
      expect(await row(id)).toMatchObject({ resultSource: 'api', resultBy: learner.user.userid });
      const audit = (await audits(id)).at(-1)!;
      expect(audit).toMatchObject({
        action: 'training_registration.status',
        actorUserid: learner.user.userid,
        reason: expect.stringContaining(`through the API by user ${learner.user.userid}`),
      });
      expect(audit.after).toMatchObject({ status: 'passed', result_source: 'api', result_by: learner.user.userid });
    });

    it("the player's commit token is recorded as player; a score alone is a result too; a location is not", async () => {
      const learner = await createUser(k.t);
      const body = (await launch(learner.token)).json();
      const id = body.registrationid;
      const token = { 'x-registration-token': body.runtime.commit_token };
      expect((await commit(id, { status: 'incomplete' }, token)).statusCode).toBe(200);
      expect(await row(id)).toMatchObject({ resultSource: 'player', resultBy: null });
      const scored = await commit(id, { score_scaled: 0.5 }, {}, learner.token);
      expect(Object.keys(scored.json()).sort()).toEqual(CONTRACT_KEYS);
      expect(await row(id)).toMatchObject({ resultSource: 'api', resultBy: learner.user.userid, scoreScaled: 0.5 });
      expect((await commit(id, { location: 'p3' }, token)).statusCode).toBe(200);
      expect(await row(id)).toMatchObject({ resultSource: 'api', location: 'p3' });
      expect((await audits(id)).map((a) => a.action)).toEqual([
        'training_registration.create',
        'training_registration.status',
        'training_registration.score',
      ]);
      expect((await audits(id))[1].after).toMatchObject({ result_source: 'player', result_by: null });
    });

    it('a burst of commits from the player and the API: no 500, the status moves once per step, each recorded', async () => {
      const learner = await createUser(k.t);
      const body = (await launch(learner.token)).json();
      const id = body.registrationid;
      const token = { 'x-registration-token': body.runtime.commit_token };
      const steps = ['incomplete', 'completed', 'passed'] as const;
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          i % 2 === 0
            ? commit(id, { status: steps[i % 3], score_scaled: i / 20 }, token)
            : commit(id, { status: steps[i % 3], score_scaled: i / 20 }, {}, learner.token),
        ),
      );
      for (const answer of answers) {
        expect([200, 409]).toContain(answer.statusCode);
        expect(answer.json()).toMatchObject({ registrationid: id });
      }
      const final = await row(id);
      expect(final.status).toBe('passed');
      expect(['player', 'api']).toContain(final.resultSource);
      const moves = (await audits(id)).filter((a) => a.action === 'training_registration.status');
      expect(moves.map((a) => (a.after as { status: string }).status)).toEqual(expect.arrayContaining(['passed']));
      expect(moves.length).toBeLessThanOrEqual(3);
      for (const move of moves)
        expect(['player', 'api']).toContain((move.after as { result_source: string }).result_source);
    });
  });
});
