import { createGuide } from '../factories/guide.factory';
import { createQuiz } from '../factories/quiz.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

const api = (path: string) => `/api/2.0${path}`;

describe('authorization decisions (issue #13)', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let moderator: CreatedUser;
  let author: CreatedUser;
  let otherAuthor: CreatedUser;
  let grantee: CreatedUser;
  let stranger: CreatedUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { privilege: 'Admin' });
    moderator = await createUser(t, { privilege: 'Moderator' });
    author = await createUser(t, { privilege: 'Author' });
    otherAuthor = await createUser(t, { privilege: 'Author' });
    grantee = await createUser(t);
    stranger = await createUser(t);
    await createCategory(t, admin.user, 'Kettle');
  });
  afterAll(() => t.close());

  const privateGuideGrantedTo = async (userid: number) => {
    const guide = await createGuide(t, author.user, { category: 'Kettle' });
    const grant = await t.as(author.token, { method: 'PUT', url: api(`/guides/${guide.guideid}/users/${userid}`) });
    expect(grant.statusCode).toBeLessThan(300);
    return guide;
  };
  const readGuide = (token: string | undefined, guideid: number, query = '') =>
    t.as(token, { method: 'GET', url: api(`/guides/${guideid}${query}`) });

  describe('guide ownership', () => {
    it('403 for a granted user setting the author (their own id or the current one); nothing changes', async () => {
      const guide = await privateGuideGrantedTo(grantee.user.userid);
      for (const value of [grantee.user.userid, author.user.userid]) {
        const res = await t.as(grantee.token, {
          method: 'PATCH',
          url: api(`/guides/${guide.guideid}?revisionid=${guide.head_revisionid}`),
          payload: { author: value, summary: 'taken over' },
        });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({
          error: true,
          message: 'Only an Admin may set the author',
          requiredPrivileges: ['Admin'],
        });
      }
      const after = await readGuide(author.token, guide.guideid);
      expect(after.statusCode).toBe(200);
      expect(after.json()).toMatchObject({
        userid: author.user.userid,
        head_revisionid: guide.head_revisionid,
        summary: guide.summary,
      });
      // the grantee still cannot delete it (only the author or a Moderator+)
      const del = await t.as(grantee.token, {
        method: 'DELETE',
        url: api(`/guides/${guide.guideid}?revisionid=${guide.head_revisionid}`),
      });
      expect(del.statusCode).toBe(403);
    });

    it('403 for a Moderator setting the author; an Admin may', async () => {
      const guide = await createGuide(t, author.user, { category: 'Kettle' });
      const byModerator = await t.as(moderator.token, {
        method: 'PATCH',
        url: api(`/guides/${guide.guideid}?revisionid=${guide.head_revisionid}`),
        payload: { author: moderator.user.userid },
      });
      expect(byModerator.statusCode).toBe(403);
      const byAdmin = await t.as(admin.token, {
        method: 'PATCH',
        url: api(`/guides/${guide.guideid}?revisionid=${guide.head_revisionid}`),
        payload: { author: grantee.user.userid },
      });
      expect(byAdmin.statusCode).toBe(200);
      expect(byAdmin.json().userid).toBe(grantee.user.userid);
      const audit = await t.as(admin.token, {
        method: 'GET',
        url: api(`/audit?entity_type=guide&entity_id=${guide.guideid}&action=guide.author`),
      });
      expect(audit.json()).toEqual([
        expect.objectContaining({
          actor: { userid: admin.user.userid, username: admin.user.username },
          before: { authorid: author.user.userid },
          after: { authorid: grantee.user.userid },
        }),
      ]);
    });

    it('403 for an Author naming themselves as author on create', async () => {
      const res = await t.as(author.token, {
        method: 'POST',
        url: api('/guides'),
        payload: { category: 'Kettle', type: 'repair', author: author.user.userid },
      });
      expect(res.statusCode).toBe(403);
    });
  });

  describe('a granted user publishing the author’s private guide', () => {
    it('is allowed: publishing is an edit (docs/api-conventions.md); a user without a grant gets 404', async () => {
      const guide = await privateGuideGrantedTo(grantee.user.userid);
      const denied = await t.as(stranger.token, {
        method: 'PUT',
        url: api(`/guides/${guide.guideid}/public?revisionid=${guide.head_revisionid}`),
      });
      expect(denied.statusCode).toBe(404);
      const published = await t.as(grantee.token, {
        method: 'PUT',
        url: api(`/guides/${guide.guideid}/public?revisionid=${guide.head_revisionid}`),
      });
      expect(published.statusCode).toBe(200);
      expect(published.json()).toMatchObject({ public: true, userid: author.user.userid });
    });
  });

  describe('?unpatrolled is for editors', () => {
    it('guides: anonymous callers and users who may not edit get the patrolled revision', async () => {
      const guide = await privateGuideGrantedTo(grantee.user.userid);
      const published = await t.as(author.token, {
        method: 'PUT',
        url: api(`/guides/${guide.guideid}/public?revisionid=${guide.head_revisionid}`),
      });
      const edit = await t.as(grantee.token, {
        method: 'PATCH',
        url: api(`/guides/${guide.guideid}?revisionid=${published.json().head_revisionid}`),
        payload: { summary: 'Unreviewed summary' },
      });
      expect(edit.statusCode).toBe(200);
      const patrolledSummary = published.json().summary;
      expect(patrolledSummary).not.toBe('Unreviewed summary');
      const summaryFor = async (token: string | undefined) => {
        const res = await readGuide(token, guide.guideid, '?unpatrolled');
        expect(res.statusCode).toBe(200);
        return res.json<{ summary: string }>().summary;
      };
      expect(await summaryFor(undefined)).toBe(patrolledSummary);
      expect(await summaryFor(stranger.token)).toBe(patrolledSummary);
      expect(await summaryFor(grantee.token)).toBe('Unreviewed summary');
      expect(await summaryFor(author.token)).toBe('Unreviewed summary');
      expect(await summaryFor(moderator.token)).toBe('Unreviewed summary');
    });

    it('wikis: anonymous callers and Users get the patrolled revision, Authors the newest', async () => {
      const created = await t.as(admin.token, {
        method: 'POST',
        url: api('/wikis'),
        payload: { namespace: 'WIKI', title: 'Descaling', contents: 'Reviewed text.' },
      });
      expect(created.statusCode).toBe(201);
      const edit = await t.as(author.token, {
        method: 'PATCH',
        url: api(`/wikis/WIKI/Descaling?revisionid=${created.json().revisionid}`),
        payload: { contents: 'Unreviewed text.' },
      });
      expect(edit.statusCode).toBe(200);
      const contentsFor = async (token: string | undefined) => {
        const res = await t.as(token, { method: 'GET', url: api('/wikis/WIKI/Descaling?unpatrolled=1') });
        expect(res.statusCode).toBe(200);
        return res.json<{ contents_raw: string }>().contents_raw;
      };
      expect(await contentsFor(undefined)).toBe('Reviewed text.');
      expect(await contentsFor(stranger.token)).toBe('Reviewed text.');
      expect(await contentsFor(otherAuthor.token)).toBe('Unreviewed text.');
      expect(await contentsFor(admin.token)).toBe('Unreviewed text.');
    });
  });

  describe("an Author editing another user's USER page or another team's TEAM page", () => {
    it('is allowed (docs/api-conventions.md: Author+), unpatrolled; a User who is not the owner or a member gets 403', async () => {
      const own = await t.as(grantee.token, {
        method: 'POST',
        url: api('/wikis'),
        payload: { namespace: 'USER', title: String(grantee.user.userid), contents: 'About me.' },
      });
      expect(own.statusCode).toBe(201);
      const userPage = api(`/wikis/USER/${grantee.user.userid}`);
      const byUser = await t.as(stranger.token, {
        method: 'PATCH',
        url: `${userPage}?revisionid=${own.json().revisionid}`,
        payload: { contents: 'Defaced.' },
      });
      expect(byUser.statusCode).toBe(403);
      const byAuthor = await t.as(author.token, {
        method: 'PATCH',
        url: `${userPage}?revisionid=${own.json().revisionid}`,
        payload: { contents: 'Edited by an Author.' },
      });
      expect(byAuthor.statusCode).toBe(200);
      expect((await t.inject({ method: 'GET', url: userPage })).json().contents_raw).toBe('About me.');

      const team = (
        await t.as(admin.token, { method: 'POST', url: api('/teams'), payload: { name: 'Kettle crew' } })
      ).json<{ teamid: number }>();
      await t.as(admin.token, { method: 'PUT', url: api(`/teams/${team.teamid}/users/${grantee.user.userid}`) });
      const teamPage = await t.as(grantee.token, {
        method: 'POST',
        url: api('/wikis'),
        payload: { namespace: 'TEAM', title: String(team.teamid), contents: 'We fix kettles.' },
      });
      expect(teamPage.statusCode).toBe(201);
      const teamUrl = api(`/wikis/TEAM/${team.teamid}?revisionid=${teamPage.json().revisionid}`);
      expect(
        (await t.as(stranger.token, { method: 'PATCH', url: teamUrl, payload: { contents: 'x' } })).statusCode,
      ).toBe(403);
      const teamByAuthor = await t.as(author.token, { method: 'PATCH', url: teamUrl, payload: { contents: 'y' } });
      expect(teamByAuthor.statusCode).toBe(200);
      expect((await t.inject({ method: 'GET', url: api(`/wikis/TEAM/${team.teamid}`) })).json().contents_raw).toBe(
        'We fix kettles.',
      );
    });
  });

  describe('quiz routes x callers (issue 42): the primary guide decides', () => {
    const CALLERS = ['anonymous', 'User', 'other Author', 'granted Author', 'owner', 'Moderator', 'Admin'] as const;
    /** Per route, what each caller in CALLERS gets: a status, `key` when the survey shows correct answers, `+private` when a list shows the private guide's quiz. */
    const MATRIX: [route: string, expected: string[]][] = [
      ['GET /quizzes', ['401', '403', '200', '200 +private', '200 +private', '200 +private', '200 +private']],
      [
        'POST /quizzes/getQuizzes',
        ['401', '403', '200', '200 +private', '200 +private', '200 +private', '200 +private'],
      ],
      ['GET /quizzes/{public}', ['401', '403', '200', '200', '200 key', '200 key', '200 key']],
      ['GET /quizzes/{private}', ['401', '403', '404', '200 key', '200 key', '200 key', '200 key']],
      ['GET /quizzes/{guideless}', ['401', '403', '200', '200', '200 key', '200 key', '200 key']],
      ['GET /quizzes/{private}?format=survey', ['401', '403', '404', '200 key', '200 key', '200 key', '200 key']],
      ['GET /quizzes/revisions/{private}', ['401', '403', '404', '200 key', '200 key', '200 key', '200 key']],
      ['POST /quizzes/questions {public}', ['401', '403', '403', '403', '200', '200', '200']],
      ['POST /quizzes/questions {private}', ['401', '403', '404', '200', '200', '200', '200']],
      ['POST /quizzes/questions {guideless}', ['401', '403', '403', '403', '200', '200', '200']],
      ['GET /quizzes/courseAssignments/{private}', ['401', '403', '404', '200', '200', '200', '200']],
    ];

    it('answers each caller as the matrix says', async () => {
      const grantedAuthor = await createUser(t, { privilege: 'Author' });
      const publicGuide = await createGuide(t, author.user, { category: 'Kettle', public: true });
      const privateGuide = await privateGuideGrantedTo(grantedAuthor.user.userid);
      const title = 'Matrix kettle quiz';
      const quizzes = {
        public: await createQuiz(t, author.user, { title, guideid: publicGuide.guideid }),
        private: await createQuiz(t, author.user, { title, guideid: privateGuide.guideid }),
        guideless: await createQuiz(t, author.user, { title }),
      };
      const tokenOf: Record<(typeof CALLERS)[number], string | undefined> = {
        anonymous: undefined,
        User: stranger.token,
        'other Author': otherAuthor.token,
        'granted Author': grantedAuthor.token,
        owner: author.token,
        Moderator: moderator.token,
        Admin: admin.token,
      };
      const noChange = (quizid: number) => ({
        quizid,
        questions: [{ external_question_uid: 'q_safe', title: 'Safe?' }],
      });
      const request = (route: string): { method: string; url: string; payload?: object } => {
        const [method, path] = route.split(' ');
        const quiz = Object.entries(quizzes).find(([name]) => route.includes(`{${name}}`))?.[1];
        if (path === '/quizzes') return { method, url: api('/quizzes?search=Matrix&limit=200') };
        if (!quiz) return { method, url: api(path), payload: { search: 'Matrix', limit: 200 } };
        if (path === '/quizzes/questions') return { method, url: api(path), payload: noChange(quiz.quizid) };
        const id = path.startsWith('/quizzes/revisions') ? quiz.quiz_revisionid : quiz.quizid;
        return { method, url: api(path.replace(/\{\w+\}/, String(id))) };
      };
      const label = (route: string, status: number, body: string) => {
        if (status !== 200) return String(status);
        if (!route.includes('{')) return body.includes(`"quizid":${quizzes.private.quizid},`) ? '200 +private' : '200';
        return body.includes('correctAnswer') ? '200 key' : '200';
      };
      const actual: [string, string[]][] = [];
      for (const [route] of MATRIX) {
        const row: string[] = [];
        for (const caller of CALLERS) {
          const res = await t.as(tokenOf[caller], request(route));
          row.push(label(route, res.statusCode, res.body));
        }
        actual.push([route, row]);
      }
      expect(actual).toEqual(MATRIX);
    });
  });
});
