import type { GuideDetailDto } from '../../src/modules/guides/dto/guide-response.dto';
import type { StepFormDto } from '../../src/modules/step-forms/dto/step-form.dto';
import { createTestApp, type TestApp } from '../utils/test-app';
import { DEMO_LOGIN, DemoSeedRegistry, type DemoLogin } from '../../src/database/seed/demo-seed.registry';

const api = (path: string) => `/api/2.0${path}`;

/**
 * The "done means", on the demo content as a newcomer meets it: an operator starts an entry on the
 * demo guide with a step form, records values, pauses and hands it over, another user assumes and finishes
 * it after a supervisor's sign-off, and the CSV export shows every value.
 */
describe('Work log on the demo content', () => {
  let t: TestApp;
  let password: string;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({ env: { SEED_DEMO: 'true' } });
    password = t.app.get(DemoSeedRegistry).get<DemoLogin>(DEMO_LOGIN)!.password;
    for (const who of ['admin', 'moderator', 'author', 'user']) {
      const login = await t.inject({
        method: 'POST',
        url: api('/user/token'),
        payload: { email: `${who}@demo.example`, password },
      });
      tokens[who] = login.json().authToken;
    }
  });
  afterAll(() => t.close());

  it('has entries waiting: the User’s for a sign-off the Admin may sign, and one of the Admin’s', async () => {
    const as = (who: string, url: string) => t.as(tokens[who], { method: 'GET', url: api(url) });
    const pending = (await as('admin', '/work_log/signoffs')).json<{ results: unknown[] }>();
    expect(pending.results).toEqual([
      expect.objectContaining({ signoffid: 1, status: 'pending', entry: expect.objectContaining({ entryid: 1 }) }),
    ]);
    const entry = (await as('user', '/work_log/1')).json<{
      workorderid: string;
      status: string;
      work_data: unknown[];
    }>();
    expect(entry).toMatchObject({ workorderid: 'WO-1001', status: 'started' });
    expect(entry.work_data.length).toBeGreaterThan(0);
    expect((await as('admin', '/work_log/2')).json()).toMatchObject({ workorderid: 'WO-1002', status: 'started' });
  });

  it('start, record, pause, hand over, assume, sign off, finish, export', async () => {
    const as = (
      who: string,
      method: 'GET' | 'POST' | 'PUT' | 'PATCH',
      url: string,
      payload?: Record<string, unknown>,
    ) => t.as(tokens[who], { method, url: api(url), ...(payload ? { payload } : {}) });
    const guides = (await as('user', 'GET', '/guides')).json<{ guideid: number; title: string }[]>();
    const pump = guides.find((g) => g.title.includes('Drain Pump'))!;
    const guide = (await as('user', 'GET', `/guides/${pump.guideid}`)).json<GuideDetailDto>();
    const stepIndex = guide.steps.findIndex((s) => s.form !== null);
    expect(stepIndex).toBeGreaterThanOrEqual(0);

    // The demo's step form names the demo supervisor team, which holds the Moderator.
    const step = guide.steps[stepIndex];
    const form = step.form as StepFormDto;
    expect(form.signoff_teamid).not.toBeNull();
    const me = (await as('moderator', 'GET', '/user')).json<{ userid: number }>();
    const members = (await as('user', 'GET', `/teams/${form.signoff_teamid}`)).json<{ userid: number }[]>();
    expect(members.map((m) => m.userid)).toContain(me.userid);
    const id = (label: string) => String(form.fields.find((f) => f.label === label)!.field_revisionid);

    const entry = (await as('user', 'POST', '/work_log', { guideid: pump.guideid, workorderid: 'WO-2026-001' })).json();
    expect(entry.forms).toEqual([{ stepid: step.stepid, ...form }]);
    const recorded = await as('user', 'PUT', `/work_log/${entry.entryid}/stepData`, {
      fields: { [id('Filter condition')]: 'worn', [id('Residual water')]: 350 },
      stepid: step.stepid,
    });
    expect(recorded.statusCode).toBe(200);
    expect((await as('user', 'POST', `/work_log/${entry.entryid}/pause`)).json().status).toBe('paused');
    expect((await as('user', 'POST', `/work_log/${entry.entryid}/suspend`)).json().status).toBe('suspended');
    const assumed = await as('author', 'POST', `/work_log/${entry.entryid}/assume`);
    expect(assumed.json()).toMatchObject({ status: 'started', userid: expect.any(Number) });
    await as('author', 'PUT', `/work_log/${entry.entryid}/stepData`, {
      fields: { [id('Pump runs freely')]: true, [id('Remarks')]: 'Replaced the filter seal' },
    });
    const signoff = (await as('author', 'POST', `/work_log/${entry.entryid}/signoffs`, { stepid: step.stepid })).json();
    const signed = await as('moderator', 'POST', `/work_log/signoffs/${signoff.signoffid}/sign`, {
      decision: 'approve',
      password,
    });
    expect(signed.json()).toMatchObject({ status: 'approved', signature: { meaning: 'verification' } });
    const finished = await as('author', 'POST', `/work_log/${entry.entryid}/finish`);
    expect(finished.statusCode).toBe(200);
    expect(finished.json().endtime).toBeGreaterThan(0);

    const csv = await as('moderator', 'GET', `/work_log/export.csv?entryid=${entry.entryid}`);
    expect(csv.statusCode).toBe(200);
    const values = csv.body
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[12]);
    expect(values).toEqual(['worn', '350', '1', 'Replaced the filter seal']);
  });
});
