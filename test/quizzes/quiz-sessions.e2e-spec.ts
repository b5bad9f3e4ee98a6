import type { GuideDetailDto } from '../../src/modules/guides/dto/guide-response.dto';
import type {
  AttemptSessionDto,
  QuizDetailDto,
  SessionDto,
  SubmitResultDto,
} from '../../src/modules/quizzes/dto/quiz-response.dto';
import { QuizFailed, QuizPassed, QuizSessionSubmitted } from '../../src/modules/quizzes/quiz.events';
import type { WikiDetailDto } from '../../src/modules/wikis/dto/wiki-response.dto';
import { FakeClock } from '../../src/platform/clock/clock';
import { EventBus } from '../../src/platform/events/event-bus';
import { createGuide } from '../factories/guide.factory';
import { createCourseStage, createQuiz, releaseGuide, THREE_QUESTIONS } from '../factories/quiz.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { settle } from '../utils/events';
import { createTestApp, type TestApp } from '../utils/test-app';
import { answer, auditActions, requests, START, START_S } from './quiz-test-kit';

const ALL_RIGHT = { q_tools: ['b', 'a'], q_safe: 'yes', q_count: '4' };

describe('Quizzes: sessions (Q11, Q17-Q23: docs/enterprise/quizzes.md)', () => {
  let t: TestApp;
  const clock = new FakeClock(START);
  const { get, post, patch } = requests(() => t);
  let admin: CreatedUser;
  let moderator: CreatedUser;
  let author: CreatedUser;
  let learner: CreatedUser;
  let other: CreatedUser;
  let guide: GuideDetailDto;
  let privateGuide: GuideDetailDto;
  let wiki: WikiDetailDto;
  let quiz: QuizDetailDto;
  let releaseid: number;
  const events: { name: string; sessionid: number; status: string; score: number | null }[] = [];

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
    admin = await createUser(t, { privilege: 'Admin' });
    moderator = await createUser(t, { privilege: 'Moderator' });
    author = await createUser(t, { privilege: 'Author' });
    learner = await createUser(t);
    other = await createUser(t);
    await createCategory(t, admin.user, 'Phones');
    guide = await createGuide(t, author.user, { category: 'Phones', title: 'Screen Replacement', public: true });
    privateGuide = await createGuide(t, author.user, { category: 'Phones', title: 'Private', public: false });
    wiki = await createWiki(t, admin.user, { title: 'Course page' });
    releaseid = await releaseGuide(t, admin.user, guide.guideid);
    quiz = await createQuiz(t, author.user, { guideid: guide.guideid, default_passing_score: 67 });
    const bus = t.app.get(EventBus);
    for (const event of [QuizSessionSubmitted, QuizPassed, QuizFailed]) {
      bus.subscribe(event, `test.${event.name}`, (payload, delivered) => {
        events.push({
          name: delivered.name,
          sessionid: payload.sessionid,
          status: payload.status,
          score: payload.score,
        });
      });
    }
  });
  afterAll(() => t.close());

  const attempt = async (who: CreatedUser, body: Record<string, unknown> = { quizid: quiz.quizid }) => {
    const res = await post(who.token, '/quizzes/attempt', body);
    expect([200, 201]).toContain(res.statusCode);
    return res.json<AttemptSessionDto>();
  };
  const surveyWithoutAnswers = (survey: unknown) =>
    JSON.parse(JSON.stringify(survey).replace(/,"correctAnswer":[^}]*?(?=})/g, '')) as unknown;

  describe('POST /quizzes/attempt (Q11)', () => {
    it('401, 422 (shape; both guideid and wikiid), 404 quiz, context or stage gone, 409 disabled', async () => {
      expect((await post(undefined, '/quizzes/attempt', { quizid: quiz.quizid })).statusCode).toBe(401);
      for (const payload of [{}, { quizid: 'x' }, { quizid: quiz.quizid, course_stageid: 0 }]) {
        expect((await post(learner.token, '/quizzes/attempt', payload)).statusCode).toBe(422);
      }
      expect(
        answer(
          await post(learner.token, '/quizzes/attempt', {
            quizid: quiz.quizid,
            guideid: guide.guideid,
            wikiid: wiki.wikiid,
          }),
        ),
      ).toEqual({
        status: 422,
        body: {
          error: true,
          message: 'Give at most one of guideid and wikiid',
          errors: [{ message: 'Give at most one of guideid and wikiid', field: 'wikiid' }],
        },
      });
      expect(answer(await post(learner.token, '/quizzes/attempt', { quizid: 999999 }))).toEqual({
        status: 404,
        body: { error: true, message: 'Quiz not found' },
      });
      expect(
        (await post(learner.token, '/quizzes/attempt', { quizid: quiz.quizid, guideid: privateGuide.guideid }))
          .statusCode,
      ).toBe(404);
      expect((await post(learner.token, '/quizzes/attempt', { quizid: quiz.quizid, wikiid: 999999 })).statusCode).toBe(
        404,
      );
      expect(
        answer(await post(learner.token, '/quizzes/attempt', { quizid: quiz.quizid, course_stageid: 999999 })),
      ).toEqual({
        status: 404,
        body: { error: true, message: 'Course stage not found' },
      });
      const off = (
        await post(author.token, '/quizzes', { title: 'Off', enabled: false, survey: THREE_QUESTIONS })
      ).json<QuizDetailDto>();
      const { survey: _s, ...offQuiz } = off;
      expect(answer(await post(learner.token, '/quizzes/attempt', { quizid: off.quizid }))).toEqual({
        status: 409,
        body: offQuiz,
      });
      await post(author.token, '/quizzes/delete', { quizids: [off.quizid] });
      expect((await post(learner.token, '/quizzes/attempt', { quizid: off.quizid })).statusCode).toBe(404);
    });

    it('201 new (pinning revision, release and passing score; no correctAnswer), then 200 with the same open session', async () => {
      const res = await post(learner.token, '/quizzes/attempt', { quizid: quiz.quizid, guideid: guide.guideid });
      expect(res.statusCode).toBe(201);
      const session = res.json<AttemptSessionDto>();
      expect(session).toEqual({
        sessionid: session.sessionid,
        quizid: quiz.quizid,
        quiz_revisionid: quiz.quiz_revisionid,
        userid: learner.user.userid,
        course_stageid: null,
        doctype: 'GUIDE',
        docid: guide.guideid,
        status: 'in_progress',
        answers: {},
        score: null,
        passed: null,
        passing_score: 67,
        guide_releaseid: releaseid,
        started_date: START_S,
        saved_date: null,
        submitted_date: null,
        survey: surveyWithoutAnswers(THREE_QUESTIONS),
      });
      expect(res.body).not.toContain('correctAnswer');
      const again = await post(learner.token, '/quizzes/attempt', { quizid: quiz.quizid });
      expect(answer(again)).toEqual({ status: 200, body: session });
      // Another course stage is another open session, with the stage's passing score.
      const stage = await createCourseStage(t, { courseWikiid: wiki.wikiid, quizid: quiz.quizid, passingScore: 100 });
      const staged = await post(learner.token, '/quizzes/attempt', {
        quizid: quiz.quizid,
        course_stageid: stage.courseStageid,
        wikiid: wiki.wikiid,
      });
      expect(staged.statusCode).toBe(201);
      expect(staged.json()).toMatchObject({
        course_stageid: stage.courseStageid,
        passing_score: 100,
        doctype: 'WIKI',
        docid: wiki.wikiid,
        guide_releaseid: releaseid,
      });
      await post(learner.token, '/quizzes/sessions/cancel', { sessionid: staged.json().sessionid });
      await post(learner.token, '/quizzes/sessions/cancel', { sessionid: session.sessionid });
      expect(await auditActions(t, 'quiz_session', session.sessionid)).toEqual([
        'quiz_session.attempt',
        'quiz_session.cancel',
      ]);
    });

    it('concurrent attempts open one session', async () => {
      const results = await Promise.all(
        Array.from({ length: 5 }, () => post(other.token, '/quizzes/attempt', { quizid: quiz.quizid })),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
      expect(new Set(results.map((r) => r.json<{ sessionid: number }>().sessionid)).size).toBe(1);
      await post(other.token, '/quizzes/sessions/cancel', {
        sessionid: results[0].json<{ sessionid: number }>().sessionid,
      });
    });
  });

  describe('POST /quizzes/sessions/save (Q17)', () => {
    it('401, 422 shape, 404 gone or not visible, 403 a Moderator who is not the owner, 422 unknown key, 409 not in_progress', async () => {
      const session = await attempt(learner);
      expect(
        (await post(undefined, '/quizzes/sessions/save', { sessionid: session.sessionid, answers: {} })).statusCode,
      ).toBe(401);
      expect((await post(learner.token, '/quizzes/sessions/save', { sessionid: session.sessionid })).statusCode).toBe(
        422,
      );
      expect(
        (await post(learner.token, '/quizzes/sessions/save', { sessionid: session.sessionid, answers: [] })).statusCode,
      ).toBe(422);
      expect(
        answer(await post(other.token, '/quizzes/sessions/save', { sessionid: session.sessionid, answers: {} })),
      ).toEqual({
        status: 404,
        body: { error: true, message: 'Session not found' },
      });
      expect((await post(learner.token, '/quizzes/sessions/save', { sessionid: 999999, answers: {} })).statusCode).toBe(
        404,
      );
      expect(
        answer(await post(moderator.token, '/quizzes/sessions/save', { sessionid: session.sessionid, answers: {} })),
      ).toEqual({
        status: 403,
        body: { error: true, message: 'Only the owner of this session may do this' },
      });
      expect(
        answer(
          await post(learner.token, '/quizzes/sessions/save', {
            sessionid: session.sessionid,
            answers: { nope: 1, q_safe: 'no' },
          }),
        ),
      ).toEqual({
        status: 422,
        body: {
          error: true,
          message: 'nope is not a question of this quiz',
          errors: [{ message: 'nope is not a question of this quiz', field: 'answers.nope' }],
        },
      });
      const cancelled = (
        await post(learner.token, '/quizzes/sessions/cancel', { sessionid: session.sessionid })
      ).json<SessionDto>();
      expect(
        answer(await post(learner.token, '/quizzes/sessions/save', { sessionid: session.sessionid, answers: {} })),
      ).toEqual({
        status: 409,
        body: cancelled,
      });
    });

    it('200: merges answers', async () => {
      const session = await attempt(learner);
      clock.advance(30_000);
      await post(learner.token, '/quizzes/sessions/save', {
        sessionid: session.sessionid,
        answers: { q_safe: 'no', q_count: '3' },
      });
      const res = await post(learner.token, '/quizzes/sessions/save', {
        sessionid: session.sessionid,
        answers: { q_safe: 'yes' },
      });
      const { survey: _s, ...plain } = session;
      expect(answer(res)).toEqual({
        status: 200,
        body: { ...plain, answers: { q_safe: 'yes', q_count: '3' }, saved_date: START_S + 30 },
      });
      clock.set(START);
      await post(learner.token, '/quizzes/sessions/cancel', { sessionid: session.sessionid });
    });
  });

  describe('POST /quizzes/sessions/submit (Q18) and GET /quizzes/submissions/{sessionid} (Q21)', () => {
    it('401, 422, 404, 403, 409', async () => {
      const session = await attempt(learner);
      expect((await post(undefined, '/quizzes/sessions/submit', { sessionid: session.sessionid })).statusCode).toBe(
        401,
      );
      expect((await post(learner.token, '/quizzes/sessions/submit', {})).statusCode).toBe(422);
      expect(
        (await post(learner.token, '/quizzes/sessions/submit', { sessionid: session.sessionid, answers: { zz: 1 } }))
          .statusCode,
      ).toBe(422);
      expect((await post(other.token, '/quizzes/sessions/submit', { sessionid: session.sessionid })).statusCode).toBe(
        404,
      );
      expect(
        (await post(moderator.token, '/quizzes/sessions/submit', { sessionid: session.sessionid })).statusCode,
      ).toBe(403);
      expect((await get(undefined, `/quizzes/submissions/${session.sessionid}`)).statusCode).toBe(401);
      expect((await get(other.token, `/quizzes/submissions/${session.sessionid}`)).statusCode).toBe(404);
      expect((await get(learner.token, '/quizzes/submissions/999999')).statusCode).toBe(404);
      const done = (
        await post(learner.token, '/quizzes/sessions/submit', { sessionid: session.sessionid })
      ).json<SubmitResultDto>();
      expect(
        answer(
          await post(learner.token, '/quizzes/sessions/submit', { sessionid: session.sessionid, answers: ALL_RIGHT }),
        ),
      ).toEqual({
        status: 409,
        body: done.session,
      });
    });

    it('200: grades (checkbox as a set, exact text), writes submissions, audits, publishes; answers never change', async () => {
      const session = await attempt(learner);
      await post(learner.token, '/quizzes/sessions/save', {
        sessionid: session.sessionid,
        answers: { q_tools: ['b', 'a'], q_count: '4 ' },
      });
      clock.advance(120_000);
      const res = await post(learner.token, '/quizzes/sessions/submit', {
        sessionid: session.sessionid,
        answers: { q_safe: 'yes' },
      });
      expect(res.statusCode).toBe(200);
      const { survey: _s, ...plain } = session;
      const submitted: SessionDto = {
        ...plain,
        status: 'submitted',
        answers: { q_tools: ['b', 'a'], q_count: '4 ', q_safe: 'yes' },
        score: 67,
        passed: true,
        saved_date: START_S + 120,
        submitted_date: START_S + 120,
      };
      expect(res.json()).toEqual({
        session: submitted,
        score: 67,
        passed: true,
        passing_score: 67,
        results: [
          { external_question_uid: 'q_tools', correct: true },
          { external_question_uid: 'q_safe', correct: true },
          { external_question_uid: 'q_count', correct: false },
        ],
      });
      expect(res.body).not.toContain('correctAnswer');
      const submissions = await get(learner.token, `/quizzes/submissions/${session.sessionid}`);
      expect(submissions.json()).toEqual([
        {
          submissionid: expect.any(Number),
          sessionid: session.sessionid,
          questionid: expect.any(Number),
          external_question_uid: 'q_tools',
          answer: ['b', 'a'],
          is_correct: true,
          points: 1,
        },
        {
          submissionid: expect.any(Number),
          sessionid: session.sessionid,
          questionid: expect.any(Number),
          external_question_uid: 'q_safe',
          answer: 'yes',
          is_correct: true,
          points: 1,
        },
        {
          submissionid: expect.any(Number),
          sessionid: session.sessionid,
          questionid: expect.any(Number),
          external_question_uid: 'q_count',
          answer: '4 ',
          is_correct: false,
          points: 0,
        },
      ]);
      expect((await get(moderator.token, `/quizzes/submissions/${session.sessionid}`)).json()).toEqual(
        submissions.json(),
      );
      expect(
        (await post(learner.token, '/quizzes/sessions/save', { sessionid: session.sessionid, answers: ALL_RIGHT }))
          .statusCode,
      ).toBe(409);
      expect((await get(learner.token, `/quizzes/submissions/${session.sessionid}`)).json()).toEqual(
        submissions.json(),
      );
      expect(await auditActions(t, 'quiz_session', session.sessionid)).toEqual([
        'quiz_session.attempt',
        'quiz_session.submit',
      ]);
      await settle(t);
      expect(events.filter((e) => e.sessionid === session.sessionid)).toEqual([
        { name: 'quiz.session_submitted', sessionid: session.sessionid, status: 'submitted', score: 67 },
        { name: 'quiz.passed', sessionid: session.sessionid, status: 'submitted', score: 67 },
      ]);
      const list = (await get(author.token, '/quizzes?sort=sessions_submitted&limit=200')).json<
        { quizid: number; quizzes_submitted: number }[]
      >();
      // This submission and the one of the 409 test before it.
      expect(list.find((i) => i.quizid === quiz.quizid)?.quizzes_submitted).toBe(2);
      clock.set(START);
    });

    it('one point below the passing score fails and publishes quiz.failed', async () => {
      const strict = await createQuiz(t, author.user, { default_passing_score: 34 });
      const session = await attempt(learner, { quizid: strict.quizid });
      const res = await post(learner.token, '/quizzes/sessions/submit', {
        sessionid: session.sessionid,
        answers: { q_safe: 'yes' },
      });
      expect(res.json()).toMatchObject({ score: 33, passed: false, passing_score: 34 });
      await settle(t);
      expect(events.filter((e) => e.sessionid === session.sessionid).map((e) => e.name)).toEqual([
        'quiz.session_submitted',
        'quiz.failed',
      ]);
    });

    it('a quiz revised while a session is open grades that session against the revision it pinned', async () => {
      const revised = await createQuiz(t, author.user, { default_passing_score: 100 });
      const session = await attempt(learner, { quizid: revised.quizid });
      await post(author.token, '/quizzes/questions', {
        quizid: revised.quizid,
        questions: [{ external_question_uid: 'q_extra', title: 'Extra', type: 'text', correctAnswer: 'x' }],
      });
      expect(
        (
          await post(learner.token, '/quizzes/sessions/save', {
            sessionid: session.sessionid,
            answers: { q_extra: 'x' },
          })
        ).statusCode,
      ).toBe(422);
      const res = await post(learner.token, '/quizzes/sessions/submit', {
        sessionid: session.sessionid,
        answers: ALL_RIGHT,
      });
      expect(res.json()).toMatchObject({
        score: 100,
        passed: true,
        session: { quiz_revisionid: revised.quiz_revisionid },
      });
      expect(res.json().results).toHaveLength(3);
      const next = await attempt(learner, { quizid: revised.quizid });
      expect(next.quiz_revisionid).not.toBe(revised.quiz_revisionid);
      expect(JSON.stringify(next.survey)).toContain('q_extra');
      await post(learner.token, '/quizzes/sessions/cancel', { sessionid: next.sessionid });
    });

    it('20 concurrent submits of one session: one submitted, nineteen 409s, one set of submissions', async () => {
      const racer = await createUser(t);
      const session = await attempt(racer);
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          post(racer.token, '/quizzes/sessions/submit', { sessionid: session.sessionid, answers: ALL_RIGHT }),
        ),
      );
      const codes = results.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 200)).toHaveLength(1);
      expect(codes.filter((c) => c === 409)).toHaveLength(19);
      for (const conflict of results.filter((r) => r.statusCode === 409)) {
        expect(conflict.json()).toMatchObject({ sessionid: session.sessionid, status: 'submitted', score: 100 });
      }
      expect((await get(racer.token, `/quizzes/submissions/${session.sessionid}`)).json()).toHaveLength(3);
    });
  });

  describe('POST /quizzes/sessions/cancel (Q19) and /bulkCancel (Q20)', () => {
    it('cancel: 401, 422, 404, 409; the owner or a Moderator cancels', async () => {
      const session = await attempt(learner);
      expect((await post(undefined, '/quizzes/sessions/cancel', { sessionid: session.sessionid })).statusCode).toBe(
        401,
      );
      expect((await post(learner.token, '/quizzes/sessions/cancel', { sessionid: -1 })).statusCode).toBe(422);
      expect((await post(other.token, '/quizzes/sessions/cancel', { sessionid: session.sessionid })).statusCode).toBe(
        404,
      );
      const res = await post(moderator.token, '/quizzes/sessions/cancel', { sessionid: session.sessionid });
      const { survey: _s, ...plain } = session;
      expect(answer(res)).toEqual({ status: 200, body: { ...plain, status: 'cancelled' } });
      expect(answer(await post(learner.token, '/quizzes/sessions/cancel', { sessionid: session.sessionid }))).toEqual({
        status: 409,
        body: { ...plain, status: 'cancelled' },
      });
    });

    it('bulkCancel: 401, 403 below Moderator, 422; cancels in_progress sessions and skips the rest', async () => {
      expect((await post(undefined, '/quizzes/sessions/bulkCancel', { sessionids: [1] })).statusCode).toBe(401);
      expect((await post(author.token, '/quizzes/sessions/bulkCancel', { sessionids: [1] })).statusCode).toBe(403);
      for (const sessionids of [[], Array.from({ length: 501 }, (_, i) => i + 1), [0]]) {
        expect((await post(moderator.token, '/quizzes/sessions/bulkCancel', { sessionids })).statusCode).toBe(422);
      }
      const open = await attempt(learner);
      const done = await attempt(other);
      await post(other.token, '/quizzes/sessions/submit', { sessionid: done.sessionid });
      expect(
        answer(
          await post(moderator.token, '/quizzes/sessions/bulkCancel', {
            sessionids: [open.sessionid, done.sessionid, 999999],
          }),
        ),
      ).toEqual({
        status: 200,
        body: { cancelled: [open.sessionid], skipped: [done.sessionid, 999999] },
      });
      expect(await auditActions(t, 'quiz_session', open.sessionid)).toEqual([
        'quiz_session.attempt',
        'quiz_session.cancel',
      ]);
    });
  });

  describe('GET /quizzes/sessions (Q22) and PATCH /quizzes/sessions/userInvalidateAll/{userid} (Q23)', () => {
    it('list: 401, 403 for another user’s below Moderator, 422; own sessions filtered and ordered', async () => {
      expect((await get(undefined, '/quizzes/sessions')).statusCode).toBe(401);
      expect((await get(learner.token, `/quizzes/sessions?userid=${other.user.userid}`)).statusCode).toBe(403);
      expect((await get(learner.token, '/quizzes/sessions?status=open')).statusCode).toBe(422);
      const mine = (await get(learner.token, '/quizzes/sessions?limit=200')).json<SessionDto[]>();
      expect(mine.length).toBeGreaterThan(3);
      expect(mine.every((s) => s.userid === learner.user.userid)).toBe(true);
      expect(mine.map((s) => s.sessionid)).toEqual([...mine.map((s) => s.sessionid)].sort((a, b) => a - b));
      expect(JSON.stringify(mine)).not.toContain('correctAnswer');
      const submitted = (
        await get(learner.token, `/quizzes/sessions?status=submitted&quizid=${quiz.quizid}&order=DESC`)
      ).json<SessionDto[]>();
      expect(submitted.length).toBeGreaterThan(0);
      expect(submitted.every((s) => s.status === 'submitted' && s.quizid === quiz.quizid)).toBe(true);
      const asModerator = (
        await get(moderator.token, `/quizzes/sessions?userid=${learner.user.userid}&limit=200`)
      ).json();
      expect(asModerator).toEqual(mine);
    });

    it('invalidate: 401, 403 below Moderator, 404 user gone, 422 reason too long', async () => {
      expect((await patch(undefined, `/quizzes/sessions/userInvalidateAll/${learner.user.userid}`)).statusCode).toBe(
        401,
      );
      expect((await patch(author.token, `/quizzes/sessions/userInvalidateAll/${learner.user.userid}`)).statusCode).toBe(
        403,
      );
      expect(answer(await patch(moderator.token, '/quizzes/sessions/userInvalidateAll/999999'))).toEqual({
        status: 404,
        body: { error: true, message: 'User not found' },
      });
      expect(
        (
          await patch(moderator.token, `/quizzes/sessions/userInvalidateAll/${learner.user.userid}`, {
            reason: 'x'.repeat(2001),
          })
        ).statusCode,
      ).toBe(422);
    });

    it('invalidate: every in_progress and submitted session of the user, with who, when and why, audited', async () => {
      const open = await attempt(learner);
      const before = (await get(learner.token, '/quizzes/sessions?limit=200')).json<SessionDto[]>();
      const targets = before.filter((s) => s.status === 'in_progress' || s.status === 'submitted');
      const res = await patch(moderator.token, `/quizzes/sessions/userInvalidateAll/${learner.user.userid}`, {
        reason: 'Cheating',
      });
      expect(answer(res)).toEqual({ status: 200, body: { invalidated: targets.length } });
      const after = (await get(learner.token, '/quizzes/sessions?limit=200')).json<SessionDto[]>();
      expect(after.filter((s) => s.status === 'invalidated').map((s) => s.sessionid)).toEqual(
        targets.map((s) => s.sessionid),
      );
      expect(after.filter((s) => s.status === 'cancelled')).toEqual(before.filter((s) => s.status === 'cancelled'));
      expect(await auditActions(t, 'quiz_session', open.sessionid)).toEqual([
        'quiz_session.attempt',
        'quiz_session.invalidate',
      ]);
      expect(
        answer(await post(learner.token, '/quizzes/sessions/submit', { sessionid: open.sessionid })),
      ).toMatchObject({ status: 409 });
      // The invalidated open session no longer blocks a new attempt.
      expect((await post(learner.token, '/quizzes/attempt', { quizid: quiz.quizid })).statusCode).toBe(201);
      expect(answer(await patch(moderator.token, `/quizzes/sessions/userInvalidateAll/${other.user.userid}`))).toEqual({
        status: 200,
        body: { invalidated: 1 },
      });
    });
  });

  it('no response to a User carries a correct answer', async () => {
    const fresh = await createUser(t);
    const bodies: string[] = [];
    const record = async (p: Promise<{ body: string; statusCode: number }>) => bodies.push((await p).body);
    const session = await attempt(fresh, { quizid: quiz.quizid, guideid: guide.guideid });
    bodies.push(JSON.stringify(session));
    await record(post(fresh.token, '/quizzes/attempt', { quizid: quiz.quizid, guideid: guide.guideid }));
    await record(
      post(fresh.token, '/quizzes/sessions/save', { sessionid: session.sessionid, answers: { q_safe: 'no' } }),
    );
    await record(post(fresh.token, '/quizzes/sessions/submit', { sessionid: session.sessionid }));
    await record(get(fresh.token, `/quizzes/submissions/${session.sessionid}`));
    await record(get(fresh.token, '/quizzes/sessions'));
    await record(get(fresh.token, `/quizzes/associations/${guide.guideid}`));
    await record(get(fresh.token, `/quizzes/${quiz.quizid}`));
    await record(get(fresh.token, `/quizzes/${quiz.quizid}?format=survey`));
    await record(get(fresh.token, `/quizzes/revisions/${quiz.quiz_revisionid}`));
    await record(post(fresh.token, '/quizzes/getQuizzes', {}));
    expect(bodies).toHaveLength(11);
    for (const body of bodies) {
      expect(body).not.toContain('correctAnswer');
      expect(body).not.toContain('"q_tools":["a","b"]');
    }
  });
});
