import { CommentsService } from '../../src/modules/comments/comments.service';
import { GUIDE_STEPS } from '../../src/modules/guides/guide-rows';
import { TeamsService } from '../../src/modules/teams/teams.service';
import { UsersService } from '../../src/modules/users/users.service';
import { EventBus } from '../../src/platform/events/event-bus';
import { ContentVersions } from '../../src/platform/versions/content-versions';
import { createTeam } from '../approvals/approvals-test-helpers';
import { addStep, createGuide } from '../factories/guide.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { asCaller, createCategory } from '../factories/wiki.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';
import { usingMysql } from '../utils/test-config';

const api = (path: string) => `/api/2.0${path}`;

/**
 * The users a guide's detail shows: the author with the guide row, commenters with their teams in one
 * statement; a team list too long to trust from GROUP_CONCAT (MySQL cuts it silently) is read again on its own.
 */
describe('Guide detail: users and their teams', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let author: CreatedUser;
  let commenter: CreatedUser;
  let crowded: CreatedUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { privilege: 'Admin' });
    author = await createUser(t, { privilege: 'Author' });
    commenter = await createUser(t);
    crowded = await createUser(t, { privilege: 'Author' });
    await createCategory(t, admin.user, 'Kettle');
    // On MySQL the test database is emptied before each file's app starts, token rows included (without the
    // releases token every read looks the live releases up); the migration's row is put back.
    await t.app.get(ContentVersions).bump('releases');
  });
  afterAll(() => t.close());

  const detail = async (guideid: number) => {
    const url = api(`/guides/${guideid}`);
    await t.inject({ method: 'GET', url }); // the releases token is read once and kept
    // As after a write: the anonymous answer kept by the first read is not served, the detail is built again
    // (its count: one statement for the tokens, then the build's).
    await t.app.get(ContentVersions).bump('answers-guide');
    const res = await t.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    return res;
  };
  const teamsOf = (userid: number) => t.app.get(TeamsService).teamIdsByUser([userid]);

  it('shows the author and commenters with their teams in ascending order, users read in one statement', async () => {
    const first = await createTeam(t, 'First', [commenter.user.userid]);
    const second = await createTeam(t, 'Second', []);
    // Joined in the opposite order of the ids: the list is sorted, not in the order rows come.
    await t.dataSource.query('INSERT INTO team_members (teamid, userid, joined_date) VALUES (?, ?, ?)', [
      second,
      author.user.userid,
      1,
    ]);
    await t.dataSource.query('INSERT INTO team_members (teamid, userid, joined_date) VALUES (?, ?, ?)', [
      first,
      author.user.userid,
      2,
    ]);
    const guide = await createGuide(t, author.user, { category: 'Kettle', public: true });
    await t.app
      .get(CommentsService)
      .create('guide', guide.guideid, { text: 'Descale it first.' }, asCaller(commenter.user));
    const loner = await createUser(t);
    await t.app.get(CommentsService).create('guide', guide.guideid, { text: 'Thanks.' }, asCaller(loner.user));

    const res = await detail(guide.guideid);
    const body = res.json<{
      author: { userid: number; teams: number[] };
      comments: { author: { teams: number[] } }[];
    }>();
    expect(body.author.teams).toEqual([first, second]);
    expect(body.author.teams).toEqual((await teamsOf(author.user.userid)).get(author.user.userid));
    expect(body.comments.map((c) => c.author.teams)).toEqual([[first], []]);
    // The token; the guide row with its revision and its author's columns and teams, the comments, the commenters.
    expect(sqlCount(res)).toBe(4);
  });

  it('reads a guide without comments in one statement: the author and the comments test come with the guide row', async () => {
    const guide = await createGuide(t, author.user, { category: 'Kettle', public: true });
    const other = await createGuide(t, author.user, { category: 'Kettle', public: true });
    await t.app.get(CommentsService).create('guide', other.guideid, { text: 'Hi.' }, asCaller(commenter.user));
    await t.app.get(EventBus).drain(); // reputation points for the new guides are events
    const res = await detail(guide.guideid);
    const body = res.json<{ author: { userid: number; username: string; teams: number[] }; comments: unknown[] }>();
    expect(body.comments).toEqual([]);
    expect(body.author).toMatchObject({
      userid: author.user.userid,
      username: author.user.username,
      teams: (await teamsOf(author.user.userid)).get(author.user.userid),
    });
    expect(body.author.teams).toHaveLength(2);
    // The same author object as a read of the user gives, and as with commenters.
    const read = await t.app.get(UsersService).lightUsers([author.user.userid]);
    expect(body.author).toEqual(read.get(author.user.userid));
    expect((await detail(other.guideid)).json<{ author: unknown }>().author).toEqual(body.author);
    // The token, the guide row (with the test that finds no comment on the guide or its steps), nothing else.
    expect(sqlCount(res)).toBe(2);
  });

  it('shows every comment the one-statement read could miss: on a step only, new ones, on an inlined prerequisite', async () => {
    const comments = t.app.get(CommentsService);
    const steps = (id: number) => t.inject({ method: 'GET', url: api(`/guides/${id}`) });
    type Body = { comments: { text_raw: string }[]; steps: { stepid: number; comments: { text_raw: string }[] }[] };
    const guide = await createGuide(t, author.user, { category: 'Kettle', public: true });
    const withStep = await addStep(t, author.user, guide.guideid, { title: 'Fill' });
    const stepid = withStep.steps[0].stepid;
    expect((await detail(guide.guideid)).json<Body>().steps[0].comments).toEqual([]);
    // A comment on the step only, after a first read: the next read shows it.
    await comments.create('step', stepid, { text: 'Not above the line.' }, asCaller(commenter.user));
    let body = (await steps(guide.guideid)).json<Body>();
    expect(body.comments).toEqual([]);
    expect(body.steps[0].comments.map((c) => c.text_raw)).toEqual(['Not above the line.']);
    // A guide without comments whose inlined prerequisite has one on its step.
    const later = await createGuide(t, author.user, {
      category: 'Kettle',
      public: true,
      prerequisites: [guide.guideid],
    });
    body = (await detail(later.guideid)).json<Body>();
    expect(body.steps.map((step) => step.stepid)).toEqual([stepid]);
    expect(body.steps[0].comments.map((c) => c.text_raw)).toEqual(['Not above the line.']);
  });

  it("tests for comments from the guide's steps, not from every step comment (query plan)", async () => {
    const test = t.app.get(CommentsService).publicExistSql('guide', 'g.guideid', 'step', GUIDE_STEPS);
    if (usingMysql()) {
      const rows = await t.dataSource.query<{ table: string; key: string | null; ref: string | null }[]>(
        `EXPLAIN SELECT ${test} FROM guides g WHERE g.guideid = 1`,
      );
      // The step comments are looked up by step id, from the guide's steps.
      expect(rows).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ table: 's', key: 'idx_guide_steps_guide' }),
          expect.objectContaining({ table: 'c', key: 'idx_comments_context', ref: expect.stringContaining('stepid') }),
        ]),
      );
      return;
    }
    const plan = await t.dataSource.query<{ detail: string }[]>(
      `EXPLAIN QUERY PLAN SELECT ${test} FROM guides g WHERE g.guideid = 1`,
    );
    const steps = plan.map((row) => row.detail);
    const first = steps.findIndex((d) => d.includes('idx_guide_steps_guide'));
    expect(first).toBeGreaterThanOrEqual(0);
    // Then each step's comments by step id.
    expect(steps[first + 1]).toMatch(/idx_comments_context \(context=\? AND contextid=\?\)/);
    expect(steps.filter((d) => /idx_comments_context \(context=\?\)/.test(d))).toEqual([]);
  });

  it('reads a team list that GROUP_CONCAT may have cut again, whole', async () => {
    const teamids: number[] = [];
    for (let i = 0; i < 300; i += 1) teamids.push(await createTeam(t, `Crowd ${i}`, [crowded.user.userid]));
    const guide = await createGuide(t, crowded.user, { category: 'Kettle', public: true });
    expect(teamids.join(',').length).toBeGreaterThan(1000);

    const res = await detail(guide.guideid);
    expect(res.json<{ author: { teams: number[] } }>().author.teams).toEqual(teamids);
    // The token, the guide row, the author's teams read again.
    expect(sqlCount(res)).toBe(3);
  });
});
