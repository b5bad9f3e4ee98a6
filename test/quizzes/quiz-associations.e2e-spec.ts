import type { GuideDetailDto } from '../../src/modules/guides/dto/guide-response.dto';
import type { QuizDetailDto } from '../../src/modules/quizzes/dto/quiz-response.dto';
import type { WikiDetailDto } from '../../src/modules/wikis/dto/wiki-response.dto';
import { FakeClock } from '../../src/platform/clock/clock';
import { createGuide } from '../factories/guide.factory';
import { createCourseStage, createQuiz } from '../factories/quiz.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { answer, auditActions, requests, START } from './quiz-test-kit';

describe('Quizzes: associations and course stages (Q9, Q10, Q12-Q16: docs/enterprise/quizzes.md)', () => {
  let t: TestApp;
  const { get, post, del } = requests(() => t);
  let admin: CreatedUser;
  let moderator: CreatedUser;
  let author: CreatedUser;
  let otherAuthor: CreatedUser;
  let user: CreatedUser;
  let guide: GuideDetailDto;
  let secondGuide: GuideDetailDto;
  let privateGuide: GuideDetailDto;
  let course: WikiDetailDto;

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock: new FakeClock(START) } });
    admin = await createUser(t, { privilege: 'Admin' });
    moderator = await createUser(t, { privilege: 'Moderator' });
    author = await createUser(t, { privilege: 'Author' });
    otherAuthor = await createUser(t, { privilege: 'Author' });
    user = await createUser(t);
    await createCategory(t, admin.user, 'Phones');
    guide = await createGuide(t, author.user, { category: 'Phones', title: 'Screen Replacement', public: true });
    secondGuide = await createGuide(t, author.user, { category: 'Phones', title: 'Battery Replacement', public: true });
    privateGuide = await createGuide(t, author.user, { category: 'Phones', title: 'Private', public: false });
    course = await createWiki(t, admin.user, { title: 'Phone technician course' });
  });
  afterAll(() => t.close());

  const quizOf = (who: CreatedUser = author, fields: Parameters<typeof createQuiz>[2] = {}) =>
    createQuiz(t, who.user, fields);

  describe('POST /quizzes/associations (Q9) and GET /quizzes/associations/{guideid} (Q12)', () => {
    it('401, 403 for a User and a non-editor, 422 shape, 404 guide or quiz gone, 409 disabled quiz', async () => {
      const quiz = await quizOf();
      const body = { guideid: guide.guideid, quizids: [quiz.quizid] };
      expect((await post(undefined, '/quizzes/associations', body)).statusCode).toBe(401);
      expect((await post(user.token, '/quizzes/associations', body)).statusCode).toBe(403);
      expect(answer(await post(otherAuthor.token, '/quizzes/associations', body))).toEqual({
        status: 403,
        body: { error: true, message: 'Only editors of this guide may do this' },
      });
      for (const payload of [
        { guideid: guide.guideid },
        { guideid: guide.guideid, quizids: [] },
        { quizids: [quiz.quizid] },
      ]) {
        expect((await post(author.token, '/quizzes/associations', payload)).statusCode).toBe(422);
      }
      expect((await post(author.token, '/quizzes/associations', { ...body, guideid: 999999 })).statusCode).toBe(404);
      expect(
        (await post(otherAuthor.token, '/quizzes/associations', { ...body, guideid: privateGuide.guideid })).statusCode,
      ).toBe(404);
      expect(
        answer(await post(author.token, '/quizzes/associations', { ...body, quizids: [quiz.quizid, 999999] })),
      ).toEqual({
        status: 404,
        body: { error: true, message: 'Quiz not found' },
      });
      const disabled = (await post(author.token, '/quizzes', { title: 'Off', enabled: false })).json<QuizDetailDto>();
      const res = await post(author.token, '/quizzes/associations', { ...body, quizids: [disabled.quizid] });
      const { survey: _s, ...disabledQuiz } = disabled;
      expect(answer(res)).toEqual({ status: 409, body: disabledQuiz });
      await post(author.token, '/quizzes/delete', { quizids: [quiz.quizid] });
      expect((await post(author.token, '/quizzes/associations', body)).statusCode).toBe(404);
      expect((await get(author.token, `/quizzes/associations/${guide.guideid}`)).json()).toEqual([]);
    });

    it('200: the guide’s full set, a repeat is a no-op, the first guide becomes the primary guide; readers list them', async () => {
      const a = await quizOf(author, { title: 'First' });
      const b = await quizOf(author, { title: 'Second' });
      const res = await post(author.token, '/quizzes/associations', {
        guideid: guide.guideid,
        quizids: [a.quizid, b.quizid],
      });
      const expected = [
        { quizid: a.quizid, quiz_title: 'First', doctype: 'GUIDE', docid: guide.guideid },
        { quizid: b.quizid, quiz_title: 'Second', doctype: 'GUIDE', docid: guide.guideid },
      ];
      expect(answer(res)).toEqual({ status: 200, body: expected });
      expect(
        answer(await post(author.token, '/quizzes/associations', { guideid: guide.guideid, quizids: [a.quizid] })),
      ).toEqual({
        status: 200,
        body: expected,
      });
      expect((await get(author.token, `/quizzes/${a.quizid}`)).json().guideid).toBe(guide.guideid);
      expect(answer(await get(user.token, `/quizzes/associations/${guide.guideid}`))).toEqual({
        status: 200,
        body: expected,
      });
      expect(answer(await get(user.token, `/quizzes/associations/${secondGuide.guideid}`))).toEqual({
        status: 200,
        body: [],
      });
      expect(await auditActions(t, 'quiz', a.quizid)).toEqual(['quiz.create', 'quiz.associate']);
    });

    it('GET: 401, 404 for a guide gone or unreadable', async () => {
      expect((await get(undefined, `/quizzes/associations/${guide.guideid}`)).statusCode).toBe(401);
      expect((await get(user.token, '/quizzes/associations/999999')).statusCode).toBe(404);
      expect((await get(user.token, `/quizzes/associations/${privateGuide.guideid}`)).statusCode).toBe(404);
      expect((await get(user.token, '/quizzes/associations/abc')).statusCode).toBe(404);
    });
  });

  describe('DELETE /quizzes/associations (Q10)', () => {
    it('401, 403 for a User and an Author who does not edit the guide, 422, 404', async () => {
      const quiz = await quizOf(author, { guideid: guide.guideid });
      const body = { guideid: guide.guideid, quizids: [quiz.quizid] };
      expect((await del(undefined, '/quizzes/associations', body)).statusCode).toBe(401);
      expect((await del(user.token, '/quizzes/associations', body)).statusCode).toBe(403);
      expect((await del(otherAuthor.token, '/quizzes/associations', body)).statusCode).toBe(403);
      expect((await del(author.token, '/quizzes/associations', { quizids: [quiz.quizid] })).statusCode).toBe(422);
      expect((await del(author.token, `/quizzes/associations?guideid=${guide.guideid}&quizids=x`)).statusCode).toBe(
        422,
      );
      expect((await del(author.token, '/quizzes/associations', { ...body, guideid: 999999 })).statusCode).toBe(404);
      expect((await del(author.token, '/quizzes/associations', { ...body, quizids: [999999] })).statusCode).toBe(404);
    });

    it('204 (body or query): the primary guide moves to the lowest remaining guide, then to null', async () => {
      const quiz = await quizOf(author, { guideid: secondGuide.guideid });
      await post(author.token, '/quizzes/attach/guide', { quizid: quiz.quizid, guideid: guide.guideid });
      const lower = Math.min(guide.guideid, secondGuide.guideid);
      expect((await get(author.token, `/quizzes/${quiz.quizid}`)).json().guideid).toBe(secondGuide.guideid);
      const res = await del(author.token, '/quizzes/associations', {
        guideid: secondGuide.guideid,
        quizids: [quiz.quizid],
      });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect((await get(author.token, `/quizzes/${quiz.quizid}`)).json().guideid).toBe(
        lower === secondGuide.guideid ? guide.guideid : lower,
      );
      const viaQuery = await del(
        moderator.token,
        `/quizzes/associations?guideid=${guide.guideid}&quizids=${quiz.quizid}`,
      );
      expect(viaQuery.statusCode).toBe(204);
      expect((await get(author.token, `/quizzes/${quiz.quizid}`)).json().guideid).toBeNull();
      expect(await auditActions(t, 'quiz', quiz.quizid)).toEqual([
        'quiz.create',
        'quiz.associate',
        'quiz.dissociate',
        'quiz.dissociate',
      ]);
    });
  });

  describe('POST /quizzes/attach/guide (Q15) and /attach/wiki (Q16)', () => {
    it('401, 403, 422, 404 quiz or document gone, 409 disabled', async () => {
      const quiz = await quizOf();
      expect(
        (await post(undefined, '/quizzes/attach/guide', { quizid: quiz.quizid, guideid: guide.guideid })).statusCode,
      ).toBe(401);
      expect(
        (await post(user.token, '/quizzes/attach/wiki', { quizid: quiz.quizid, wikiid: course.wikiid })).statusCode,
      ).toBe(403);
      expect(
        (await post(otherAuthor.token, '/quizzes/attach/guide', { quizid: quiz.quizid, guideid: guide.guideid }))
          .statusCode,
      ).toBe(403);
      expect((await post(author.token, '/quizzes/attach/guide', { quizid: quiz.quizid })).statusCode).toBe(422);
      expect((await post(author.token, '/quizzes/attach/wiki', { quizid: quiz.quizid, guideid: 1 })).statusCode).toBe(
        422,
      );
      expect(
        (await post(author.token, '/quizzes/attach/guide', { quizid: 999999, guideid: guide.guideid })).statusCode,
      ).toBe(404);
      expect(
        (await post(author.token, '/quizzes/attach/wiki', { quizid: quiz.quizid, wikiid: 999999 })).statusCode,
      ).toBe(404);
      const off = (await post(author.token, '/quizzes', { title: 'Off', enabled: false })).json<QuizDetailDto>();
      const res = await post(author.token, '/quizzes/attach/wiki', { quizid: off.quizid, wikiid: course.wikiid });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ quizid: off.quizid, status: 'disabled' });
      const { survey: _s, ...offQuiz } = off;
      expect(
        answer(await post(author.token, '/quizzes/attach/guide', { quizid: off.quizid, guideid: guide.guideid })),
      ).toEqual({
        status: 409,
        body: offQuiz,
      });
    });

    it('200 Association; a wiki does not become the primary guide', async () => {
      const quiz = await quizOf(author, { title: 'Attached' });
      expect(
        answer(await post(author.token, '/quizzes/attach/wiki', { quizid: quiz.quizid, wikiid: course.wikiid })),
      ).toEqual({
        status: 200,
        body: { quizid: quiz.quizid, quiz_title: 'Attached', doctype: 'WIKI', docid: course.wikiid },
      });
      expect((await get(author.token, `/quizzes/${quiz.quizid}`)).json().guideid).toBeNull();
      expect(
        answer(await post(author.token, '/quizzes/attach/guide', { quizid: quiz.quizid, guideid: guide.guideid })),
      ).toEqual({
        status: 200,
        body: { quizid: quiz.quizid, quiz_title: 'Attached', doctype: 'GUIDE', docid: guide.guideid },
      });
      expect((await get(author.token, `/quizzes/${quiz.quizid}`)).json().guideid).toBe(guide.guideid);
    });
  });

  describe('GET /quizzes/courseAssignments/{quizid} (Q13) and GET /quizzes/passingScore/{stage}/{quizid} (Q14)', () => {
    it('401, 403 (Q13 for a User), 404 quiz or stage gone', async () => {
      const quiz = await quizOf();
      const stage = await createCourseStage(t, { courseWikiid: course.wikiid, quizid: quiz.quizid, passingScore: 90 });
      expect((await get(undefined, `/quizzes/courseAssignments/${quiz.quizid}`)).statusCode).toBe(401);
      expect((await get(user.token, `/quizzes/courseAssignments/${quiz.quizid}`)).statusCode).toBe(403);
      expect((await get(author.token, '/quizzes/courseAssignments/999999')).statusCode).toBe(404);
      expect((await get(undefined, `/quizzes/passingScore/${stage.courseStageid}/${quiz.quizid}`)).statusCode).toBe(
        401,
      );
      expect(answer(await get(user.token, `/quizzes/passingScore/999999/${quiz.quizid}`))).toEqual({
        status: 404,
        body: { error: true, message: 'Course stage not found' },
      });
      expect((await get(user.token, `/quizzes/passingScore/${stage.courseStageid}/999999`)).statusCode).toBe(404);
      await post(author.token, '/quizzes/delete', { quizids: [quiz.quizid] });
      expect((await get(author.token, `/quizzes/courseAssignments/${quiz.quizid}`)).statusCode).toBe(404);
      expect((await get(user.token, `/quizzes/passingScore/${stage.courseStageid}/${quiz.quizid}`)).statusCode).toBe(
        404,
      );
    });

    it('200: stages with their scores; the stage’s score when it links the quiz and sets one, else the default', async () => {
      const quiz = await quizOf(author, { default_passing_score: 70 });
      expect(answer(await get(author.token, `/quizzes/courseAssignments/${quiz.quizid}`))).toEqual({
        status: 200,
        body: [],
      });
      const strict = await createCourseStage(t, { courseWikiid: course.wikiid, quizid: quiz.quizid, passingScore: 90 });
      const lenient = await createCourseStage(t, { courseWikiid: course.wikiid, quizid: quiz.quizid, orderby: 2 });
      const unrelated = await createCourseStage(t, {
        courseWikiid: course.wikiid,
        quizid: null,
        passingScore: 10,
        orderby: 3,
      });
      expect(answer(await get(author.token, `/quizzes/courseAssignments/${quiz.quizid}`))).toEqual({
        status: 200,
        body: [
          {
            course_wikiid: course.wikiid,
            course_title: course.title,
            course_stageid: strict.courseStageid,
            passing_score: 90,
          },
          {
            course_wikiid: course.wikiid,
            course_title: course.title,
            course_stageid: lenient.courseStageid,
            passing_score: 70,
          },
        ],
      });
      const score = async (stageid: number) =>
        answer(await get(user.token, `/quizzes/passingScore/${stageid}/${quiz.quizid}`));
      expect(await score(strict.courseStageid)).toEqual({
        status: 200,
        body: { passing_score: 90, source: 'course_stage' },
      });
      expect(await score(lenient.courseStageid)).toEqual({
        status: 200,
        body: { passing_score: 70, source: 'quiz_default' },
      });
      expect(await score(unrelated.courseStageid)).toEqual({
        status: 200,
        body: { passing_score: 70, source: 'quiz_default' },
      });
    });
  });
});
