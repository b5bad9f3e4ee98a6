import type { GuideDetailDto } from '../../src/modules/guides/dto/guide-response.dto';
import type { QuizDetailDto, QuizListItemDto, QuizPageDto } from '../../src/modules/quizzes/dto/quiz-response.dto';
import { createGuide } from '../factories/guide.factory';
import { createQuiz, THREE_QUESTIONS } from '../factories/quiz.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { answer, auditActions, requests } from './quiz-test-kit';

/** Issue 42 point 6: a quiz's primary guide decides who sees it, who changes it and who sees its correct answers. */
describe('Quizzes: access follows the primary guide', () => {
  let t: TestApp;
  const { get, post } = requests(() => t);
  let admin: CreatedUser;
  let moderator: CreatedUser;
  let owner: CreatedUser;
  let grantee: CreatedUser;
  let reader: CreatedUser;
  let publicGuide: GuideDetailDto;
  let privateGuide: GuideDetailDto;
  let readerGuide: GuideDetailDto;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { privilege: 'Admin' });
    moderator = await createUser(t, { privilege: 'Moderator' });
    owner = await createUser(t, { privilege: 'Author' });
    grantee = await createUser(t, { privilege: 'Author' });
    reader = await createUser(t, { privilege: 'Author' });
    await createCategory(t, admin.user, 'Toasters');
    publicGuide = await createGuide(t, owner.user, { category: 'Toasters', title: 'Public toaster', public: true });
    privateGuide = await createGuide(t, owner.user, { category: 'Toasters', title: 'Secret toaster', public: false });
    readerGuide = await createGuide(t, reader.user, { category: 'Toasters', title: 'Reader toaster', public: true });
    const grant = await t.as(owner.token, {
      method: 'PUT',
      url: `/api/2.0/guides/${privateGuide.guideid}/users/${grantee.user.userid}`,
    });
    if (grant.statusCode >= 300) throw new Error(`grant: ${grant.statusCode} ${grant.body}`);
  });
  afterAll(() => t.close());

  const quizOn = (guide: GuideDetailDto | null, title = 'Toaster quiz', by = owner) =>
    createQuiz(t, by.user, { title, ...(guide ? { guideid: guide.guideid } : {}) });
  const retitle = (token: string | undefined, quizid: number, title: string) =>
    post(token, '/quizzes/questions', { quizid, questions: [{ external_question_uid: 'q_safe', title }] });
  const hasKey = (body: unknown) => JSON.stringify(body).includes('correctAnswer');

  describe('POST /quizzes/questions', () => {
    it('another Author: 403 on a readable guide, 404 on a private one; nothing written', async () => {
      const open = await quizOn(publicGuide);
      const hidden = await quizOn(privateGuide);
      expect(answer(await retitle(reader.token, open.quizid, 'Taken over?'))).toEqual({
        status: 403,
        body: { error: true, message: 'Only editors of the quiz’s guide may change it' },
      });
      expect(answer(await retitle(reader.token, hidden.quizid, 'Taken over?'))).toEqual({
        status: 404,
        body: { error: true, message: 'Quiz not found' },
      });
      // An Author who may read the guide but not edit it, through a new question too.
      const added = await post(grantee.token, '/quizzes/questions', {
        quizid: open.quizid,
        questions: [{ external_question_uid: 'q_new', title: 'New?', type: 'boolean', correctAnswer: true }],
      });
      expect(added.statusCode).toBe(403);
      for (const quiz of [open, hidden]) {
        const now = (await get(owner.token, `/quizzes/${quiz.quizid}`)).json<QuizDetailDto>();
        expect(now).toMatchObject({ version: 1, quiz_revisionid: quiz.quiz_revisionid, survey: THREE_QUESTIONS });
        expect(await auditActions(t, 'quiz', quiz.quizid)).toEqual(['quiz.create']);
      }
    });

    it('the guide’s editors change it: its author, a granted Author, a Moderator and an Admin', async () => {
      const hidden = await quizOn(privateGuide);
      const editors = [owner, grantee, moderator, admin];
      for (const [i, editor] of editors.entries()) {
        expect(answer(await retitle(editor.token, hidden.quizid, `Safe ${i}?`))).toMatchObject({ status: 200 });
      }
      const now = (await get(owner.token, `/quizzes/${hidden.quizid}`)).json<QuizDetailDto>();
      expect(now.version).toBe(1 + editors.length);
    });

    it('a quiz without a guide: its creator and Moderator+ change it, another Author gets 403', async () => {
      const loose = await quizOn(null);
      expect(answer(await retitle(reader.token, loose.quizid, 'Mine now?'))).toEqual({
        status: 403,
        body: {
          error: true,
          message: 'Only the creator or a Moderator may change a quiz without a guide',
          requiredPrivileges: ['Admin', 'Moderator'],
        },
      });
      for (const editor of [owner, moderator, admin]) {
        expect((await retitle(editor.token, loose.quizid, `By ${editor.user.userid}?`)).statusCode).toBe(200);
      }
    });

    it('a parallel burst of editors and outsiders: outsiders never write, editors write one revision each', async () => {
      const hidden = await quizOn(privateGuide);
      const newQuestion = (who: CreatedUser, i: number) =>
        post(who.token, '/quizzes/questions', {
          quizid: hidden.quizid,
          questions: [{ external_question_uid: `burst_${i}`, title: `Burst ${i}?`, type: 'text', correctAnswer: 'x' }],
        });
      const callers = Array.from({ length: 16 }, (_, i) => [reader, grantee, owner, moderator][i % 4]);
      const results = await Promise.all(callers.map((who, i) => newQuestion(who, i)));
      const statuses = results.map((res) => res.statusCode);
      callers.forEach((who, i) => {
        if (who === reader) expect(statuses[i]).toBe(404);
        else expect([200, 409]).toContain(statuses[i]);
      });
      const written = statuses.flatMap((status, i) => (status === 200 ? [`burst_${i}`] : []));
      expect(written.length).toBeGreaterThan(0);
      const now = (await get(owner.token, `/quizzes/${hidden.quizid}`)).json<QuizDetailDto>();
      expect(now.version).toBe(1 + written.length);
      const names = JSON.stringify(now.survey).match(/burst_\d+/g) ?? [];
      expect(names.sort()).toEqual(written.sort());
    });
  });

  describe('GET /quizzes/{quizid} and GET /quizzes/revisions/{quizRevisionid}', () => {
    it('correct answers for editors only; other readers get the survey without them; non-readers 404', async () => {
      const open = await quizOn(publicGuide);
      const hidden = await quizOn(privateGuide);
      const bare = JSON.parse(JSON.stringify(THREE_QUESTIONS).replace(/,"correctAnswer":(\[[^\]]*\]|"[^"]*")/g, ''));
      expect(hasKey(bare)).toBe(false);
      const urls = (quiz: QuizDetailDto) => [
        `/quizzes/${quiz.quizid}`,
        `/quizzes/${quiz.quizid}?format=survey`,
        `/quizzes/${quiz.quizid}?revisionid=${quiz.quiz_revisionid}`,
        `/quizzes/revisions/${quiz.quiz_revisionid}`,
      ];
      for (const url of urls(open)) {
        for (const editor of [owner, moderator, admin])
          expect(hasKey((await get(editor.token, url)).json())).toBe(true);
        for (const other of [reader, grantee]) {
          const res = await get(other.token, url);
          expect({ url, status: res.statusCode, key: hasKey(res.json()) }).toEqual({ url, status: 200, key: false });
        }
      }
      expect((await get(reader.token, `/quizzes/${open.quizid}?format=survey`)).json()).toEqual(bare);
      expect((await get(reader.token, `/quizzes/${open.quizid}`)).json()).toEqual({ ...open, survey: bare });
      for (const url of urls(hidden)) {
        expect(hasKey((await get(grantee.token, url)).json())).toBe(true);
        const message = url.includes('revisions') ? 'Quiz revision not found' : 'Quiz not found';
        expect({ url, ...answer(await get(reader.token, url)) }).toEqual({
          url,
          status: 404,
          body: { error: true, message },
        });
      }
    });
  });

  describe('POST /quizzes/getQuizzes', () => {
    it('hides exactly what GET /quizzes hides, for every caller', async () => {
      const title = 'Listed toaster';
      const quizzes = [
        await quizOn(publicGuide, title),
        await quizOn(privateGuide, title),
        await quizOn(readerGuide, title, reader),
        await quizOn(null, title),
      ];
      const disabled = await t.as(owner.token, {
        method: 'POST',
        url: '/api/2.0/quizzes',
        payload: { title, guideid: privateGuide.guideid, enabled: false },
      });
      expect(disabled.statusCode).toBe(201);
      const gone = await quizOn(publicGuide, title);
      await post(owner.token, '/quizzes/delete', { quizids: [gone.quizid] });
      const expected: [CreatedUser, number[]][] = [
        [owner, [quizzes[0], quizzes[1], quizzes[2], disabled.json<QuizDetailDto>()].map((q) => q.quizid)],
        [grantee, [quizzes[0], quizzes[1], quizzes[2], disabled.json<QuizDetailDto>()].map((q) => q.quizid)],
        [reader, [quizzes[0], quizzes[2]].map((q) => q.quizid)],
        [moderator, [quizzes[0], quizzes[1], quizzes[2], disabled.json<QuizDetailDto>()].map((q) => q.quizid)],
      ];
      for (const [caller, ids] of expected) {
        const v2 = (await get(caller.token, `/quizzes?search=${encodeURIComponent(title)}&limit=200`)).json<
          QuizListItemDto[]
        >();
        const page = await post(caller.token, '/quizzes/getQuizzes', { search: title, limit: 200 });
        expect(page.statusCode).toBe(200);
        const listed = page.json<QuizPageDto>();
        const who = caller.user.userid;
        expect({ who, v2: v2.map((q) => q.quizid).sort() }).toEqual({ who, v2: [...ids].sort() });
        expect({ who, page: listed.quizzes.map((q) => q.quizid).sort(), total: listed.total }).toEqual({
          who,
          page: [...ids].sort(),
          total: ids.length,
        });
      }
      expect((await post(undefined, '/quizzes/getQuizzes', {})).statusCode).toBe(401);
    });
  });

  describe('attaching', () => {
    it('a quiz on a guide the caller cannot read is not found; giving a guideless quiz its guide is its editors’', async () => {
      const hidden = await quizOn(privateGuide);
      const loose = await quizOn(null);
      const target = await createGuide(t, reader.user, { category: 'Toasters', title: 'Reader kettle', public: true });
      for (const [url, body] of [
        ['/quizzes/attach/guide', { quizid: hidden.quizid, guideid: target.guideid }],
        ['/quizzes/associations', { guideid: target.guideid, quizids: [hidden.quizid] }],
      ] as const) {
        expect(answer(await post(reader.token, url, body))).toEqual({
          status: 404,
          body: { error: true, message: 'Quiz not found' },
        });
      }
      const takeover = { quizid: loose.quizid, guideid: target.guideid };
      expect(answer(await post(reader.token, '/quizzes/attach/guide', takeover))).toEqual({
        status: 403,
        body: {
          error: true,
          message: 'Only the creator or a Moderator may give a quiz without a guide its guide',
          requiredPrivileges: ['Admin', 'Moderator'],
        },
      });
      expect((await get(reader.token, `/quizzes/associations/${target.guideid}`)).json()).toEqual([]);
      expect((await get(owner.token, `/quizzes/${loose.quizid}`)).json().guideid).toBeNull();
      expect((await retitle(reader.token, loose.quizid, 'Mine now?')).statusCode).toBe(403);
      // The creator may give it a guide.
      expect(
        (await post(owner.token, '/quizzes/attach/guide', { ...takeover, guideid: publicGuide.guideid })).statusCode,
      ).toBe(200);
      expect((await get(owner.token, `/quizzes/${loose.quizid}`)).json().guideid).toBe(publicGuide.guideid);
    });
  });
});
