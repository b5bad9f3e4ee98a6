import { FakeClock } from '../../src/platform/clock/clock';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createWiki } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { API, auditRows, utc } from './periodic-review-kit';

const DAY = 86_400;

/** The ReviewDirectory the releases module calls, and change requests resolved in a release's transaction. */
describe('Periodic review and releases', () => {
  let t: TestApp;
  const clock = new FakeClock(utc(2027, 1, 31, 10, 15, 7));
  let moderator: CreatedUser;
  let author: CreatedUser;
  let admin: CreatedUser;

  const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.as(token, { method, url: `${API}${url}`, ...(payload ? { payload } : {}) });
  const scheduled = async () => {
    clock.set(utc(2027, 1, 31, 10, 15, 7));
    const prsid = (
      await call(author.token, 'POST', '/periodic_review', {
        name: 'Monthly',
        recurrence: { type: 'interval', days: 30 },
        completion_window_days: 7,
        default_reviewer_userid: moderator.user.userid,
      })
    ).json().prsid;
    const wiki = await createWiki(t, author.user, { contents: 'Body' });
    const doc = (
      await call(author.token, 'POST', '/periodic_review/documents', {
        prsid,
        documents: [{ doctype: 'WIKI', docid: wiki.wikiid }],
      })
    ).json().documents[0];
    return { wiki, doc };
  };

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
    moderator = await createUser(t, { privilege: 'Moderator', password: 'moderator password 1' });
    author = await createUser(t, { privilege: 'Author', password: 'author password 1' });
    admin = await createUser(t, { privilege: 'Admin' });
  });
  afterAll(() => t.close());

  it('the Moderator requests a change; the Author releases a new version and the request shows resolved', async () => {
    const { wiki, doc } = await scheduled();
    clock.set((doc.next_due_date - DAY) * 1000);
    const due = await call(moderator.token, 'GET', `/periodic_review/documents/${moderator.user.userid}?state=open`);
    expect(due.json().map((d: { prdid: number }) => d.prdid)).toEqual([doc.prdid]);
    const reviewed = await call(moderator.token, 'POST', '/periodic_review/review', {
      prdid: doc.prdid,
      outcome: 'changes_requested',
      change_request: { description: 'Add a warning' },
      password: 'moderator password 1',
    });
    expect(reviewed.statusCode).toBe(201);
    const requestid = reviewed.json().change_request.requestid;
    clock.advance(3600_000);
    const release = await call(author.token, 'POST', `/wikis/${wiki.wikiid}/releases`, { type: 'major' });
    expect(release.statusCode).toBe(201);
    expect(release.json()).toMatchObject({ status: 'released', periodic_review_confirmed: false });
    // Resolved in the release's transaction: read at once, no event delivery awaited.
    const requests = await call(author.token, 'GET', `/periodic_review/requests/${author.user.userid}`);
    expect(requests.json()).toEqual([
      expect.objectContaining({
        requestid,
        status: 'resolved',
        resolved_by_releaseid: release.json().releaseid,
        resolved_date: clock.nowSeconds(),
      }),
    ]);
    expect((await auditRows(t, 'periodic_review_change_request', requestid)).map((a) => a.action)).toEqual([
      'periodic_review.change_request_open',
      'periodic_review.change_request_resolve',
    ]);
  });

  const requestChange = async (prdid: number) => {
    const reviewed = await call(moderator.token, 'POST', '/periodic_review/review', {
      prdid,
      outcome: 'changes_requested',
      change_request: { description: 'Add a warning' },
      password: 'moderator password 1',
    });
    expect(reviewed.statusCode).toBe(201);
    return reviewed.json().change_request.requestid as number;
  };

  it('a release approved through its approval process resolves the requests in the approving transaction', async () => {
    const { wiki, doc } = await scheduled();
    clock.set((doc.next_due_date - DAY) * 1000);
    const requestid = await requestChange(doc.prdid);
    const process = await call(admin.token, 'POST', '/approvals/process', {
      name: `One signer ${wiki.wikiid}`,
      stages: [{ userid: moderator.user.userid }],
    });
    expect(process.statusCode).toBe(201);
    const assigned = await t.as(admin.token, {
      method: 'PUT',
      url: `${API}/approvals/${wiki.wikiid}/${process.json().approval_processid}`,
      payload: {},
    });
    expect(assigned.statusCode).toBe(200);
    clock.advance(3600_000);
    const release = (await call(author.token, 'POST', `/wikis/${wiki.wikiid}/releases`, { type: 'major' })).json();
    expect(release).toMatchObject({ status: 'pending' });
    const mine = async () =>
      (await call(author.token, 'GET', `/periodic_review/requests/${author.user.userid}`))
        .json<{ requestid: number }[]>()
        .filter((r) => r.requestid === requestid);
    expect(await mine()).toEqual([expect.objectContaining({ status: 'open' })]);
    clock.advance(60_000);
    const signed = await call(moderator.token, 'POST', `/approvals/request/sign/${release.approval_requestid}`, {
      decision: 'approve',
      password: 'moderator password 1',
    });
    expect(signed.statusCode).toBe(200);
    expect(signed.json().release).toMatchObject({ releaseid: release.releaseid, status: 'released' });
    expect(await mine()).toEqual([
      expect.objectContaining({
        status: 'resolved',
        resolved_by_releaseid: release.releaseid,
        resolved_date: clock.nowSeconds(),
      }),
    ]);
  });

  it('10 releases of the document at once: every one goes live, the request is resolved once, by the first', async () => {
    const { wiki, doc } = await scheduled();
    clock.set((doc.next_due_date - DAY) * 1000);
    const requestid = await requestChange(doc.prdid);
    clock.advance(3600_000);
    const releases = await Promise.all(
      Array.from({ length: 10 }, () => call(author.token, 'POST', `/wikis/${wiki.wikiid}/releases`, { type: 'minor' })),
    );
    expect(releases.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    const first = Math.min(...releases.map((r) => r.json<{ releaseid: number }>().releaseid));
    const [request] = (await call(author.token, 'GET', `/periodic_review/requests/${author.user.userid}`))
      .json<{ requestid: number; status: string; resolved_by_releaseid: number }[]>()
      .filter((r) => r.requestid === requestid);
    expect(request).toMatchObject({ status: 'resolved', resolved_by_releaseid: first });
    expect((await auditRows(t, 'periodic_review_change_request', requestid)).map((a) => a.action)).toEqual([
      'periodic_review.change_request_open',
      'periodic_review.change_request_resolve',
    ]);
  });

  it('a release confirmed while the review is open records a review (source release); while scheduled it does not', async () => {
    const { wiki, doc } = await scheduled();
    const early = await call(author.token, 'POST', `/wikis/${wiki.wikiid}/releases`, {
      type: 'minor',
      periodic_review_confirmed: true,
      password: 'author password 1',
    });
    expect(early.statusCode).toBe(201);
    expect(early.json().periodic_review_confirmed).toBe(false);
    expect((await call(author.token, 'GET', `/periodic_review/reviews/${author.user.userid}`)).json()).toEqual([]);
    clock.set((doc.next_due_date + DAY) * 1000);
    const wrong = await call(author.token, 'POST', `/wikis/${wiki.wikiid}/releases`, {
      type: 'major',
      periodic_review_confirmed: true,
      password: 'not it',
    });
    expect(wrong.statusCode).toBe(403);
    const confirmed = await call(author.token, 'POST', `/wikis/${wiki.wikiid}/releases`, {
      type: 'major',
      notes: 'Reviewed',
      periodic_review_confirmed: true,
      password: 'author password 1',
    });
    expect(confirmed.statusCode).toBe(201);
    expect(confirmed.json().periodic_review_confirmed).toBe(true);
    const now = clock.nowSeconds();
    const reviews = (await call(author.token, 'GET', `/periodic_review/reviews/${author.user.userid}`)).json();
    expect(reviews).toEqual([
      expect.objectContaining({
        prdid: doc.prdid,
        outcome: 'no_changes',
        source: 'release',
        releaseid: confirmed.json().releaseid,
        revisionid: confirmed.json().revisionid,
        notes: 'Reviewed',
        date: now,
        signature: expect.objectContaining({ userid: author.user.userid, meaning: 'review', signed_at: now }),
      }),
    ]);
    const state = (await call(author.token, 'GET', `/periodic_review/wiki/${wiki.wikiid}`)).json().document;
    expect(state).toMatchObject({ state: 'scheduled', last_reviewed_date: now, next_due_date: now + 30 * DAY });
  });
});
