import { FakeClock } from '../../src/platform/clock/clock';
import { createGuide } from '../factories/guide.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { API, auditRows, eventRows, utc } from './periodic-review-kit';

/** P1-P4: schedules. */
describe('Periodic review schedules (P1-P4)', () => {
  let t: TestApp;
  const clock = new FakeClock(utc(2027, 1, 31, 10));
  let admin: CreatedUser;
  let moderator: CreatedUser;
  let author: CreatedUser;
  let other: CreatedUser;
  let user: CreatedUser;
  let teamid: number;

  const call = (token: string | undefined, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.as(token, { method, url: `${API}${url}`, ...(payload ? { payload } : {}) });
  const annual = { name: 'Annual', recurrence: { type: 'annual', month: 6, day: 1 } };

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
    admin = await createUser(t, { privilege: 'Admin' });
    moderator = await createUser(t, { privilege: 'Moderator' });
    author = await createUser(t, { privilege: 'Author' });
    other = await createUser(t, { privilege: 'Author' });
    user = await createUser(t);
    const team = await call(admin.token, 'POST', '/teams', { name: 'Reviewers' });
    if (team.statusCode !== 201) throw new Error(`team: ${team.body}`);
    teamid = team.json<{ teamid: number }>().teamid;
    await createCategory(t, author.user, 'Kettle');
  });
  afterAll(() => t.close());

  it('POST /periodic_review: 401, 403 for a User, 422 for shapes and rules', async () => {
    expect((await call(undefined, 'POST', '/periodic_review', annual)).statusCode).toBe(401);
    const denied = await call(user.token, 'POST', '/periodic_review', annual);
    expect(denied.statusCode).toBe(403);
    const bad = async (payload: object, field?: string) => {
      const res = await call(author.token, 'POST', '/periodic_review', payload);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ error: true, message: expect.any(String) });
      if (field) expect(res.json().errors[0].field).toBe(field);
    };
    await bad({ recurrence: annual.recurrence });
    await bad({ ...annual, name: '' });
    await bad({ ...annual, name: 'x'.repeat(256) });
    await bad({ name: 'No recurrence' });
    await bad({ name: 'Bad', recurrence: { type: 'weekly' } }, 'recurrence.type');
    await bad({ name: 'Bad', recurrence: { type: 'annual', month: 2, day: 30 } }, 'recurrence.day');
    await bad({ name: 'Bad', recurrence: { type: 'annual', month: 0, day: 1 } }, 'recurrence.month');
    await bad({ name: 'Bad', recurrence: { type: 'interval', days: 1 } }, 'recurrence.days');
    await bad({ name: 'Bad', recurrence: { type: 'interval', days: 3651 } }, 'recurrence.days');
    await bad({ name: 'Bad', recurrence: { type: 'interval', days: 30 } }, 'completion_window_days');
    await bad({ ...annual, completion_window_days: 0 });
    await bad({ ...annual, completion_window_days: 366 });
    await bad({ ...annual, default_reviewer_userid: 999999 }, 'default_reviewer_userid');
    await bad({ ...annual, default_reviewer_teamid: 999999 }, 'default_reviewer_teamid');
    const both = await call(author.token, 'POST', '/periodic_review', {
      ...annual,
      default_reviewer_userid: author.user.userid,
      default_reviewer_teamid: teamid,
    });
    expect(both.statusCode).toBe(422);
    expect(both.json()).toEqual({
      error: true,
      message: 'Send at most one of default_reviewer_userid and default_reviewer_teamid',
      errors: [
        {
          message: 'Send at most one of default_reviewer_userid and default_reviewer_teamid',
          field: 'default_reviewer_teamid',
        },
      ],
    });
    const list = await call(author.token, 'GET', '/periodic_review');
    expect(list.json()).toEqual([]);
  });

  it('201 ScheduleDetail; audit row and outbox event; Feb 29 annual and interval with window', async () => {
    const res = await call(author.token, 'POST', '/periodic_review', {
      name: 'Leap',
      recurrence: { type: 'annual', month: 2, day: 29 },
      default_reviewer_userid: other.user.userid,
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      prsid: expect.any(Number),
      name: 'Leap',
      recurrence: { type: 'annual', month: 2, day: 29 },
      completion_window_days: 30,
      default_reviewer: expect.objectContaining({ userid: other.user.userid, username: other.user.username }),
      default_team: null,
      documents_count: 0,
      created_by: expect.objectContaining({ userid: author.user.userid }),
      created_date: clock.nowSeconds(),
      documents: [],
    });
    expect((await auditRows(t, 'periodic_review_schedule', body.prsid)).map((a) => a.action)).toEqual([
      'periodic_review.schedule_create',
    ]);
    expect((await eventRows(t, 'periodic_review_schedule', body.prsid)).map((e) => e.name)).toEqual([
      'periodic_review.schedule_created',
    ]);
    const team = await call(author.token, 'POST', '/periodic_review', {
      name: 'Team',
      recurrence: { type: 'interval', days: 2 },
      completion_window_days: 1,
      default_reviewer_teamid: teamid,
    });
    expect(team.statusCode).toBe(201);
    expect(team.json()).toMatchObject({
      recurrence: { type: 'interval', days: 2 },
      completion_window_days: 1,
      default_reviewer: null,
      default_team: { teamid, name: 'Reviewers' },
    });
  });

  it('GET /periodic_review: 401, 403, 422 paging; lists live schedules by prsid with documents_count', async () => {
    expect((await call(undefined, 'GET', '/periodic_review')).statusCode).toBe(401);
    expect((await call(user.token, 'GET', '/periodic_review')).statusCode).toBe(403);
    expect((await call(author.token, 'GET', '/periodic_review?limit=0')).statusCode).toBe(422);
    const created = await call(author.token, 'POST', '/periodic_review', { ...annual, name: 'Listed' });
    const prsid = created.json<{ prsid: number }>().prsid;
    const wiki = await createWiki(t, author.user, { contents: 'Text' });
    const add = await call(author.token, 'POST', '/periodic_review/documents', {
      prsid,
      documents: [{ doctype: 'wiki', docid: wiki.wikiid }],
    });
    expect(add.statusCode).toBe(200);
    const asc = (await call(other.token, 'GET', '/periodic_review')).json<
      { prsid: number; documents_count: number }[]
    >();
    expect(asc.map((s) => s.prsid)).toEqual([...asc.map((s) => s.prsid)].sort((a, b) => a - b));
    expect(asc.find((s) => s.prsid === prsid)).toMatchObject({ name: 'Listed', documents_count: 1 });
    expect(asc[0]).not.toHaveProperty('documents');
    const desc = (await call(author.token, 'GET', '/periodic_review?order=DESC&limit=1')).json<{ prsid: number }[]>();
    expect(desc.map((s) => s.prsid)).toEqual([prsid]);
  });

  it('GET /periodic_review/{prsid}: 401, 403, 404; lists only documents the caller may read', async () => {
    const prsid = (await call(author.token, 'POST', '/periodic_review', { ...annual, name: 'Private' })).json().prsid;
    expect((await call(undefined, 'GET', `/periodic_review/${prsid}`)).statusCode).toBe(401);
    expect((await call(user.token, 'GET', `/periodic_review/${prsid}`)).statusCode).toBe(403);
    const missing = await call(author.token, 'GET', '/periodic_review/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: true, message: 'Schedule not found' });
    expect((await call(author.token, 'GET', '/periodic_review/abc')).statusCode).toBe(404);
    expect((await call(author.token, 'GET', '/periodic_review/99999999999')).statusCode).toBe(404);
    const hidden = await createGuide(t, author.user, { category: 'Kettle', public: false });
    const shown = await createWiki(t, author.user, { contents: 'Shown' });
    const add = await call(author.token, 'POST', '/periodic_review/documents', {
      prsid,
      documents: [
        { doctype: 'GUIDE', docid: hidden.guideid },
        { doctype: 'WIKI', docid: shown.wikiid },
      ],
    });
    expect(add.statusCode).toBe(200);
    expect(add.json().documents.map((d: { docid: number }) => d.docid)).toEqual([hidden.guideid, shown.wikiid]);
    const seen = (await call(other.token, 'GET', `/periodic_review/${prsid}`)).json();
    expect(seen.documents_count).toBe(2);
    expect(seen.documents.map((d: { doctype: string }) => d.doctype)).toEqual(['WIKI']);
  });

  it('DELETE /periodic_review/{prsid}: 401, 403 for others, 404; frees its documents', async () => {
    const prsid = (await call(author.token, 'POST', '/periodic_review', { ...annual, name: 'Gone' })).json().prsid;
    const wiki = await createWiki(t, author.user, { contents: 'Freed' });
    await call(author.token, 'POST', '/periodic_review/documents', {
      prsid,
      documents: [{ doctype: 'WIKI', docid: wiki.wikiid }],
    });
    expect((await call(undefined, 'DELETE', `/periodic_review/${prsid}`)).statusCode).toBe(401);
    expect((await call(user.token, 'DELETE', `/periodic_review/${prsid}`)).statusCode).toBe(403);
    const denied = await call(other.token, 'DELETE', `/periodic_review/${prsid}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({
      error: true,
      message: 'Only the creator of a schedule or a Moderator may delete it',
    });
    expect((await call(author.token, 'DELETE', '/periodic_review/999999')).statusCode).toBe(404);
    expect((await call(moderator.token, 'DELETE', `/periodic_review/${prsid}`)).statusCode).toBe(204);
    expect((await call(author.token, 'GET', `/periodic_review/${prsid}`)).statusCode).toBe(404);
    expect((await call(author.token, 'DELETE', `/periodic_review/${prsid}`)).statusCode).toBe(404);
    expect((await auditRows(t, 'periodic_review_schedule', prsid)).map((a) => a.action)).toEqual([
      'periodic_review.schedule_create',
      'periodic_review.schedule_delete',
    ]);
    const again = (await call(author.token, 'POST', '/periodic_review', { ...annual, name: 'Next' })).json().prsid;
    const readd = await call(author.token, 'POST', '/periodic_review/documents', {
      prsid: again,
      documents: [{ doctype: 'WIKI', docid: wiki.wikiid }],
    });
    expect(readd.statusCode).toBe(200);
    expect(readd.json().documents_count).toBe(1);
  });
});
