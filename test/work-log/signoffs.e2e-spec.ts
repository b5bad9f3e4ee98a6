import type { GuideDetailDto } from '../../src/modules/guides/dto/guide-response.dto';
import type { SignoffDto, WorkLogEntryDto } from '../../src/modules/work-log/dto/work-log-response.dto';
import { WorkLogSignoffDecided, WorkLogSignoffRequested } from '../../src/modules/work-log/work-log.events';
import { AuditReader } from '../../src/platform/audit/audit-reader.service';
import { FakeClock } from '../../src/platform/clock/clock';
import { EventBus } from '../../src/platform/events/event-bus';
import { JobRunner } from '../../src/platform/jobs/job-runner';
import { Mailer, MemoryMailer } from '../../src/platform/mail/mailer';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { createTeam, guideWithForms } from '../factories/work-log.factory';
import { settle } from '../utils/events';
import { createTestApp, type TestApp } from '../utils/test-app';

const api = (path: string) => `/api/2.0${path}`;
const PASSWORD = 'supervisor password 1';

describe('Work-log sign-offs (docs/enterprise/work-log.md)', () => {
  let t: TestApp;
  const clock = new FakeClock(Date.UTC(2026, 5, 6, 9));
  let mailer: MemoryMailer;
  let admin: CreatedUser;
  let moderator: CreatedUser;
  let author: CreatedUser;
  let operator: CreatedUser;
  let supervisor: CreatedUser;
  let supervisor2: CreatedUser;
  let stranger: CreatedUser;
  let teamid: number;
  let guide: GuideDetailDto;
  let signedStep: number;
  let plainStep: number;
  const events: string[] = [];

  const post = (token: string | undefined, url: string, payload: unknown = {}) =>
    t.as(token, { method: 'POST', url: api(url), payload: payload as Record<string, unknown> });
  const start = async (workorderid: string): Promise<WorkLogEntryDto> =>
    (await post(operator.token, '/work_log', { guideid: guide.guideid, workorderid })).json();
  const requestSignoff = async (entryid: number): Promise<SignoffDto> => {
    const res = await post(operator.token, `/work_log/${entryid}/signoffs`, { stepid: signedStep });
    expect(res.statusCode).toBe(201);
    return res.json();
  };

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
    mailer = t.app.get<Mailer, MemoryMailer>(Mailer);
    admin = await createUser(t, { privilege: 'Admin' });
    moderator = await createUser(t, { privilege: 'Moderator' });
    author = await createUser(t, { privilege: 'Author' });
    operator = await createUser(t, { password: PASSWORD });
    supervisor = await createUser(t, { password: PASSWORD });
    supervisor2 = await createUser(t, { password: PASSWORD });
    stranger = await createUser(t, { password: PASSWORD });
    teamid = await createTeam(t, 'Supervisors', [
      operator.user.userid,
      supervisor.user.userid,
      supervisor2.user.userid,
    ]);
    await createCategory(t, admin.user, 'Oven');
    guide = await guideWithForms(t, author.user, 'Oven', [
      { signoff_teamid: teamid, fields: [{ label: 'Temperature', field_type: 'Numeric Input' }] },
      { fields: [{ label: 'Note', field_type: 'Text Input' }] },
    ]);
    [signedStep, plainStep] = guide.steps.map((s) => s.stepid);
    const bus = t.app.get(EventBus);
    bus.subscribe(WorkLogSignoffRequested, 'test.requested', (p) => void events.push(`requested:${p.signoffid}`));
    bus.subscribe(WorkLogSignoffDecided, 'test.decided', (p) => void events.push(`decided:${p.signoffid}:${p.status}`));
  });
  afterAll(() => t.close());

  describe('POST /work_log/{entryid}/signoffs', () => {
    it('401, 404 for a stranger or a step outside the guide, 403 for a Moderator, 422 for a bad body or a step without a team', async () => {
      const entry = await start('SO-1');
      const url = `/work_log/${entry.entryid}/signoffs`;
      expect((await post(undefined, url, { stepid: signedStep })).statusCode).toBe(401);
      expect((await post(operator.token, url, {})).statusCode).toBe(422);
      expect((await post(operator.token, url, { stepid: 'x' })).statusCode).toBe(422);
      expect((await post(stranger.token, url, { stepid: signedStep })).statusCode).toBe(404);
      expect((await post(operator.token, '/work_log/99999999/signoffs', { stepid: signedStep })).statusCode).toBe(404);
      expect((await post(moderator.token, url, { stepid: signedStep })).statusCode).toBe(403);
      expect((await post(operator.token, url, { stepid: 99999999 })).statusCode).toBe(404);
      const noTeam = await post(operator.token, url, { stepid: plainStep });
      expect(noTeam.statusCode).toBe(422);
      expect(noTeam.json().errors).toEqual([expect.objectContaining({ field: 'stepid' })]);
    });

    it('201 pending, the team mailed (not the operator); 409 with the pending one; 409 when the entry is suspended', async () => {
      const entry = await start('SO-2');
      mailer.clear();
      const signoff = await requestSignoff(entry.entryid);
      expect(signoff).toEqual({
        signoffid: expect.any(Number),
        entry: { entryid: entry.entryid, guideid: guide.guideid, workorderid: 'SO-2', userid: operator.user.userid },
        stepid: signedStep,
        team: { teamid, name: 'Supervisors' },
        status: 'pending',
        requested_by: expect.objectContaining({ userid: operator.user.userid, username: operator.user.username }),
        requested_date: clock.nowSeconds(),
        signer: null,
        signature: null,
        date: null,
      });
      await t.app.get(JobRunner).drain();
      expect(mailer.messages.map((m) => m.to).sort()).toEqual([supervisor.user.email, supervisor2.user.email].sort());
      const again = await post(operator.token, `/work_log/${entry.entryid}/signoffs`, { stepid: signedStep });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual(signoff);
      const finish = await post(operator.token, `/work_log/${entry.entryid}/finish`);
      expect(finish.statusCode).toBe(409);
      expect(finish.json()).toMatchObject({
        entryid: entry.entryid,
        signoffs: [{ signoffid: signoff.signoffid, status: 'pending' }],
      });
      const other = await start('SO-2b');
      await post(operator.token, `/work_log/${other.entryid}/suspend`);
      const suspended = await post(operator.token, `/work_log/${other.entryid}/signoffs`, { stepid: signedStep });
      expect(suspended.statusCode).toBe(409);
      expect(suspended.json()).toMatchObject({ entryid: other.entryid, status: 'suspended' });
    });
  });

  describe('POST /work_log/signoffs/{signoffid}/sign', () => {
    it('401; 422 for a bad decision, no password or a reject without note; 404 unknown; 403 outside the team or for the operator', async () => {
      const entry = await start('SO-3');
      const signoff = await requestSignoff(entry.entryid);
      const url = `/work_log/signoffs/${signoff.signoffid}/sign`;
      expect((await post(undefined, url, { decision: 'approve', password: PASSWORD })).statusCode).toBe(401);
      for (const [payload, field] of [
        [{ decision: 'maybe', password: PASSWORD }, 'decision'],
        [{ decision: 'approve' }, 'password'],
        [{ decision: 'reject', password: PASSWORD }, 'note'],
      ] as const) {
        const res = await post(supervisor.token, url, payload);
        expect({ field, status: res.statusCode }).toEqual({ field, status: 422 });
        expect(res.json().errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      }
      expect(
        (await post(supervisor.token, '/work_log/signoffs/99999999/sign', { decision: 'approve', password: PASSWORD }))
          .statusCode,
      ).toBe(404);
      const outside = await post(stranger.token, url, { decision: 'approve', password: PASSWORD });
      expect(outside.statusCode).toBe(403);
      expect(outside.json()).toEqual({ error: true, message: 'Not eligible to sign' });
      expect((await post(moderator.token, url, { decision: 'approve', password: PASSWORD })).statusCode).toBe(403);
      expect((await post(operator.token, url, { decision: 'approve', password: PASSWORD })).statusCode).toBe(403);
    });

    it('a wrong password is 403 and audited; approve records a verification signature, mails the requester; finish then passes', async () => {
      const entry = await start('SO-4');
      const signoff = await requestSignoff(entry.entryid);
      const url = `/work_log/signoffs/${signoff.signoffid}/sign`;
      const wrong = await post(supervisor.token, url, { decision: 'approve', password: 'not it' });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toEqual({ error: true, message: 'Signature authentication failed' });
      const unsigned = await post(operator.token, `/work_log/${entry.entryid}/finish`);
      expect(unsigned.statusCode).toBe(409);
      mailer.clear();
      clock.advance(60_000);
      const res = await post(supervisor.token, url, { decision: 'approve', password: PASSWORD, note: 'Checked' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        ...signoff,
        status: 'approved',
        signer: expect.objectContaining({ userid: supervisor.user.userid }),
        signature: {
          userid: supervisor.user.userid,
          printed_name: supervisor.user.username,
          signed_at: clock.nowSeconds(),
          meaning: 'verification',
          note: 'Checked',
        },
        date: clock.nowSeconds(),
      });
      await t.app.get(JobRunner).drain();
      expect(mailer.messages.map((m) => m.to)).toEqual([operator.user.email]);
      const twice = await post(supervisor2.token, url, { decision: 'reject', password: PASSWORD, note: 'late' });
      expect(twice.statusCode).toBe(409);
      expect(twice.json()).toEqual(res.json());
      const finished = await post(operator.token, `/work_log/${entry.entryid}/finish`);
      expect(finished.statusCode).toBe(200);
      const audit = await t.app
        .get(AuditReader)
        .list({
          entity_type: 'work_log_signoff',
          entity_id: String(signoff.signoffid),
          order: 'ASC',
          offset: 0,
          limit: 10,
        });
      expect(audit.map((r) => r.action)).toEqual(['work_log_signoff.request', 'work_log_signoff.approve']);
      await settle(t);
      expect(events).toEqual(
        expect.arrayContaining([`requested:${signoff.signoffid}`, `decided:${signoff.signoffid}:approved`]),
      );
    });

    it('finish without an approved sign-off is 422 at signoffs.<stepid>; a rejection is final and a new request may follow', async () => {
      const entry = await start('SO-5');
      const missing = await post(operator.token, `/work_log/${entry.entryid}/finish`);
      expect(missing.statusCode).toBe(422);
      expect(missing.json().errors).toEqual([expect.objectContaining({ field: `signoffs.${signedStep}` })]);
      const signoff = await requestSignoff(entry.entryid);
      const rejected = await post(supervisor2.token, `/work_log/signoffs/${signoff.signoffid}/sign`, {
        decision: 'reject',
        password: PASSWORD,
        note: 'Temperature too low',
      });
      expect(rejected.json()).toMatchObject({
        status: 'rejected',
        signature: { meaning: 'rejection', note: 'Temperature too low' },
      });
      expect((await post(operator.token, `/work_log/${entry.entryid}/finish`)).statusCode).toBe(422);
      const second = await requestSignoff(entry.entryid);
      expect(second.signoffid).not.toBe(signoff.signoffid);
    });

    it('five wrong passwords lock signing: the next call is 429 with Retry-After, even with the right password', async () => {
      const locked = await createUser(t, { password: PASSWORD });
      const team = await createTeam(t, 'Night shift', [locked.user.userid]);
      const nightGuide = await guideWithForms(t, author.user, 'Oven', [{ signoff_teamid: team, fields: [] }]);
      const entry = (await post(operator.token, '/work_log', { guideid: nightGuide.guideid, workorderid: 'N' })).json();
      const signoff = (
        await post(operator.token, `/work_log/${entry.entryid}/signoffs`, { stepid: nightGuide.steps[0].stepid })
      ).json();
      const url = `/work_log/signoffs/${signoff.signoffid}/sign`;
      for (let i = 0; i < 5; i += 1) {
        expect((await post(locked.token, url, { decision: 'approve', password: 'wrong' })).statusCode).toBe(403);
      }
      const res = await post(locked.token, url, { decision: 'approve', password: PASSWORD });
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    });
  });

  describe('GET /work_log/signoffs', () => {
    it('401, 422; those the caller may see: the operator’s, the team’s, all for Moderator+', async () => {
      expect((await t.as(undefined, { method: 'GET', url: api('/work_log/signoffs') })).statusCode).toBe(401);
      expect(
        (await t.as(operator.token, { method: 'GET', url: api('/work_log/signoffs?status=open') })).statusCode,
      ).toBe(422);
      const list = async (who: CreatedUser, query = '') =>
        (await t.as(who.token, { method: 'GET', url: api(`/work_log/signoffs${query}`) })).json()
          .results as SignoffDto[];
      const pendingForOperator = await list(operator);
      expect(pendingForOperator.length).toBeGreaterThan(0);
      expect(pendingForOperator.every((s) => s.status === 'pending')).toBe(true);
      expect((await list(supervisor)).map((s) => s.signoffid)).toEqual(
        pendingForOperator.filter((s) => s.team.teamid === teamid).map((s) => s.signoffid),
      );
      expect(await list(stranger)).toEqual([]);
      expect((await list(moderator)).length).toBeGreaterThanOrEqual(pendingForOperator.length);
      const approved = await list(supervisor, '?status=approved');
      expect(approved.length).toBe(1);
      expect(approved[0]).toMatchObject({ status: 'approved', signature: { meaning: 'verification' } });
      expect((await list(operator, '?status=rejected&limit=1')).map((s) => s.status)).toEqual(['rejected']);
    });
  });
});
