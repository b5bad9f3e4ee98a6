import { FakeClock } from '../../src/platform/clock/clock';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createWiki } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { API, auditRows, eventRows, utc } from './periodic-review-kit';

const DAY = 86_400;

/** P11: signed reviews, outcomes and change requests. */
describe('Periodic reviews (P11)', () => {
  let t: TestApp;
  const clock = new FakeClock(utc(2027, 1, 31, 10, 15, 7));
  let admin: CreatedUser;
  let author: CreatedUser;
  let reviewer: CreatedUser;
  let member: CreatedUser;
  let user: CreatedUser;
  let teamid: number;

  const call = (token: string | undefined, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.as(token, { method, url: `${API}${url}`, ...(payload ? { payload } : {}) });
  const review = (token: string | undefined, payload: object) =>
    call(token, 'POST', '/periodic_review/review', payload);
  /** A wiki by the author in a 30-day schedule with a 7-day window; answers its ReviewDocument. */
  const scheduled = async (extra: object = {}) => {
    const s = await call(author.token, 'POST', '/periodic_review', {
      name: 'Monthly',
      recurrence: { type: 'interval', days: 30 },
      completion_window_days: 7,
      ...extra,
    });
    const wiki = await createWiki(t, author.user, { contents: 'Body' });
    const res = await call(author.token, 'POST', '/periodic_review/documents', {
      prsid: s.json().prsid,
      documents: [{ doctype: 'WIKI', docid: wiki.wikiid }],
    });
    if (res.statusCode !== 200) throw new Error(res.body);
    return res.json<{ documents: { prdid: number; docid: number; next_due_date: number }[] }>().documents[0];
  };

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
    admin = await createUser(t, { privilege: 'Admin' });
    author = await createUser(t, { privilege: 'Author', password: 'author password 1' });
    reviewer = await createUser(t, { password: 'reviewer password 1' });
    member = await createUser(t, { password: 'member password 1' });
    user = await createUser(t, { password: 'user password 1' });
    const team = await call(admin.token, 'POST', '/teams', { name: 'QA' });
    teamid = team.json<{ teamid: number }>().teamid;
    const joined = await call(admin.token, 'PUT', `/teams/${teamid}/users/${member.user.userid}`);
    if (joined.statusCode >= 300) throw new Error(joined.body);
  });
  afterAll(() => t.close());

  it('401, 422 shapes, 404, 409 not scheduled or not yet open, 403 who, 403 wrong password', async () => {
    clock.set(utc(2027, 1, 31, 10, 15, 7));
    const doc = await scheduled({ default_reviewer_userid: reviewer.user.userid });
    const ok = { prdid: doc.prdid, outcome: 'no_changes', password: 'reviewer password 1' };
    expect((await review(undefined, ok)).statusCode).toBe(401);
    const bad = async (payload: object, field?: string) => {
      const res = await review(reviewer.token, payload);
      expect(res.statusCode).toBe(422);
      if (field) expect(res.json().errors[0].field).toBe(field);
    };
    await bad({ prdid: doc.prdid, outcome: 'no_changes' });
    await bad({ ...ok, outcome: 'fine' });
    await bad({ outcome: 'no_changes', password: 'x' }, 'prdid');
    await bad({ ...ok, notes: 'x'.repeat(5001) });
    await bad({ ...ok, outcome: 'changes_requested' }, 'change_request.description');
    await bad({ ...ok, outcome: 'changes_requested', change_request: { description: '' } });
    const missing = await review(reviewer.token, { ...ok, prdid: 999999 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: true, message: 'Review document not found' });
    expect((await review(reviewer.token, { ...ok, prdid: undefined, doctype: 'WIKI', docid: 999999 })).statusCode).toBe(
      404,
    );
    const loose = await createWiki(t, author.user, { contents: 'Loose' });
    const unscheduled = await review(reviewer.token, { ...ok, prdid: undefined, doctype: 'wiki', docid: loose.wikiid });
    expect(unscheduled.statusCode).toBe(409);
    expect(unscheduled.json()).toEqual({ error: true, message: 'The document is not in a review schedule' });
    const early = await review(reviewer.token, ok);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ prdid: doc.prdid, state: 'scheduled' });
    clock.set((doc.next_due_date - 7 * DAY) * 1000);
    const denied = await review(user.token, { ...ok, password: 'user password 1' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({
      error: true,
      message: 'Only the reviewer or an editor of the document may review it',
    });
    const wrong = await review(reviewer.token, { ...ok, password: 'not it' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ error: true, message: 'Signature authentication failed' });
    const opened = await review(reviewer.token, ok);
    expect(opened.statusCode).toBe(201);
  });

  it('201 Review with the signature; the next due date counts from the review; a second review is 409', async () => {
    clock.set(utc(2027, 1, 31, 10, 15, 7));
    const doc = await scheduled({ default_reviewer_userid: reviewer.user.userid });
    clock.set((doc.next_due_date + DAY) * 1000);
    const now = clock.nowSeconds();
    const res = await review(reviewer.token, {
      doctype: 'WIKI',
      docid: doc.docid,
      outcome: 'no_changes',
      notes: 'Still right',
      password: 'reviewer password 1',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      reviewid: expect.any(Number),
      prdid: doc.prdid,
      doctype: 'WIKI',
      docid: doc.docid,
      document_title: expect.any(String),
      revisionid: expect.any(Number),
      user: expect.objectContaining({ userid: reviewer.user.userid }),
      outcome: 'no_changes',
      notes: 'Still right',
      source: 'review',
      releaseid: null,
      signature: {
        userid: reviewer.user.userid,
        printed_name: reviewer.user.username,
        signed_at: now,
        meaning: 'review',
        note: 'Still right',
      },
      date: now,
      change_request: null,
    });
    const schedule = await call(
      author.token,
      'GET',
      `/periodic_review/${(await call(author.token, 'GET', '/periodic_review?order=DESC&limit=1')).json()[0].prsid}`,
    );
    expect(schedule.json().documents[0]).toMatchObject({
      last_reviewed_date: now,
      next_due_date: now + 30 * DAY,
      state: 'scheduled',
    });
    expect((await auditRows(t, 'periodic_review', body.reviewid)).map((a) => a.action)).toEqual([
      'periodic_review.review',
    ]);
    expect((await eventRows(t, 'periodic_review', body.reviewid)).map((e) => e.name)).toEqual([
      'periodic_review.completed',
    ]);
    const again = await review(reviewer.token, {
      prdid: doc.prdid,
      outcome: 'no_changes',
      password: 'reviewer password 1',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ prdid: doc.prdid, state: 'scheduled', last_reviewed_date: now });
  });

  it('a team member requests changes (assigned to the author); a later no_changes review by an editor resolves it', async () => {
    clock.set(utc(2027, 1, 31, 10, 15, 7));
    const doc = await scheduled({ default_reviewer_teamid: teamid });
    clock.set((doc.next_due_date - DAY) * 1000);
    const requested = await review(member.token, {
      prdid: doc.prdid,
      outcome: 'changes_requested',
      change_request: { description: 'Fix step 2' },
      password: 'member password 1',
    });
    expect(requested.statusCode).toBe(201);
    const request = requested.json().change_request;
    expect(request).toEqual({
      requestid: expect.any(Number),
      reviewid: requested.json().reviewid,
      doctype: 'WIKI',
      docid: doc.docid,
      document_title: requested.json().document_title,
      assignee: expect.objectContaining({ userid: author.user.userid }),
      requested_by: expect.objectContaining({ userid: member.user.userid }),
      description: 'Fix step 2',
      status: 'open',
      resolved_by_releaseid: null,
      created_date: clock.nowSeconds(),
      resolved_date: null,
    });
    const unknown = await review(author.token, {
      prdid: doc.prdid,
      outcome: 'changes_requested',
      change_request: { description: 'x', assignee_userid: 999999 },
      password: 'author password 1',
    });
    // Already reviewed: the window is closed again, which is answered before the unknown assignee.
    expect(unknown.statusCode).toBe(409);
    clock.set((doc.next_due_date + 30 * DAY) * 1000);
    const resolved = await review(author.token, {
      prdid: doc.prdid,
      outcome: 'no_changes',
      password: 'author password 1',
    });
    expect(resolved.statusCode).toBe(201);
    expect((await auditRows(t, 'periodic_review_change_request', request.requestid)).map((a) => a.action)).toEqual([
      'periodic_review.change_request_open',
      'periodic_review.change_request_resolve',
    ]);
    const after = (await auditRows(t, 'periodic_review_change_request', request.requestid))[1];
    expect(after.after).toMatchObject({ status: 'resolved', resolved_date: clock.nowSeconds() });
  });

  it('an unknown change_request assignee is 422 while the review is open', async () => {
    clock.set(utc(2027, 1, 31, 10, 15, 7));
    const doc = await scheduled();
    clock.set((doc.next_due_date - DAY) * 1000);
    const res = await review(author.token, {
      prdid: doc.prdid,
      outcome: 'changes_requested',
      change_request: { description: 'x', assignee_userid: 999999 },
      password: 'author password 1',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0].field).toBe('change_request.assignee_userid');
  });
});
