import { FakeClock } from '../../src/platform/clock/clock';
import { TeamsService } from '../../src/modules/teams/teams.service';
import { createGuide } from '../factories/guide.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';
import { API, utc } from './periodic-review-kit';

const DAY = 86_400;

/** P5, P6, P12 (that user or Moderator+) and P13 (readers of the document). */
describe('Periodic review lists (P5, P6, P12, P13)', () => {
  let t: TestApp;
  const clock = new FakeClock(utc(2027, 1, 31, 10, 15, 7));
  let admin: CreatedUser;
  let moderator: CreatedUser;
  let author: CreatedUser;
  let reviewer: CreatedUser;
  let member: CreatedUser;
  let user: CreatedUser;
  const docs: Record<string, { prdid: number; docid: number; next_due_date: number }> = {};
  let prsid: number;
  let teamPrsid: number;

  const call = (token: string | undefined, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.as(token, { method, url: `${API}${url}`, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
    admin = await createUser(t, { privilege: 'Admin' });
    moderator = await createUser(t, { privilege: 'Moderator' });
    author = await createUser(t, { privilege: 'Author', password: 'author password 1' });
    reviewer = await createUser(t, { password: 'reviewer password 1' });
    member = await createUser(t, { password: 'member password 1' });
    user = await createUser(t);
    await createCategory(t, author.user, 'Kettle');
    const teamid = (await call(admin.token, 'POST', '/teams', { name: 'QA' })).json<{ teamid: number }>().teamid;
    await call(admin.token, 'PUT', `/teams/${teamid}/users/${member.user.userid}`);
    const s = await call(author.token, 'POST', '/periodic_review', {
      name: 'Monthly',
      recurrence: { type: 'interval', days: 30 },
      completion_window_days: 7,
    });
    prsid = s.json().prsid;
    const t2 = await call(author.token, 'POST', '/periodic_review', {
      name: 'Team',
      recurrence: { type: 'interval', days: 60 },
      default_reviewer_teamid: teamid,
    });
    teamPrsid = t2.json().prsid;
    const a = await createWiki(t, author.user, { contents: 'A' });
    const b = await createWiki(t, author.user, { contents: 'B' });
    const hidden = await createGuide(t, author.user, { category: 'Kettle', public: false });
    const c = await createWiki(t, author.user, { contents: 'C' });
    const added = await call(author.token, 'POST', '/periodic_review/documents', {
      prsid,
      documents: [
        { doctype: 'WIKI', docid: a.wikiid, reviewer_userid: reviewer.user.userid },
        { doctype: 'WIKI', docid: b.wikiid },
        { doctype: 'GUIDE', docid: hidden.guideid },
      ],
    });
    [docs.a, docs.b, docs.hidden] = added.json().documents;
    clock.advance(10 * DAY * 1000);
    docs.c = (
      await call(author.token, 'POST', '/periodic_review/documents', {
        prsid: teamPrsid,
        documents: [{ doctype: 'WIKI', docid: c.wikiid }],
      })
    ).json().documents[0];
  });
  afterAll(() => t.close());

  it('401, 403 for other users, 404 for an unknown user (Moderator), 422 query on P5, P6 and P12', async () => {
    for (const list of ['reviews', 'documents', 'requests']) {
      const url = `/periodic_review/${list}/${reviewer.user.userid}`;
      expect((await call(undefined, 'GET', url)).statusCode).toBe(401);
      const denied = await call(user.token, 'GET', url);
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toEqual({ error: true, message: 'Only that user or a Moderator may see this' });
      const gone = await call(moderator.token, 'GET', `/periodic_review/${list}/999999`);
      expect(gone.statusCode).toBe(404);
      expect(gone.json()).toEqual({ error: true, message: 'User not found' });
      expect((await call(reviewer.token, 'GET', `${url}?limit=0`)).statusCode).toBe(422);
      expect((await call(reviewer.token, 'GET', url)).statusCode).toBe(200);
    }
    expect(
      (await call(reviewer.token, 'GET', `/periodic_review/documents/${reviewer.user.userid}?state=late`)).statusCode,
    ).toBe(422);
    expect(
      (await call(reviewer.token, 'GET', `/periodic_review/requests/${reviewer.user.userid}?status=x`)).statusCode,
    ).toBe(422);
  });

  it('P6: documents reviewed directly, by default to the author, and through the team; state filter from the clock', async () => {
    const ids = async (token: string, userid: number, state = '') =>
      (await call(token, 'GET', `/periodic_review/documents/${userid}${state ? `?state=${state}` : ''}`))
        .json<{ prdid: number }[]>()
        .map((d) => d.prdid);
    expect(await ids(reviewer.token, reviewer.user.userid)).toEqual([docs.a.prdid]);
    expect(await ids(author.token, author.user.userid)).toEqual([docs.b.prdid, docs.hidden.prdid, docs.c.prdid]);
    expect(await ids(member.token, member.user.userid)).toEqual([docs.c.prdid]);
    expect(await ids(moderator.token, member.user.userid)).toEqual([docs.c.prdid]);
    // Jan 31 + 10 days: the 30-day documents open on Feb 23 (due Mar 2); the team document is due Apr 11.
    expect(await ids(author.token, author.user.userid, 'open')).toEqual([]);
    clock.set((docs.a.next_due_date - 7 * DAY) * 1000);
    expect(await ids(author.token, author.user.userid, 'open')).toEqual([docs.b.prdid, docs.hidden.prdid]);
    expect(await ids(author.token, author.user.userid, 'scheduled')).toEqual([docs.c.prdid]);
    clock.set(docs.a.next_due_date * 1000);
    expect(await ids(author.token, author.user.userid, 'overdue')).toEqual([docs.b.prdid, docs.hidden.prdid]);
    expect(await ids(author.token, author.user.userid, 'open')).toEqual([]);
  });

  it('P6 answers in 4 SQL statements whatever the page size, 2 when kept (guides and wikis, direct and team documents)', async () => {
    // The reviewer's teams come with the page (a team without schedules changes no list).
    const side = (await call(admin.token, 'POST', '/teams', { name: 'Side team' })).json<{ teamid: number }>().teamid;
    await call(admin.token, 'PUT', `/teams/${side}/users/${author.user.userid}`);
    await call(author.token, 'GET', `/periodic_review/documents/${author.user.userid}`); // the token's last-used write
    const small = await call(author.token, 'GET', `/periodic_review/documents/${author.user.userid}?limit=1`);
    const large = await call(author.token, 'GET', `/periodic_review/documents/${author.user.userid}?limit=200`);
    expect(small.json()).toHaveLength(1);
    const bodies =
      large.json<
        { prdid: number; doctype: string; title: string; url: string; reviewer: { userid: number; teams: number[] } }[]
      >();
    expect(bodies.map((d) => d.prdid)).toEqual([docs.b.prdid, docs.hidden.prdid, docs.c.prdid]);
    expect(new Set(bodies.map((d) => d.doctype))).toEqual(new Set(['GUIDE', 'WIKI']));
    for (const body of bodies) {
      expect(body.title).not.toBe('');
      expect(body.url).toMatch(body.doctype === 'GUIDE' ? /\/Guide\// : /\/Wiki\//);
    }
    // b and the hidden guide default to the author; c is the team schedule's (no default reviewer: the author).
    expect(bodies.map((d) => d.reviewer.userid)).toEqual([author.user.userid, author.user.userid, author.user.userid]);
    const teams = (await t.app.get(TeamsService).teamIdsByUser([author.user.userid])).get(author.user.userid);
    expect(teams).toContain(side);
    for (const body of bodies) expect(body.reviewer.teams).toEqual(teams);
    // Built: the caller's token, the answers token, the page with its schedules, labels, reviewers and their
    // teams, and when the next of the user's documents changes state. Then kept (ResponseCache): the two tokens.
    expect(sqlCount(small)).toBe(4);
    expect(sqlCount(large)).toBe(4);
    const again = await call(author.token, 'GET', `/periodic_review/documents/${author.user.userid}?limit=200`);
    expect(again.body).toBe(large.body);
    expect(sqlCount(again)).toBe(2);
    const team = await call(member.token, 'GET', `/periodic_review/documents/${member.user.userid}`);
    expect(team.json<{ prdid: number }[]>().map((d) => d.prdid)).toEqual([docs.c.prdid]);
    // Its first request also writes the caller's token's last-used date.
    expect(sqlCount(team)).toBeLessThanOrEqual(5);
  });

  it('P5 and P12: reviews by the user and change requests assigned, with status filter', async () => {
    clock.set(docs.a.next_due_date * 1000);
    const res = await call(reviewer.token, 'POST', '/periodic_review/review', {
      prdid: docs.a.prdid,
      outcome: 'changes_requested',
      change_request: { description: 'Update photos' },
      password: 'reviewer password 1',
    });
    expect(res.statusCode).toBe(201);
    const reviews = await call(reviewer.token, 'GET', `/periodic_review/reviews/${reviewer.user.userid}`);
    expect(reviews.json()).toEqual([res.json()]);
    expect((await call(author.token, 'GET', `/periodic_review/reviews/${author.user.userid}`)).json()).toEqual([]);
    const requests = await call(author.token, 'GET', `/periodic_review/requests/${author.user.userid}`);
    expect(requests.json()).toEqual([res.json().change_request]);
    expect(
      (await call(author.token, 'GET', `/periodic_review/requests/${author.user.userid}?status=resolved`)).json(),
    ).toEqual([]);
    expect(
      (await call(moderator.token, 'GET', `/periodic_review/requests/${author.user.userid}?status=open`)).json(),
    ).toHaveLength(1);
  });

  it('P13: 401, 404 for another doctype, gone, unreadable or unscheduled documents; 200 DocumentSchedule', async () => {
    expect((await call(undefined, 'GET', `/periodic_review/wiki/${docs.b.docid}`)).statusCode).toBe(401);
    for (const url of [
      `/periodic_review/team/${docs.b.docid}`,
      `/periodic_review/wiki/999999`,
      `/periodic_review/wiki/abc`,
      `/periodic_review/guide/${docs.hidden.docid}`,
    ]) {
      expect((await call(user.token, 'GET', url)).statusCode).toBe(404);
    }
    const loose = await createWiki(t, author.user, { contents: 'Loose' });
    expect((await call(user.token, 'GET', `/periodic_review/wiki/${loose.wikiid}`)).statusCode).toBe(404);
    expect((await call(author.token, 'GET', `/periodic_review/GUIDE/${docs.hidden.docid}`)).statusCode).toBe(200);
    const res = await call(user.token, 'GET', `/periodic_review/Wiki/${docs.b.docid}`);
    expect(res.statusCode).toBe(200);
    const detail = (await call(author.token, 'GET', `/periodic_review/${prsid}`)).json();
    const { documents, ...schedule } = detail;
    expect(res.json()).toEqual({
      schedule,
      document: documents.find((d: { prdid: number }) => d.prdid === docs.b.prdid),
    });
    // Static segments and digit-only ids never reach P13.
    expect((await call(user.token, 'GET', '/periodic_review/reviews/5')).statusCode).toBe(403);
    expect((await call(user.token, 'GET', '/periodic_review/documents/5')).statusCode).toBe(403);
  });
});
