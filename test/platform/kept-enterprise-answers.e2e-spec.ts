import type { LightMyRequestResponse } from 'fastify';
import { answerSources } from '../../src/database/answer-sources';
import { FakeClock } from '../../src/platform/clock/clock';
import { ContentVersions, type AnswerToken } from '../../src/platform/versions/content-versions';
import { createTeam } from '../approvals/approvals-test-helpers';
import { createGuide } from '../factories/guide.factory';
import { createQuiz, releaseGuide } from '../factories/quiz.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';
import { tablesRead } from '../utils/tables-read';

const API = '/api/2.0';
const DAY = 86_400;
const NOW = Date.UTC(2027, 2, 1, 9);
const PASSWORD = 'correct horse battery';
const TOKENS: AnswerToken[] = [
  'answers',
  'answers-approvals',
  'answers-quizzes',
  'answers-reviews',
  'answers-search',
  'answers-worklog',
];

/**
 * A signed-in caller's approval requests (A8), quizzes list (Q1) and review documents (P6), as plain JSON, are
 * kept whole per caller and query under a token of their own (ResponseCache) and served with two statements (the
 * caller's API token and the answers token) until a write changes a table they are built from, or, for review
 * documents, until one of the user's documents changes state.
 */
describe('Enterprise lists kept whole for their caller', () => {
  let t: TestApp;
  const clock = new FakeClock(NOW);
  let admin: CreatedUser;
  let author: CreatedUser;
  let signer: CreatedUser;
  let reviewer: CreatedUser;
  let teamid: number;
  let requestid: number;
  let guideid: number;
  let quizid: number;
  let dueDate: number;
  let prdid: number;
  let processid: number;
  let entryid: number;

  const versions = () => t.app.get(ContentVersions);
  const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
    t.as(token, { method, url: `${API}${url}`, ...(payload ? { payload } : {}) });
  /** Set-up steps throw (a beforeAll may not expect). */
  const succeeded = (res: LightMyRequestResponse, status: number) => {
    if (res.statusCode !== status) throw new Error(`${res.statusCode} ${res.body}`);
  };
  const pretty = (url: string) => `${url}${url.includes('?') ? '&' : '?'}pretty`;

  /**
   * The plain answer, checked against the object path (`?pretty`, never kept): same status, same content. A kept
   * answer served after a change it missed fails here.
   */
  const fresh = async (token: string, url: string): Promise<LightMyRequestResponse> => {
    const plain = await call(token, 'GET', url);
    const object = await call(token, 'GET', pretty(url));
    expect(plain.statusCode).toBe(object.statusCode);
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(plain.json()).toEqual(object.json());
    return plain;
  };

  const ELIGIBLE = '/approvals/requests?eligibility=eligible';
  const WORK_LOG = '/work_log?limit=200';
  const QUIZZES = '/quizzes?limit=200&sort=sessions_submitted';
  const overdue = () => `/periodic_review/documents/${reviewer.user.userid}?state=overdue`;
  const scheduled = () => `/periodic_review/documents/${reviewer.user.userid}?state=scheduled`;

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
    admin = await createUser(t, { privilege: 'Admin', password: PASSWORD });
    author = await createUser(t, { privilege: 'Author', password: PASSWORD });
    signer = await createUser(t, { password: PASSWORD });
    reviewer = await createUser(t, { password: PASSWORD });
    // On MySQL the test database is emptied before each file's app starts, token rows included.
    for (const name of TOKENS) await versions().bump(name);

    teamid = await createTeam(t, 'Quality', [signer.user.userid]);
    const process = await call(admin.token, 'POST', '/approvals/process', {
      name: 'One stage',
      stages: [{ teamid, required_signatures: 1 }],
    });
    succeeded(process, 201);
    processid = process.json().approval_processid;
    const wiki = await createWiki(t, author.user, { title: 'Torque the pump', contents: 'Steps.' });
    const assigned = await call(admin.token, 'PUT', `/approvals/${wiki.wikiid}/${processid}`, {});
    succeeded(assigned, 200);
    const released = await call(author.token, 'POST', `/wikis/${wiki.wikiid}/releases`, { type: 'major' });
    succeeded(released, 201);
    requestid = released.json().approval_requestid;

    await createCategory(t, author.user, 'Kettle');
    guideid = (await createGuide(t, author.user, { category: 'Kettle', title: 'Descale the kettle', public: true }))
      .guideid;
    quizid = (await createQuiz(t, author.user, { title: 'Descaling', guideid })).quizid;
    const entry = await call(signer.token, 'POST', '/work_log', { guideid, workorderid: 'WO-1' });
    succeeded(entry, 201);
    entryid = entry.json().entryid;

    const schedule = await call(author.token, 'POST', '/periodic_review', {
      name: 'Monthly',
      recurrence: { type: 'interval', days: 30 },
      completion_window_days: 7,
    });
    succeeded(schedule, 201);
    const added = await call(author.token, 'POST', '/periodic_review/documents', {
      prsid: schedule.json().prsid,
      documents: [{ doctype: 'GUIDE', docid: guideid, reviewer_userid: reviewer.user.userid }],
    });
    succeeded(added, 200);
    ({ prdid, next_due_date: dueDate } = added.json().documents[0]);
  });
  afterAll(() => t.close());

  it('reads only tables registered as sources of its token', async () => {
    for (const name of TOKENS) await versions().bump(name);
    const lists: [AnswerToken, string, string][] = [
      ['answers-approvals', signer.token, ELIGIBLE],
      ['answers-approvals', author.token, '/approvals/requests'],
      ['answers-quizzes', author.token, QUIZZES],
      ['answers-worklog', signer.token, WORK_LOG],
      ['answers-worklog', admin.token, `/work_log?userid=${signer.user.userid}&status=started`],
      ['answers-reviews', reviewer.token, `/periodic_review/documents/${reviewer.user.userid}`],
      ['answers-reviews', admin.token, scheduled()],
    ];
    const unregistered: Record<string, string[]> = {};
    for (const [token, caller, url] of lists) {
      const read = await tablesRead(t, async () => {
        const res = await call(caller, 'GET', url);
        expect(res.statusCode).toBe(200);
        const body = res.json<unknown[] | { results: unknown[] }>();
        expect((Array.isArray(body) ? body : body.results).length).toBeGreaterThan(0);
      });
      expect(read.size).toBeGreaterThan(3);
      const registered = answerSources(token);
      // The caller's API token is checked on every request, cached answer or not.
      unregistered[url] = [...read].filter(
        (table) => !['content_versions', 'auth_tokens'].includes(table) && !registered.has(table),
      );
    }
    expect(unregistered).toEqual(Object.fromEntries(lists.map(([, , url]) => [url, []])));
  });

  it('answers a second read with two statements and the same bytes, per caller and query', async () => {
    for (const [token, url] of [
      [signer.token, ELIGIBLE],
      [author.token, QUIZZES],
      [reviewer.token, scheduled()],
      [admin.token, `/work_log?userid=${signer.user.userid}&status=complete`],
    ]) {
      const first = await call(token, 'GET', url);
      const second = await call(token, 'GET', url);
      expect(second.statusCode).toBe(200);
      expect(second.body).toBe(first.body);
      expect(sqlCount(second)).toBe(2);
      expect(second.json()).toEqual((await call(token, 'GET', pretty(url))).json());
    }
    // `?pretty` is built each time (the layer keeps plain JSON only).
    await call(signer.token, 'GET', pretty(ELIGIBLE));
    expect(sqlCount(await call(signer.token, 'GET', pretty(ELIGIBLE)))).toBeGreaterThan(2);
    // Another caller, another query: their own answers.
    expect((await fresh(author.token, ELIGIBLE)).json()).toEqual([]);
    expect((await fresh(admin.token, '/approvals/requests')).json()).toEqual([]);
    expect((await fresh(admin.token, QUIZZES)).json()).toHaveLength(1);
    expect((await fresh(author.token, '/quizzes?limit=1&sort=release_date')).json()).toHaveLength(1);
    expect((await call(signer.token, 'GET', overdue())).statusCode).toBe(403);
    expect((await call(signer.token, 'GET', overdue())).statusCode).toBe(403);
  });

  it('approval requests: fresh after a signature and after a change of the team', async () => {
    const pending = (await fresh(signer.token, ELIGIBLE)).json<{ approval_requestid: number; eligible: boolean }[]>();
    expect(pending.map((r) => [r.approval_requestid, r.eligible])).toEqual([[requestid, true]]);
    const signed = await call(signer.token, 'POST', `/approvals/request/sign/${requestid}`, {
      decision: 'approve',
      password: PASSWORD,
    });
    expect(signed.statusCode).toBe(200);
    expect((await fresh(signer.token, ELIGIBLE)).json()).toEqual([]);
    expect((await fresh(author.token, '/approvals/requests')).json()).toEqual([
      expect.objectContaining({ approval_requestid: requestid, status: 'approved' }),
    ]);

    // A second request: the signer is eligible through the team; out of the team (a statement outside any
    // transaction), not any more.
    const wiki = await createWiki(t, author.user, { title: 'Bleed the brakes', contents: 'Steps.' });
    expect((await fresh(admin.token, '/approvals/requests?eligibility=all')).json()).toHaveLength(1);
    expect((await call(admin.token, 'PUT', `/approvals/${wiki.wikiid}/${processid}`, {})).statusCode).toBe(200);
    expect((await call(author.token, 'POST', `/wikis/${wiki.wikiid}/releases`, { type: 'major' })).statusCode).toBe(
      201,
    );
    expect((await fresh(signer.token, ELIGIBLE)).json()).toHaveLength(1);
    await t.dataSource.query('DELETE FROM team_members WHERE teamid = ? AND userid = ?', [teamid, signer.user.userid]);
    expect((await fresh(signer.token, ELIGIBLE)).json()).toEqual([]);
  });

  it('quizzes: fresh after a new quiz, a guide edit, a release and a counter changed outside the service', async () => {
    const listed = async () =>
      (await fresh(author.token, QUIZZES)).json<
        { quizid: number; guide_title: string; guide_release_version: string; quizzes_submitted: number }[]
      >();
    expect((await listed()).map((q) => q.quizid)).toEqual([quizid]);
    const second = (await createQuiz(t, author.user, { title: 'Descaling, again', guideid })).quizid;
    expect((await listed()).map((q) => q.quizid).sort()).toEqual([quizid, second].sort());
    const head = (await call(author.token, 'GET', `/guides/${guideid}`)).json<{ revisionid: number }>();
    const edited = await call(author.token, 'PATCH', `/guides/${guideid}?revisionid=${head.revisionid}`, {
      title: 'Descale a kettle',
    });
    expect(edited.statusCode).toBe(200);
    expect((await listed()).map((q) => q.guide_title)).toEqual(['Descale a kettle', 'Descale a kettle']);
    await releaseGuide(t, admin.user, guideid);
    expect((await listed()).every((q) => q.guide_release_version !== '')).toBe(true);
    await t.dataSource.query('UPDATE quizzes SET submitted_count = 7 WHERE quizid = ?', [quizid]);
    expect((await listed()).find((q) => q.quizid === quizid)?.quizzes_submitted).toBe(7);
  });

  it('a write of one family leaves the answers of the others kept', async () => {
    await call(author.token, 'GET', QUIZZES);
    await call(signer.token, 'GET', ELIGIBLE);
    const before = await Promise.all(TOKENS.map((name) => versions().read(name)));
    await createQuiz(t, author.user, { title: 'Unrelated', guideid });
    const after = await Promise.all(TOKENS.map((name) => versions().read(name)));
    expect(after.map((token, i) => token === before[i])).toEqual([true, true, false, true, true, true]);
    expect(sqlCount(await call(signer.token, 'GET', ELIGIBLE))).toBe(2);
    expect(sqlCount(await call(author.token, 'GET', QUIZZES))).toBeGreaterThan(2);
  });

  it('work log: an open entry is kept to the second, and fresh after its step data and its end', async () => {
    type Listed = { results: { entryid: number; status: string; duration: number }[] };
    const listed = async () => (await fresh(signer.token, WORK_LOG)).json<Listed>().results;
    expect((await listed()).map((e) => e.entryid)).toEqual([entryid]);
    const duration = (await listed())[0].duration;
    const kept = async () => sqlCount(await call(signer.token, 'GET', WORK_LOG));
    expect(await kept()).toBe(2);
    clock.advance(999);
    expect(await kept()).toBe(2);
    clock.advance(1);
    expect(await kept()).toBeGreaterThan(2);
    expect((await listed())[0].duration).toBe(duration + 1);
    expect((await call(signer.token, 'POST', `/work_log/${entryid}/pause`)).statusCode).toBe(200);
    expect((await listed())[0].status).toBe('paused');
    expect((await call(signer.token, 'POST', `/work_log/${entryid}/resume`)).statusCode).toBe(200);
    expect((await call(signer.token, 'POST', `/work_log/${entryid}/finish`)).statusCode).toBe(200);
    const finished = await listed();
    expect(finished[0].status).toBe('complete');
    // Ended: nothing in it moves with the clock any more.
    clock.advance(60_000);
    expect(await kept()).toBe(2);
    expect(await listed()).toEqual(finished);
  });

  it('review documents: a document falls due with no write, and the cached answer follows the clock', async () => {
    const ids = async (url: string) =>
      (await fresh(reviewer.token, url)).json<{ docid: number }[]>().map((d) => d.docid);
    expect(await ids(overdue())).toEqual([]);
    const kept = async () => sqlCount(await call(reviewer.token, 'GET', overdue()));
    expect(await kept()).toBe(2);
    // Its window opens 7 days before it is due: a change of state, though not of this page.
    const opens = dueDate - 7 * DAY;
    clock.set(opens * 1000 - 1000);
    expect(await kept()).toBe(2);
    clock.set(opens * 1000);
    expect(await kept()).toBeGreaterThan(2);
    expect(await ids(overdue())).toEqual([]);
    clock.set(dueDate * 1000 - 1000);
    expect(await kept()).toBe(2);
    clock.set(dueDate * 1000);
    const due = await call(reviewer.token, 'GET', overdue());
    expect(sqlCount(due)).toBeGreaterThan(2);
    expect(due.json<{ docid: number; state: string }[]>().map((d) => [d.docid, d.state])).toEqual([
      [guideid, 'overdue'],
    ]);
    expect(await ids(overdue())).toEqual([guideid]);
    expect(await ids(scheduled())).toEqual([]);
    // Reviewed: due again a period later, so no longer overdue.
    const reviewed = await call(reviewer.token, 'POST', '/periodic_review/review', {
      prdid,
      outcome: 'no_changes',
      password: PASSWORD,
    });
    expect(reviewed.statusCode).toBe(201);
    expect(await ids(overdue())).toEqual([]);
    expect(await ids(scheduled())).toEqual([guideid]);
    clock.set(NOW - 1000);
    expect(await ids(scheduled())).toEqual([guideid]);
  });
});
