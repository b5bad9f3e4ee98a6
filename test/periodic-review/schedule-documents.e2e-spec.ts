import { FakeClock } from '../../src/platform/clock/clock';
import { createGuide } from '../factories/guide.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { API, auditRows, eventRows, utc } from './periodic-review-kit';

const DAY = 86_400;

/** P7-P9 and the due dates, windows and states (docs/enterprise/periodic-review.md) read through P3. */
describe('Periodic review documents (P7-P9)', () => {
  let t: TestApp;
  const clock = new FakeClock(utc(2027, 1, 31, 10, 15, 7));
  let moderator: CreatedUser;
  let author: CreatedUser;
  let other: CreatedUser;
  let user: CreatedUser;

  const call = (token: string | undefined, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.as(token, { method, url: `${API}${url}`, ...(payload ? { payload } : {}) });
  const schedule = async (recurrence: object, extra: object = {}, token = author.token) => {
    const res = await call(token, 'POST', '/periodic_review', { name: 'S', recurrence, ...extra });
    expect(res.statusCode).toBe(201);
    return res.json<{ prsid: number }>().prsid;
  };
  const add = (prsid: number, documents: object[], token = author.token) =>
    call(token, 'POST', '/periodic_review/documents', { prsid, documents });
  const documentOf = async (prsid: number, docid: number) =>
    (await call(author.token, 'GET', `/periodic_review/${prsid}`))
      .json<{ documents: { docid: number; state: string; next_due_date: number; window_opens_date: number }[] }>()
      .documents.find((d) => d.docid === docid)!;

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
    moderator = await createUser(t, { privilege: 'Moderator' });
    author = await createUser(t, { privilege: 'Author' });
    other = await createUser(t, { privilege: 'Author' });
    user = await createUser(t);
    await createCategory(t, author.user, 'Kettle');
  });
  afterAll(() => t.close());

  it('POST /periodic_review/documents: 401, 403 route, 422 shape, 404, 403 per document, 409, 422 reviewer', async () => {
    const prsid = await schedule({ type: 'annual', month: 6, day: 1 });
    const wiki = await createWiki(t, author.user, { contents: 'A' });
    const guide = await createGuide(t, author.user, { category: 'Kettle', public: true });
    const doc = { doctype: 'WIKI', docid: wiki.wikiid };
    expect((await add(prsid, [doc], '')).statusCode).toBe(401);
    expect((await add(prsid, [doc], user.token)).statusCode).toBe(403);
    for (const documents of [
      [],
      [{ doctype: 'TEAM', docid: 1 }],
      [{ doctype: 'WIKI', docid: 'x' }],
      Array(101).fill(doc),
    ]) {
      expect((await add(prsid, documents)).statusCode).toBe(422);
    }
    expect((await call(author.token, 'POST', '/periodic_review/documents', { documents: [doc] })).statusCode).toBe(422);
    const noSchedule = await add(999999, [doc]);
    expect(noSchedule.statusCode).toBe(404);
    expect(noSchedule.json()).toEqual({ error: true, message: 'Schedule not found' });
    const noDoc = await add(prsid, [doc, { doctype: 'GUIDE', docid: 999999 }]);
    expect(noDoc.statusCode).toBe(404);
    expect(noDoc.json()).toEqual({ error: true, message: 'Guide not found' });
    const notEditor = await add(prsid, [doc, { doctype: 'guide', docid: guide.guideid }], other.token);
    expect(notEditor.statusCode).toBe(403);
    expect(notEditor.json().message).toBe(`Only editors of every document may do this (not of guide ${guide.guideid})`);
    const unknown = await add(prsid, [
      doc,
      { ...doc, docid: guide.guideid, doctype: 'GUIDE', reviewer_userid: 999999 },
    ]);
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors[0].field).toBe('documents.1.reviewer_userid');
    expect((await call(author.token, 'GET', `/periodic_review/${prsid}`)).json().documents_count).toBe(0);

    expect((await add(prsid, [doc])).statusCode).toBe(200);
    const elsewhere = await schedule({ type: 'interval', days: 90 });
    const conflict = await add(elsewhere, [{ doctype: 'GUIDE', docid: guide.guideid }, doc]);
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toEqual({
      error: true,
      message: 'A document is in another schedule',
      conflicts: [{ doctype: 'WIKI', docid: wiki.wikiid, prsid }],
    });
    expect((await call(author.token, 'GET', `/periodic_review/${elsewhere}`)).json().documents_count).toBe(0);
  });

  it('200 ScheduleDetail with whole ReviewDocuments; repeats are no-ops; reviewer falls back to default, then author', async () => {
    const prsid = await schedule({ type: 'interval', days: 30 }, { completion_window_days: 7 });
    const a = await createWiki(t, author.user, { contents: 'A' });
    const b = await createWiki(t, other.user, { contents: 'B' });
    const res = await add(prsid, [
      { doctype: 'WIKI', docid: a.wikiid },
      { doctype: 'wiki', docid: b.wikiid, reviewer_userid: moderator.user.userid },
      { doctype: 'WIKI', docid: a.wikiid },
    ]);
    expect(res.statusCode).toBe(200);
    const now = clock.nowSeconds();
    const body = res.json();
    expect(body.documents_count).toBe(2);
    expect(body.documents).toEqual([
      {
        prdid: expect.any(Number),
        prsid,
        doctype: 'WIKI',
        docid: a.wikiid,
        title: a.title,
        url: expect.stringContaining('/Wiki/'),
        reviewer: expect.objectContaining({ userid: author.user.userid }),
        next_due_date: now + 30 * DAY,
        window_opens_date: now + 23 * DAY,
        last_reviewed_date: null,
        state: 'scheduled',
      },
      expect.objectContaining({
        docid: b.wikiid,
        reviewer: expect.objectContaining({ userid: moderator.user.userid }),
      }),
    ]);
    // Jan 31 10:15:07 + 30 days is Mar 2 10:15:07 (2027 is not a leap year).
    expect(body.documents[0].next_due_date).toBe(utc(2027, 3, 2, 10, 15, 7) / 1000);
    const again = await add(prsid, [{ doctype: 'WIKI', docid: a.wikiid }]);
    expect(again.json().documents.map((d: { prdid: number }) => d.prdid)).toEqual(
      body.documents.map((d: { prdid: number }) => d.prdid),
    );
    const prdid = body.documents[0].prdid;
    expect((await auditRows(t, 'periodic_review_document', prdid)).map((r) => r.action)).toEqual([
      'periodic_review.document_add',
    ]);
    expect((await eventRows(t, 'periodic_review_document', prdid)).map((e) => e.name)).toEqual([
      'periodic_review.document_added',
    ]);
    const withDefault = await schedule(
      { type: 'annual', month: 6, day: 1 },
      { default_reviewer_userid: other.user.userid },
    );
    const c = await createWiki(t, author.user, { contents: 'C' });
    const added = (await add(withDefault, [{ doctype: 'WIKI', docid: c.wikiid }])).json();
    expect(added.documents[0].reviewer).toMatchObject({ userid: other.user.userid });
  });

  it('states from the clock: window boundaries to the second, overdue from the due date', async () => {
    clock.set(utc(2027, 1, 31, 10, 15, 7));
    const prsid = await schedule({ type: 'interval', days: 30 }, { completion_window_days: 7 });
    const wiki = await createWiki(t, author.user, { contents: 'W' });
    await add(prsid, [{ doctype: 'WIKI', docid: wiki.wikiid }]);
    const due = utc(2027, 3, 2, 10, 15, 7);
    clock.set(due - 7 * DAY * 1000 - 1000);
    expect((await documentOf(prsid, wiki.wikiid)).state).toBe('scheduled');
    clock.set(due - 7 * DAY * 1000);
    expect((await documentOf(prsid, wiki.wikiid)).state).toBe('open');
    clock.set(due - 1000);
    expect((await documentOf(prsid, wiki.wikiid)).state).toBe('open');
    clock.set(due);
    expect((await documentOf(prsid, wiki.wikiid)).state).toBe('overdue');
    clock.set(utc(2027, 1, 31, 10, 15, 7));
  });

  it('an annual Feb 29 schedule is due Feb 28 in a non-leap year and Feb 29 in a leap year, at 00:00 UTC', async () => {
    clock.set(utc(2027, 2, 1, 12));
    const prsid = await schedule({ type: 'annual', month: 2, day: 29 });
    const early = await createWiki(t, author.user, { contents: 'Early' });
    await add(prsid, [{ doctype: 'WIKI', docid: early.wikiid }]);
    expect((await documentOf(prsid, early.wikiid)).next_due_date).toBe(utc(2027, 2, 28) / 1000);
    expect((await documentOf(prsid, early.wikiid)).state).toBe('open');
    clock.set(utc(2027, 3, 1, 12));
    const late = await createWiki(t, author.user, { contents: 'Late' });
    await add(prsid, [{ doctype: 'WIKI', docid: late.wikiid }]);
    expect((await documentOf(prsid, late.wikiid)).next_due_date).toBe(utc(2028, 2, 29) / 1000);
    expect((await documentOf(prsid, late.wikiid)).window_opens_date).toBe(utc(2028, 1, 30) / 1000);
    expect((await documentOf(prsid, early.wikiid)).state).toBe('overdue');
    clock.set(utc(2027, 1, 31, 10, 15, 7));
  });

  it('DELETE /periodic_review/documents and /documents/{prdid}: 401, 422, 404 all or nothing, 403, 204', async () => {
    const prsid = await schedule({ type: 'annual', month: 6, day: 1 });
    const guide = await createGuide(t, author.user, { category: 'Kettle', public: true });
    const w1 = await createWiki(t, author.user, { contents: '1' });
    const w2 = await createWiki(t, author.user, { contents: '2' });
    const body = (
      await add(prsid, [
        { doctype: 'GUIDE', docid: guide.guideid },
        { doctype: 'WIKI', docid: w1.wikiid },
        { doctype: 'WIKI', docid: w2.wikiid },
      ])
    ).json();
    const [g, d1, d2] = body.documents.map((d: { prdid: number }) => d.prdid);
    const del = (token: string | undefined, url: string, payload?: object) => call(token, 'DELETE', url, payload);
    expect((await del(undefined, `/periodic_review/documents/${g}`)).statusCode).toBe(401);
    expect((await del(undefined, '/periodic_review/documents', { prdids: [g] })).statusCode).toBe(401);
    expect((await del(author.token, '/periodic_review/documents', { prdids: [] })).statusCode).toBe(422);
    expect((await del(author.token, '/periodic_review/documents', { prdids: ['a'] })).statusCode).toBe(422);
    expect((await del(author.token, '/periodic_review/documents')).statusCode).toBe(422);
    expect((await del(author.token, '/periodic_review/documents?prdids=1,x')).statusCode).toBe(422);
    const gone = await del(author.token, '/periodic_review/documents', { prdids: [d1, 999999] });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: true, message: 'Review document not found' });
    expect((await del(author.token, '/periodic_review/documents/999999')).statusCode).toBe(404);
    expect((await del(author.token, '/periodic_review/documents/abc')).statusCode).toBe(404);
    // A User edits neither the guide nor WIKI pages and did not create the schedule.
    const denied = await del(user.token, `/periodic_review/documents?prdids=${d1}`);
    expect(denied.statusCode).toBe(403);
    // Another Author edits wikis but not the guide.
    expect((await del(other.token, '/periodic_review/documents', { prdids: [d1, g] })).statusCode).toBe(403);
    expect((await call(author.token, 'GET', `/periodic_review/${prsid}`)).json().documents_count).toBe(3);
    expect((await del(other.token, `/periodic_review/documents?prdids=${d1},${d2}`)).statusCode).toBe(204);
    expect((await del(moderator.token, `/periodic_review/documents/${g}`)).statusCode).toBe(204);
    expect((await del(moderator.token, `/periodic_review/documents/${g}`)).statusCode).toBe(404);
    expect((await call(author.token, 'GET', `/periodic_review/${prsid}`)).json().documents_count).toBe(0);
    expect((await auditRows(t, 'periodic_review_document', g)).map((r) => r.action)).toEqual([
      'periodic_review.document_add',
      'periodic_review.document_remove',
    ]);
    expect((await eventRows(t, 'periodic_review_document', d2)).map((e) => e.name)).toEqual([
      'periodic_review.document_added',
      'periodic_review.document_removed',
    ]);
  });

  it('the schedule creator may remove documents they do not edit', async () => {
    const prsid = await schedule({ type: 'annual', month: 6, day: 1 }, {}, other.token);
    const guide = await createGuide(t, author.user, { category: 'Kettle', public: true });
    const res = await call(moderator.token, 'POST', '/periodic_review/documents', {
      prsid,
      documents: [{ doctype: 'GUIDE', docid: guide.guideid }],
    });
    expect(res.statusCode).toBe(200);
    const prdid = res.json().documents[0].prdid;
    expect((await call(other.token, 'DELETE', `/periodic_review/documents/${prdid}`)).statusCode).toBe(204);
  });
});
