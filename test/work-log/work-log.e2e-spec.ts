import type { GuideDetailDto } from '../../src/modules/guides/dto/guide-response.dto';
import type { WorkLogEntryDto } from '../../src/modules/work-log/dto/work-log-response.dto';
import { AuditReader } from '../../src/platform/audit/audit-reader.service';
import { FakeClock } from '../../src/platform/clock/clock';
import { EventBus } from '../../src/platform/events/event-bus';
import {
  WorkLogEntryAssumed,
  WorkLogEntryDeleted,
  WorkLogEntryPaused,
  WorkLogEntryResumed,
  WorkLogEntryStarted,
  WorkLogEntrySuspended,
  WorkOrderStatusChanged,
} from '../../src/modules/work-log/work-log.events';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { formOf, guideWithForms } from '../factories/work-log.factory';
import { settle } from '../utils/events';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';
import getItem from '../fixtures/work-log/GET_work_log.item.json';
import postResponse from '../fixtures/work-log/POST_work_log.response.json';
import finishResponse from '../fixtures/work-log/POST_work_log_ENTRYID_finish.response.json';

const api = (path: string) => `/api/2.0${path}`;
const START = Date.UTC(2026, 2, 2, 8);

/** Every key of Dozuki's sample is in `body` with the same JSON type (endtime and timingid may be null). */
function assertDozukiShape(sample: Record<string, unknown>, body: Record<string, unknown>) {
  const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  for (const [key, value] of Object.entries(sample)) {
    expect({ key, present: key in body }).toEqual({ key, present: true });
    const nullable = ['endtime', 'timingid'].includes(key);
    if (!(nullable && (body[key] === null || value === null))) {
      expect({ key, type: typeOf(body[key]) }).toEqual({ key, type: typeOf(value) });
    }
  }
  const data = (sample.work_data as Record<string, unknown>[] | undefined)?.[0];
  const got = (body.work_data as Record<string, unknown>[] | undefined)?.[0];
  if (data && got) assertDozukiShape(data, got);
}

describe('Work log: entries and their state machine (docs/enterprise/work-log.md)', () => {
  let t: TestApp;
  const clock = new FakeClock(START);
  let admin: CreatedUser;
  let moderator: CreatedUser;
  let author: CreatedUser;
  let operator: CreatedUser;
  let nextShift: CreatedUser;
  let stranger: CreatedUser;
  let guide: GuideDetailDto;
  let privateGuide: GuideDetailDto;
  const events: { name: string; entryid: number; status: string }[] = [];

  const post = (token: string | undefined, url: string, payload: unknown = {}) =>
    t.as(token, { method: 'POST', url: api(url), payload: payload as Record<string, unknown> });
  const get = (token: string | undefined, url: string) => t.as(token, { method: 'GET', url: api(url) });
  const start = async (who: CreatedUser, workorderid = 'WO-1', guideid = guide.guideid): Promise<WorkLogEntryDto> => {
    const res = await post(who.token, '/work_log', { guideid, workorderid });
    expect(res.statusCode).toBe(201);
    return res.json();
  };
  const auditRows = (entryid: number) =>
    t.app
      .get(AuditReader)
      .list({ entity_type: 'work_log_entry', entity_id: String(entryid), order: 'ASC', offset: 0, limit: 200 });
  const auditActions = async (entryid: number) => (await auditRows(entryid)).map((row) => row.action);

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
    admin = await createUser(t, { privilege: 'Admin' });
    moderator = await createUser(t, { privilege: 'Moderator' });
    author = await createUser(t, { privilege: 'Author' });
    operator = await createUser(t);
    nextShift = await createUser(t);
    stranger = await createUser(t);
    await createCategory(t, admin.user, 'Press');
    guide = await guideWithForms(t, author.user, 'Press', [
      { fields: [{ label: 'Torque', field_type: 'Numeric Input', required: true, unit: 'Nm', min: 0, max: 100 }] },
      null,
    ]);
    privateGuide = await guideWithForms(t, author.user, 'Press', [null], { public: false });
    const bus = t.app.get(EventBus);
    for (const event of [
      WorkLogEntryStarted,
      WorkLogEntryPaused,
      WorkLogEntryResumed,
      WorkLogEntrySuspended,
      WorkLogEntryAssumed,
      WorkOrderStatusChanged,
      WorkLogEntryDeleted,
    ]) {
      bus.subscribe(event, `test.${event.name}`, (payload, delivered) => {
        events.push({ name: delivered.name, entryid: payload.entryid, status: payload.status });
      });
    }
  });
  afterAll(() => t.close());

  describe('POST /work_log (W3)', () => {
    it('401 without a token, 422 for a bad body, 404 for a guide the caller may not read', async () => {
      expect((await post(undefined, '/work_log', { guideid: guide.guideid, workorderid: 'A' })).statusCode).toBe(401);
      for (const [payload, field] of [
        [{ workorderid: 'A' }, 'guideid'],
        [{ guideid: 'x', workorderid: 'A' }, 'guideid'],
        [{ guideid: 0, workorderid: 'A' }, 'guideid'],
        [{ guideid: guide.guideid }, 'workorderid'],
        [{ guideid: guide.guideid, workorderid: '   ' }, 'workorderid'],
        [{ guideid: guide.guideid, workorderid: 'x'.repeat(256) }, 'workorderid'],
      ] as const) {
        const res = await post(operator.token, '/work_log', payload);
        expect({ field, status: res.statusCode }).toEqual({ field, status: 422 });
        expect(res.json().errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      }
      const hidden = await post(operator.token, '/work_log', { guideid: privateGuide.guideid, workorderid: 'A' });
      expect(hidden.statusCode).toBe(404);
      expect((await post(operator.token, '/work_log', { guideid: 999999, workorderid: 'A' })).statusCode).toBe(404);
    });

    it('201: the entry in Dozuki’s shape, pinning the revision and the highest form revision', async () => {
      const res = await post(operator.token, '/work_log', {
        guideid: guide.guideid,
        workorderid: '  sh-003 ',
        join_code: 'x',
      });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      assertDozukiShape(postResponse, body);
      const torque = formOf(guide, 0);
      expect(body).toEqual({
        id: body.entryid,
        entryid: expect.any(Number),
        guideid: guide.guideid,
        userid: operator.user.userid,
        workorderid: 'sh-003',
        starttime: clock.nowSeconds(),
        endtime: null,
        max_form_revisionid: torque.form_revisionid,
        cancelled: 0,
        guide_revisionid: guide.revisionid,
        duration: 0,
        status: 'started',
        work_data: [],
        timingid: null,
        paused_seconds: 0,
        current_stepid: null,
        timings: [],
        signoffs: [],
        release: null,
        forms: [{ stepid: guide.steps[0].stepid, ...torque }],
      });
      expect(torque.fields[0]).toMatchObject({
        field_type: 'Numeric Input',
        unit: 'Nm',
        min: 0,
        max: 100,
        required: true,
      });
      expect(await auditActions(body.entryid)).toEqual(['work_log.start']);
    });
  });

  describe('GET /work_log/{entryid} (W2) and GET /work_log (W1)', () => {
    let entry: WorkLogEntryDto;
    beforeAll(async () => {
      entry = await start(operator, 'WO-read');
    });

    it('401; 404 for another user, an unknown or malformed id; 200 for the owner and a Moderator', async () => {
      expect((await get(undefined, `/work_log/${entry.entryid}`)).statusCode).toBe(401);
      expect((await get(stranger.token, `/work_log/${entry.entryid}`)).statusCode).toBe(404);
      expect((await get(operator.token, '/work_log/99999999')).statusCode).toBe(404);
      expect((await get(operator.token, '/work_log/abc')).statusCode).toBe(404);
      expect((await get(operator.token, '/work_log/0')).statusCode).toBe(404);
      const own = await get(operator.token, `/work_log/${entry.entryid}`);
      expect(own.statusCode).toBe(200);
      assertDozukiShape(getItem, own.json());
      expect(own.json()).toEqual(entry);
      expect((await get(moderator.token, `/work_log/${entry.entryid}`)).json()).toEqual(entry);
    });

    it('duration grows with the clock until the end', async () => {
      clock.advance(30_000);
      expect((await get(operator.token, `/work_log/${entry.entryid}`)).json().duration).toBe(30);
    });

    it('W1: 401; 403 for another userid without Moderator+; 422 for bad filters', async () => {
      expect((await get(undefined, '/work_log')).statusCode).toBe(401);
      const denied = await get(operator.token, `/work_log?userid=${stranger.user.userid}`);
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toMatchObject({ error: true, requiredPrivileges: ['Admin', 'Moderator'] });
      for (const query of ['status=done', 'guideid=x', 'limit=0', 'offset=-1', 'order=up', 'since=x']) {
        expect({ query, status: (await get(operator.token, `/work_log?${query}`)).statusCode }).toEqual({
          query,
          status: 422,
        });
      }
    });

    it('W1: {results} of the caller’s entries, filtered by guide, user, work order, status and time', async () => {
      const mine = await get(operator.token, `/work_log?guideid=${guide.guideid}`);
      expect(mine.statusCode).toBe(200);
      const ids = mine.json().results.map((e: WorkLogEntryDto) => e.entryid);
      expect(ids).toContain(entry.entryid);
      expect(mine.json().results.every((e: WorkLogEntryDto) => e.userid === operator.user.userid)).toBe(true);
      for (const item of mine.json().results) assertDozukiShape(getItem, item);
      expect(mine.json().results[0]).not.toHaveProperty('forms');
      const byWorkOrder = await get(operator.token, '/work_log?workorderid=WO-read');
      expect(byWorkOrder.json().results.map((e: WorkLogEntryDto) => e.entryid)).toEqual([entry.entryid]);
      expect((await get(operator.token, '/work_log?status=complete')).json().results).toEqual([]);
      const since = entry.starttime;
      const window = await get(operator.token, `/work_log?workorderid=WO-read&since=${since}&until=${since}`);
      expect(window.json().results.map((e: WorkLogEntryDto) => e.entryid)).toEqual([entry.entryid]);
      expect((await get(operator.token, `/work_log?since=${since + 1}`)).json().results).toEqual([]);
      expect((await get(stranger.token, '/work_log')).json()).toEqual({ results: [] });
      const asModerator = await get(moderator.token, `/work_log?userid=${operator.user.userid}&order=DESC&limit=1`);
      expect(asModerator.json().results.map((e: WorkLogEntryDto) => e.userid)).toEqual([operator.user.userid]);
    });

    it('W1 with guideid and limit=200 costs at most 4 SQL statements (tokens, entries, their children)', async () => {
      const busy = await createUser(t);
      for (let i = 0; i < 5; i += 1) {
        const e = await start(busy, `WO-sql-${i}`);
        const res = await t.as(busy.token, {
          method: 'PUT',
          url: api(`/work_log/${e.entryid}/stepData`),
          payload: { fields: { [formOf(guide, 0).fields[0].field_revisionid]: i }, stepid: guide.steps[0].stepid },
        });
        expect(res.statusCode).toBe(200);
      }
      await get(busy.token, '/work_log'); // the token's last-used write happens once
      const res = await get(busy.token, `/work_log?guideid=${guide.guideid}&limit=200`);
      expect(res.json().results).toHaveLength(5);
      expect(res.json().results.map((e: WorkLogEntryDto) => e.work_data[0].value)).toEqual(['0', '1', '2', '3', '4']);
      expect(res.json().results[0].timings).toHaveLength(1);
      // Built: the caller's token, the answers token (cached answers, answers-worklog), the entries, their children.
      expect(sqlCount(res)).toBeLessThanOrEqual(4);
    });
  });

  describe('moves (W4-W9)', () => {
    it('401, 404 for a stranger, 403 for a Moderator who is not the owner, 409 for moves not in the table', async () => {
      const entry = await start(operator, 'WO-moves');
      for (const move of ['pause', 'resume', 'suspend', 'finish']) {
        expect((await post(undefined, `/work_log/${entry.entryid}/${move}`)).statusCode).toBe(401);
        expect((await post(stranger.token, `/work_log/${entry.entryid}/${move}`)).statusCode).toBe(404);
        expect((await post(moderator.token, `/work_log/${entry.entryid}/${move}`)).statusCode).toBe(403);
        expect((await post(operator.token, `/work_log/99999999/${move}`)).statusCode).toBe(404);
      }
      const resume = await post(operator.token, `/work_log/${entry.entryid}/resume`);
      expect(resume.statusCode).toBe(409);
      expect(resume.json()).toEqual({ ...entry, duration: expect.any(Number) });
      expect((await post(operator.token, `/work_log/${entry.entryid}/assume`)).statusCode).toBe(409);
    });

    it('a shift: step timing, pause, resume, suspend, assume by another reader, finish; audited and published', async () => {
      const entry = await start(operator, 'WO-shift');
      const torque = formOf(guide, 0).fields[0];
      const [step1, step2] = guide.steps.map((s) => s.stepid);
      let res = await t.as(operator.token, {
        method: 'PUT',
        url: api(`/work_log/${entry.entryid}/stepData`),
        payload: { fields: { [torque.field_revisionid]: '42.5' }, stepid: step1 },
      });
      expect(res.statusCode).toBe(200);
      const firstTiming = res.json().timingid;
      clock.advance(60_000);
      res = await post(operator.token, `/work_log/${entry.entryid}/pause`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        status: 'paused',
        timingid: firstTiming,
        timings: [
          { timingid: firstTiming, stepid: step1, date_start: entry.starttime, date_end: entry.starttime + 60 },
        ],
      });
      expect((await post(operator.token, `/work_log/${entry.entryid}/pause`)).statusCode).toBe(409);
      clock.advance(120_000);
      res = await post(operator.token, `/work_log/${entry.entryid}/resume`);
      expect(res.json()).toMatchObject({ status: 'started', paused_seconds: 120, current_stepid: step1 });
      expect(res.json().timings).toHaveLength(2);
      expect(res.json().timingid).not.toBe(firstTiming);
      clock.advance(10_000);
      res = await post(operator.token, `/work_log/${entry.entryid}/suspend`);
      expect(res.json()).toMatchObject({ status: 'suspended', userid: operator.user.userid });
      expect(res.json().timings[1].date_end).toBe(clock.nowSeconds());

      const suspendedList = await get(nextShift.token, `/work_log/${guide.guideid}/suspended`);
      expect(suspendedList.statusCode).toBe(200);
      expect(suspendedList.json().results.map((e: WorkLogEntryDto) => e.entryid)).toContain(entry.entryid);
      expect((await get(nextShift.token, `/work_log/${entry.entryid}`)).statusCode).toBe(404);

      res = await post(nextShift.token, `/work_log/${entry.entryid}/assume`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'started', userid: nextShift.user.userid, current_stepid: step1 });
      expect(res.json().timings).toHaveLength(3);
      expect((await post(operator.token, `/work_log/${entry.entryid}/pause`)).statusCode).toBe(404);
      expect((await post(nextShift.token, `/work_log/${entry.entryid}/assume`)).statusCode).toBe(409);

      res = await t.as(nextShift.token, {
        method: 'PUT',
        url: api(`/work_log/${entry.entryid}/stepData`),
        payload: { fields: {}, stepid: step2 },
      });
      expect(res.statusCode).toBe(422);
      clock.advance(5_000);
      res = await post(nextShift.token, `/work_log/${entry.entryid}/finish`);
      expect(res.statusCode).toBe(200);
      const finished = res.json();
      assertDozukiShape(finishResponse, finished);
      expect(finished).toEqual({
        endtime: clock.nowSeconds(),
        max_form_revisionid: entry.max_form_revisionid,
        guide_revisionid: guide.revisionid,
        entryid: entry.entryid,
        status: 'complete',
        duration: 195,
      });
      clock.advance(5_000);
      const again = await post(nextShift.token, `/work_log/${entry.entryid}/finish`);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(finished);
      const after = (await get(nextShift.token, `/work_log/${entry.entryid}`)).json();
      expect(after).toMatchObject({ status: 'complete', endtime: finished.endtime, duration: 195, cancelled: 0 });
      expect(after.work_data).toEqual([
        {
          label: 'Torque',
          value: '42.5',
          field_revisionid: torque.field_revisionid,
          stepid: step1,
          field_guid: torque.field_guid,
          date: entry.starttime,
        },
      ]);
      expect(after.timings.every((timing: { date_end: number | null }) => timing.date_end !== null)).toBe(true);
      for (const move of ['pause', 'resume', 'suspend', 'cancel', 'assume']) {
        const res409 = await post(nextShift.token, `/work_log/${entry.entryid}/${move}`);
        expect({ move, status: res409.statusCode }).toEqual({ move, status: 409 });
        expect(res409.json()).toMatchObject({ entryid: entry.entryid, status: 'complete' });
      }
      expect(await auditActions(entry.entryid)).toEqual([
        'work_log.start',
        'work_log.record',
        'work_log.pause',
        'work_log.resume',
        'work_log.suspend',
        'work_log.assume',
        'work_log.finish',
      ]);
      expect((await auditRows(entry.entryid)).find((r) => r.action === 'work_log.assume')).toMatchObject({
        before: { status: 'suspended', userid: operator.user.userid },
        after: expect.objectContaining({ status: 'started', userid: nextShift.user.userid }),
      });
      await settle(t);
      expect(events.filter((e) => e.entryid === entry.entryid).map((e) => `${e.name}:${e.status}`)).toEqual([
        'work_log.started:started',
        'work_log.paused:paused',
        'work_log.resumed:started',
        'work_log.suspended:suspended',
        'work_log.assumed:started',
        'work_order.status_changed:complete',
      ]);
    });

    it('finish: 422 naming each missing required field; 409 while suspended', async () => {
      const entry = await start(operator, 'WO-missing');
      const res = await post(operator.token, `/work_log/${entry.entryid}/finish`);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual([
        { message: 'Torque is required', field: `fields.${formOf(guide, 0).fields[0].field_revisionid}` },
      ]);
      await post(operator.token, `/work_log/${entry.entryid}/suspend`);
      expect((await post(operator.token, `/work_log/${entry.entryid}/finish`)).statusCode).toBe(409);
    });

    it('W9 and W12: 404 for a guide the caller may not read', async () => {
      const entry = await start(author, 'WO-private', privateGuide.guideid);
      await post(author.token, `/work_log/${entry.entryid}/suspend`);
      expect((await post(operator.token, `/work_log/${entry.entryid}/assume`)).statusCode).toBe(404);
      expect((await post(operator.token, '/work_log/99999999/assume')).statusCode).toBe(404);
      expect((await get(operator.token, `/work_log/${privateGuide.guideid}/suspended`)).statusCode).toBe(404);
      expect((await get(operator.token, '/work_log/99999999/suspended')).statusCode).toBe(404);
      expect((await get(undefined, `/work_log/${privateGuide.guideid}/suspended`)).statusCode).toBe(401);
      expect((await get(author.token, `/work_log/${privateGuide.guideid}/suspended?limit=0`)).statusCode).toBe(422);
      const own = await post(author.token, `/work_log/${entry.entryid}/assume`);
      expect(own.json()).toMatchObject({ status: 'started', userid: author.user.userid });
    });

    it('cancel (W5): owner or Moderator+, reason ≤ 2000 audited, from started, paused and suspended', async () => {
      const a = await start(operator, 'WO-c1');
      expect((await post(stranger.token, `/work_log/${a.entryid}/cancel`)).statusCode).toBe(404);
      const long = await post(operator.token, `/work_log/${a.entryid}/cancel`, { reason: 'x'.repeat(2001) });
      expect(long.statusCode).toBe(422);
      clock.advance(7_000);
      const cancelled = await post(moderator.token, `/work_log/${a.entryid}/cancel`, { reason: 'Wrong part' });
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json()).toMatchObject({
        status: 'cancelled',
        cancelled: 1,
        endtime: clock.nowSeconds(),
        duration: 7,
      });
      expect((await post(operator.token, `/work_log/${a.entryid}/cancel`)).statusCode).toBe(409);
      expect((await post(operator.token, `/work_log/${a.entryid}/finish`)).statusCode).toBe(409);
      expect((await auditRows(a.entryid)).map((r) => [r.action, r.reason])).toEqual([
        ['work_log.start', null],
        ['work_log.cancel', 'Wrong part'],
      ]);
      const b = await start(operator, 'WO-c2');
      await post(operator.token, `/work_log/${b.entryid}/pause`);
      expect((await post(operator.token, `/work_log/${b.entryid}/cancel`)).json().status).toBe('cancelled');
      const c = await start(operator, 'WO-c3');
      await post(operator.token, `/work_log/${c.entryid}/suspend`);
      expect((await post(operator.token, `/work_log/${c.entryid}/cancel`)).json().status).toBe('cancelled');
      await settle(t);
      const changed = events.filter(
        (e) => [a.entryid, b.entryid, c.entryid].includes(e.entryid) && e.name === 'work_order.status_changed',
      );
      expect(changed.map((e) => e.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    });
  });

  describe('DELETE /work_log/{entryid} (W11)', () => {
    it('401, 403 below Admin, 404 unknown; 204 soft delete: the entry leaves every read', async () => {
      const entry = await start(operator, 'WO-delete');
      const del = (token: string | undefined, id: number) =>
        t.as(token, { method: 'DELETE', url: api(`/work_log/${id}`) });
      expect((await del(undefined, entry.entryid)).statusCode).toBe(401);
      expect((await del(moderator.token, entry.entryid)).statusCode).toBe(403);
      expect((await del(admin.token, 99999999)).statusCode).toBe(404);
      expect((await del(admin.token, entry.entryid)).statusCode).toBe(204);
      expect((await get(operator.token, `/work_log/${entry.entryid}`)).statusCode).toBe(404);
      expect((await get(admin.token, `/work_log/${entry.entryid}`)).statusCode).toBe(404);
      expect((await get(operator.token, '/work_log?workorderid=WO-delete')).json().results).toEqual([]);
      expect((await post(operator.token, `/work_log/${entry.entryid}/pause`)).statusCode).toBe(404);
      expect((await del(admin.token, entry.entryid)).statusCode).toBe(404);
      expect(await auditActions(entry.entryid)).toEqual(['work_log.start', 'work_log.delete']);
      await settle(t);
      expect(events.filter((e) => e.entryid === entry.entryid).map((e) => e.name)).toEqual([
        'work_log.started',
        'work_log.deleted',
      ]);
    });
  });
});
