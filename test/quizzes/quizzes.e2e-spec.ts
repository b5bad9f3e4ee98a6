import type { GuideDetailDto } from '../../src/modules/guides/dto/guide-response.dto';
import type { QuizDetailDto, QuizListItemDto } from '../../src/modules/quizzes/dto/quiz-response.dto';
import { FakeClock } from '../../src/platform/clock/clock';
import { createGuide } from '../factories/guide.factory';
import { createQuiz, releaseGuide, THREE_QUESTIONS } from '../factories/quiz.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';
import { answer, auditActions, requests, START, START_S } from './quiz-test-kit';

describe('Quizzes: definitions (Q1-Q8, Q24: docs/enterprise/quizzes.md)', () => {
  let t: TestApp;
  const clock = new FakeClock(START);
  const { get, post } = requests(() => t);
  let admin: CreatedUser;
  let moderator: CreatedUser;
  let author: CreatedUser;
  let otherAuthor: CreatedUser;
  let user: CreatedUser;
  let guide: GuideDetailDto;
  let privateGuide: GuideDetailDto;

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
    admin = await createUser(t, { privilege: 'Admin' });
    moderator = await createUser(t, { privilege: 'Moderator' });
    author = await createUser(t, { privilege: 'Author' });
    otherAuthor = await createUser(t, { privilege: 'Author' });
    user = await createUser(t);
    await createCategory(t, admin.user, 'Phones');
    guide = await createGuide(t, author.user, { category: 'Phones', title: 'Phone Battery Replacement', public: true });
    privateGuide = await createGuide(t, author.user, { category: 'Phones', title: 'Secret Repair', public: false });
  });
  afterAll(() => t.close());

  const expectedQuiz = (over: Partial<QuizDetailDto>) => ({
    title: 'A quiz',
    category: '',
    status: 'active',
    guideid: null,
    default_passing_score: 80,
    version: 1,
    released_date: START_S,
    created_by: author.user.userid,
    created_date: START_S,
    modified_date: START_S,
    ...over,
  });

  describe('POST /quizzes (Q4)', () => {
    it('401, 403 for a User, 422 for a bad shape or survey, 404 for a guide gone, 403 for a non-editor', async () => {
      expect(answer(await post(undefined, '/quizzes', { title: 'x' }))).toEqual({
        status: 401,
        body: { error: true, message: 'Authentication required' },
      });
      expect(answer(await post(user.token, '/quizzes', { title: 'x' }))).toEqual({
        status: 403,
        body: { error: true, message: 'Insufficient privileges', requiredPrivileges: ['Admin', 'Moderator', 'Author'] },
      });
      for (const [payload, field] of [
        [{}, 'title'],
        [{ title: '   ' }, 'title'],
        [{ title: 'x'.repeat(256) }, 'title'],
        [{ title: 'x', default_passing_score: 101 }, 'default_passing_score'],
        [{ title: 'x', guideid: 0 }, 'guideid'],
        [{ title: 'x', enabled: 'yes' }, 'enabled'],
        [{ title: 'x', survey: [] }, 'survey'],
      ] as const) {
        const res = await post(author.token, '/quizzes', payload);
        expect({ field, status: res.statusCode }).toEqual({ field, status: 422 });
        expect(res.json().errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      }
      const survey = {
        pages: [
          {
            elements: [
              { type: 'text', name: 'no_answer' },
              { type: 'text', name: 'twice', correctAnswer: 1 },
              { type: 'panel', name: 'p', elements: [{ type: 'text', name: 'twice', correctAnswer: 2 }] },
            ],
          },
        ],
      };
      expect(answer(await post(author.token, '/quizzes', { title: 'x', survey }))).toEqual({
        status: 422,
        body: {
          error: true,
          message: 'Question no_answer needs a correctAnswer',
          errors: [
            { message: 'Question no_answer needs a correctAnswer', field: 'survey.no_answer' },
            { message: 'Question name twice is used twice', field: 'survey.twice' },
          ],
        },
      });
      const tooMany = { pages: Array.from({ length: 101 }, () => ({ elements: [] })) };
      expect((await post(author.token, '/quizzes', { title: 'x', survey: tooMany })).json().errors).toEqual([
        { message: 'survey.pages must be an array of 0 to 100 pages', field: 'survey.pages' },
      ]);
      expect(answer(await post(author.token, '/quizzes', { title: 'x', guideid: 999999 }))).toEqual({
        status: 404,
        body: { error: true, message: 'Guide not found' },
      });
      expect(
        (await post(otherAuthor.token, '/quizzes', { title: 'x', guideid: privateGuide.guideid })).statusCode,
      ).toBe(404);
      expect(answer(await post(otherAuthor.token, '/quizzes', { title: 'x', guideid: guide.guideid }))).toEqual({
        status: 403,
        body: { error: true, message: 'Only editors of this guide may do this' },
      });
    });

    it('201: revision 1 with an empty survey by default; a guide makes the primary guide, the category and an association', async () => {
      const plain = await post(author.token, '/quizzes', { title: '  A quiz ' });
      expect(plain.statusCode).toBe(201);
      expect(plain.json()).toEqual({
        ...expectedQuiz({}),
        quizid: expect.any(Number),
        quiz_revisionid: expect.any(Number),
        survey: { pages: [] },
      });
      const onGuide = await post(author.token, '/quizzes', {
        title: 'Battery',
        guideid: guide.guideid,
        default_passing_score: 60,
        enabled: false,
        survey: THREE_QUESTIONS,
      });
      expect(onGuide.statusCode).toBe(201);
      const quiz = onGuide.json<QuizDetailDto>();
      expect(quiz).toEqual({
        ...expectedQuiz({ title: 'Battery', category: 'Phones', status: 'disabled', guideid: guide.guideid }),
        default_passing_score: 60,
        quizid: quiz.quizid,
        quiz_revisionid: quiz.quiz_revisionid,
        survey: THREE_QUESTIONS,
      });
      expect((await get(author.token, `/quizzes/associations/${guide.guideid}`)).json()).toEqual(
        expect.arrayContaining([
          { quizid: quiz.quizid, quiz_title: 'Battery', doctype: 'GUIDE', docid: guide.guideid },
        ]),
      );
      expect(await auditActions(t, 'quiz', quiz.quizid)).toEqual(['quiz.create']);
    });
  });

  describe('POST /quizzes/import (Q5)', () => {
    it('401, 403, 422 (no page, no title, survey rules), 404 guide gone', async () => {
      expect((await post(undefined, '/quizzes/import', { survey: THREE_QUESTIONS })).statusCode).toBe(401);
      expect((await post(user.token, '/quizzes/import', { survey: THREE_QUESTIONS })).statusCode).toBe(403);
      expect(answer(await post(author.token, '/quizzes/import', {}))).toEqual({
        status: 422,
        body: {
          error: true,
          message: 'survey is required',
          errors: [{ message: 'survey is required', field: 'survey' }],
        },
      });
      expect(
        (await post(author.token, '/quizzes/import', { survey: { title: 'x', pages: [] } })).json().errors,
      ).toEqual([{ message: 'survey.pages must be an array of 1 to 100 pages', field: 'survey.pages' }]);
      expect(answer(await post(author.token, '/quizzes/import', { survey: { pages: [{ elements: [] }] } }))).toEqual({
        status: 422,
        body: {
          error: true,
          message: 'title is required when the survey has none',
          errors: [{ message: 'title is required when the survey has none', field: 'title' }],
        },
      });
      const unnamed = { title: 'x', pages: [{ elements: [{ type: 'text', correctAnswer: 'a' }] }] };
      expect((await post(author.token, '/quizzes/import', { survey: unnamed })).json().errors).toEqual([
        { message: 'A question needs a name of 1 to 100 characters', field: 'survey.pages.0.elements.0' },
      ]);
      // A name that is too long is the question's name all the same: the error is at survey.<name>.
      const long = 'q'.repeat(101);
      const longName = {
        title: 'x',
        pages: [
          { elements: [{ type: 'text', name: 'ok', correctAnswer: 'a' }] },
          {
            elements: [
              { type: 'text', name: 'ok2', correctAnswer: 'a' },
              { type: 'text', name: long, correctAnswer: 'a' },
            ],
          },
        ],
      };
      for (const url of ['/quizzes/import', '/quizzes']) {
        expect(answer(await post(author.token, url, { title: 'x', survey: longName }))).toEqual({
          status: 422,
          body: {
            error: true,
            message: 'A question needs a name of 1 to 100 characters',
            errors: [{ message: 'A question needs a name of 1 to 100 characters', field: `survey.${long}` }],
          },
        });
      }
      const many = {
        title: 'x',
        pages: [
          { elements: Array.from({ length: 501 }, (_, i) => ({ type: 'text', name: `q${i}`, correctAnswer: 'a' })) },
        ],
      };
      expect((await post(author.token, '/quizzes/import', { survey: many })).json().errors).toEqual([
        { message: 'A survey has at most 500 questions', field: 'survey.pages' },
      ]);
      expect(
        (await post(author.token, '/quizzes/import', { survey: THREE_QUESTIONS, guideid: 999999 })).statusCode,
      ).toBe(404);
    });

    it('201: the title defaults to survey.title and the questions are read from the survey', async () => {
      const res = await post(author.token, '/quizzes/import', { survey: THREE_QUESTIONS, category: 'Safety' });
      expect(res.statusCode).toBe(201);
      const quiz = res.json<QuizDetailDto>();
      expect(quiz).toEqual({
        ...expectedQuiz({ title: 'Three questions', category: 'Safety' }),
        quizid: quiz.quizid,
        quiz_revisionid: quiz.quiz_revisionid,
        survey: THREE_QUESTIONS,
      });
      const same = await post(author.token, '/quizzes/questions', {
        quizid: quiz.quizid,
        questions: [{ external_question_uid: 'q_safe', title: 'Safe?' }],
      });
      expect(same.json()).toEqual({
        created: 0,
        updated: 0,
        quiz_revisionid: quiz.quiz_revisionid,
        questions: [
          {
            questionid: expect.any(Number),
            quizid: quiz.quizid,
            external_question_uid: 'q_tools',
            title: 'Tools?',
            type: 'checkbox',
            orderby: 0,
          },
          {
            questionid: expect.any(Number),
            quizid: quiz.quizid,
            external_question_uid: 'q_safe',
            title: 'Safe?',
            type: 'radiogroup',
            orderby: 1,
          },
          {
            questionid: expect.any(Number),
            quizid: quiz.quizid,
            external_question_uid: 'q_count',
            title: 'How many?',
            type: 'text',
            orderby: 2,
          },
        ],
      });
    });
  });

  describe('GET /quizzes/{quizid} (Q6/Q7) and GET /quizzes/revisions/{quizRevisionid} (docs/enterprise/quizzes.md)', () => {
    it('401, 403 for a User, 404 for an unknown, deleted or non-numeric id and for another quiz’s revision, 422 format', async () => {
      const quiz = await createQuiz(t, author.user);
      const other = await createQuiz(t, author.user);
      expect((await get(undefined, `/quizzes/${quiz.quizid}`)).statusCode).toBe(401);
      expect((await get(user.token, `/quizzes/${quiz.quizid}`)).statusCode).toBe(403);
      expect((await get(user.token, `/quizzes/revisions/${quiz.quiz_revisionid}`)).statusCode).toBe(403);
      for (const url of ['/quizzes/999999', '/quizzes/0', '/quizzes/2147483648', '/quizzes/revisions/999999']) {
        expect({ url, status: (await get(author.token, url)).statusCode }).toEqual({ url, status: 404 });
      }
      expect(answer(await get(author.token, `/quizzes/${quiz.quizid}?revisionid=${other.quiz_revisionid}`))).toEqual({
        status: 404,
        body: { error: true, message: 'Quiz revision not found' },
      });
      expect((await get(author.token, `/quizzes/${quiz.quizid}?format=xml`)).statusCode).toBe(422);
      await post(author.token, '/quizzes/delete', { quizids: [other.quizid] });
      expect(answer(await get(author.token, `/quizzes/${other.quizid}`))).toEqual({
        status: 404,
        body: { error: true, message: 'Quiz not found' },
      });
      expect((await get(author.token, `/quizzes/revisions/${other.quiz_revisionid}`)).statusCode).toBe(404);
    });

    it('a number that is both a quizid and another quiz’s revision id reads the quiz', async () => {
      // Make revision ids run ahead of quiz ids: each question upsert adds a revision.
      let ahead = await createQuiz(t, author.user, { title: 'Revised often' });
      for (let i = 0; i < 12; i++) {
        const res = await post(author.token, '/quizzes/questions', {
          quizid: ahead.quizid,
          questions: [{ external_question_uid: 'q_safe', title: `Safe ${i}?` }],
        });
        expect(res.statusCode).toBe(200);
      }
      ahead = (await get(author.token, `/quizzes/${ahead.quizid}`)).json();
      let target: QuizDetailDto | undefined;
      while (!target || target.quizid < ahead.quiz_revisionid)
        target = await createQuiz(t, author.user, { title: 'Target' });
      // Now ahead.quiz_revisionid is a quizid too (possibly target itself or one created before it).
      const both = ahead.quiz_revisionid;
      const res = await get(author.token, `/quizzes/${both}`);
      expect(res.statusCode).toBe(200);
      expect(res.json<QuizDetailDto>().quizid).toBe(both);
      expect(res.json<QuizDetailDto>().title).not.toBe('Revised often');
      // The revision is reached explicitly.
      const survey = (await get(author.token, `/quizzes/revisions/${both}`)).json();
      expect(survey.pages[0].elements[2].title).toBe('Safe 11?');
      const viaQuery = (await get(author.token, `/quizzes/${ahead.quizid}?revisionid=${both}&format=survey`)).json();
      expect(viaQuery).toEqual(survey);
    });

    it('200: the current revision, another one with ?revisionid=, the bare survey with ?format=survey', async () => {
      const quiz = await createQuiz(t, author.user);
      await post(author.token, '/quizzes/questions', {
        quizid: quiz.quizid,
        questions: [{ external_question_uid: 'q_count', title: 'Count them' }],
      });
      const current = (await get(author.token, `/quizzes/${quiz.quizid}`)).json<QuizDetailDto>();
      expect(current).toMatchObject({ quizid: quiz.quizid, version: 2 });
      expect(current.quiz_revisionid).not.toBe(quiz.quiz_revisionid);
      const first = await get(author.token, `/quizzes/${quiz.quizid}?revisionid=${quiz.quiz_revisionid}`);
      expect(first.json()).toEqual({ ...quiz, modified_date: START_S });
      expect((await get(author.token, `/quizzes/${quiz.quizid}?format=survey`)).json()).toEqual(current.survey);
      expect((await get(author.token, `/quizzes/revisions/${quiz.quiz_revisionid}`)).json()).toEqual(THREE_QUESTIONS);
    });
  });

  describe('POST /quizzes/questions (Q24)', () => {
    it('401, 403, 404 quiz gone, 422 shape, new uid without type or correctAnswer, repeated uid', async () => {
      const quiz = await createQuiz(t, author.user);
      const one = [{ external_question_uid: 'q_safe', title: 'x' }];
      expect((await post(undefined, '/quizzes/questions', { quizid: quiz.quizid, questions: one })).statusCode).toBe(
        401,
      );
      expect((await post(user.token, '/quizzes/questions', { quizid: quiz.quizid, questions: one })).statusCode).toBe(
        403,
      );
      expect((await post(author.token, '/quizzes/questions', { quizid: 999999, questions: one })).statusCode).toBe(404);
      expect((await post(author.token, '/quizzes/questions', { quizid: quiz.quizid, questions: [] })).statusCode).toBe(
        422,
      );
      const bad = await post(author.token, '/quizzes/questions', {
        quizid: quiz.quizid,
        questions: [
          { external_question_uid: 'new1', title: 'No type', correctAnswer: 'a' },
          { external_question_uid: 'new2', title: 'No answer', type: 'text' },
          { external_question_uid: 'q_safe', title: 'Once' },
          { external_question_uid: 'q_safe', title: 'Twice' },
          { external_question_uid: 'note', title: 'Note', type: 'html', correctAnswer: 'x' },
        ],
      });
      expect(answer(bad)).toEqual({
        status: 422,
        body: {
          error: true,
          message: 'A new question needs a type',
          errors: [
            { message: 'A new question needs a type', field: 'questions.type', index: 0 },
            { message: 'A new question needs a correctAnswer', field: 'questions.correctAnswer', index: 1 },
            { message: 'q_safe is repeated', field: 'questions.external_question_uid', index: 3 },
            { message: 'html is not a question type', field: 'questions.type', index: 4 },
          ],
        },
      });
      expect((await get(author.token, `/quizzes/${quiz.quizid}`)).json().version).toBe(1);
    });

    it('200: an existing uid changes only its title, a new one is appended to the last page; a new revision', async () => {
      const quiz = await createQuiz(t, author.user);
      clock.advance(60_000);
      const res = await post(author.token, '/quizzes/questions', {
        quizid: quiz.quizid,
        questions: [
          { external_question_uid: 'q_tools', title: 'Which tools?', type: 'text', correctAnswer: 'ignored' },
          { external_question_uid: 'q_new', title: 'Heat first?', type: 'boolean', correctAnswer: true },
        ],
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toEqual({
        created: 1,
        updated: 1,
        quiz_revisionid: expect.any(Number),
        questions: [
          expect.objectContaining({
            external_question_uid: 'q_tools',
            title: 'Which tools?',
            type: 'checkbox',
            orderby: 0,
          }),
          expect.objectContaining({ external_question_uid: 'q_safe', orderby: 1 }),
          expect.objectContaining({ external_question_uid: 'q_count', orderby: 2 }),
          expect.objectContaining({
            external_question_uid: 'q_new',
            title: 'Heat first?',
            type: 'boolean',
            orderby: 3,
          }),
        ],
      });
      const current = (await get(author.token, `/quizzes/${quiz.quizid}`)).json<QuizDetailDto>();
      expect(current).toMatchObject({ version: 2, quiz_revisionid: body.quiz_revisionid, released_date: START_S + 60 });
      const pages = current.survey.pages as { elements: Record<string, unknown>[] }[];
      expect(pages[0].elements[1]).toEqual({
        type: 'panel',
        name: 'tools',
        elements: [
          {
            type: 'checkbox',
            name: 'q_tools',
            title: 'Which tools?',
            choices: ['a', 'b', 'c'],
            correctAnswer: ['a', 'b'],
          },
        ],
      });
      expect(pages[1].elements).toEqual([
        { type: 'text', name: 'q_count', title: 'How many?', correctAnswer: '4' },
        { type: 'boolean', name: 'q_new', title: 'Heat first?', correctAnswer: true },
      ]);
      // Revision 1 is immutable.
      expect((await get(author.token, `/quizzes/revisions/${quiz.quiz_revisionid}`)).json()).toEqual(THREE_QUESTIONS);
      expect(await auditActions(t, 'quiz', quiz.quizid)).toEqual(['quiz.create', 'quiz.revise']);
      clock.set(START);
    });
  });

  describe('POST /quizzes/delete (Q8)', () => {
    it('401, 403 for a User and for an Author deleting another’s quiz (nothing deleted), 422 shape', async () => {
      const mine = await createQuiz(t, author.user);
      const theirs = await createQuiz(t, otherAuthor.user);
      expect((await post(undefined, '/quizzes/delete', { quizids: [mine.quizid] })).statusCode).toBe(401);
      expect((await post(user.token, '/quizzes/delete', { quizids: [mine.quizid] })).statusCode).toBe(403);
      expect(answer(await post(author.token, '/quizzes/delete', { quizids: [mine.quizid, theirs.quizid] }))).toEqual({
        status: 403,
        body: {
          error: true,
          message: 'Only the creator or a Moderator may delete a quiz',
          requiredPrivileges: ['Admin', 'Moderator'],
        },
      });
      expect((await get(author.token, `/quizzes/${mine.quizid}`)).statusCode).toBe(200);
      for (const quizids of [[], Array.from({ length: 101 }, (_, i) => i + 1), ['x'], undefined]) {
        expect((await post(author.token, '/quizzes/delete', { quizids })).statusCode).toBe(422);
      }
    });

    it('200: soft delete, unknown and already deleted ids go to not_found, audited', async () => {
      const mine = await createQuiz(t, author.user);
      const theirs = await createQuiz(t, otherAuthor.user);
      expect(answer(await post(author.token, '/quizzes/delete', { quizids: [mine.quizid, 999999] }))).toEqual({
        status: 200,
        body: { deleted: [mine.quizid], not_found: [999999] },
      });
      expect(answer(await post(moderator.token, '/quizzes/delete', { quizids: [mine.quizid, theirs.quizid] }))).toEqual(
        {
          status: 200,
          body: { deleted: [theirs.quizid], not_found: [mine.quizid] },
        },
      );
      expect(await auditActions(t, 'quiz', mine.quizid)).toEqual(['quiz.create', 'quiz.delete']);
    });
  });

  describe('POST /quizzes/getQuizzes (Q3)', () => {
    it('401, 403, 422 for a bad sort or filter', async () => {
      expect((await post(undefined, '/quizzes/getQuizzes', {})).statusCode).toBe(401);
      expect((await post(user.token, '/quizzes/getQuizzes', {})).statusCode).toBe(403);
      for (const payload of [
        { sort: { property: 'nope' } },
        { filters: { status: 'deleted' } },
        { limit: 0 },
        { offset: -1 },
        { sort: { property: 'title', direction: 'up' } },
      ]) {
        expect({ payload, status: (await post(author.token, '/quizzes/getQuizzes', payload)).statusCode }).toEqual({
          payload,
          status: 422,
        });
      }
    });

    it('200: paginated, searchable, filterable and sortable; deleted quizzes never appear', async () => {
      const on = { guideid: guide.guideid, category: 'Solder' };
      const a = await createQuiz(t, author.user, { title: 'Zeta soldering', ...on });
      const b = await createQuiz(t, author.user, { title: 'Alpha soldering', ...on });
      const gone = await createQuiz(t, author.user, { title: 'Gone soldering', ...on });
      await createQuiz(t, author.user, { title: 'Guideless soldering', category: 'Solder' }); // as GET /quizzes: left out
      await post(author.token, '/quizzes/delete', { quizids: [gone.quizid] });
      const res = await post(author.token, '/quizzes/getQuizzes', {
        search: 'SOLDER',
        filters: { category: 'Solder', status: 'active' },
        sort: { property: 'title', direction: 'ASC' },
      });
      expect(res.statusCode).toBe(200);
      const { survey: _a, ...quizA } = a;
      const { survey: _b, ...quizB } = b;
      expect(res.json()).toEqual({ quizzes: [quizB, quizA], total: 2 });
      const paged = await post(author.token, '/quizzes/getQuizzes', {
        search: 'soldering',
        limit: 1,
        offset: 1,
        sort: { property: 'quizid', direction: 'desc' },
      });
      expect(paged.json()).toEqual({ quizzes: [quizA], total: 2 });
    });
  });

  describe('GET /quizzes (Q1, v2) and GET /quizzes/categories (Q2)', () => {
    let items: Record<string, QuizListItemDto>;

    beforeAll(async () => {
      await createCategory(t, admin.user, 'Laptops');
      const g1 = await createGuide(t, author.user, {
        category: 'Laptops',
        title: 'Keyboard Replacement',
        public: true,
      });
      const g2 = await createGuide(t, author.user, { category: 'Laptops', title: 'Alpha Hinge Repair', public: true });
      const hidden = await createGuide(t, author.user, { category: 'Laptops', title: 'Hidden Guide', public: false });
      await releaseGuide(t, admin.user, g1.guideid);
      clock.set(START + 1000_000);
      await createQuiz(t, author.user, { title: 'V2 keys', guideid: g1.guideid, category: 'Input' });
      clock.set(START + 2000_000);
      await createQuiz(t, author.user, { title: 'V2 hinge', guideid: g2.guideid, category: 'Mechanics' });
      clock.set(START + 3000_000);
      await createQuiz(t, author.user, { title: 'V2 hidden', guideid: hidden.guideid, category: 'Secret' });
      const gone = await createQuiz(t, author.user, { title: 'V2 gone', guideid: g2.guideid, category: 'Deleted cat' });
      await post(author.token, '/quizzes/delete', { quizids: [gone.quizid] });
      await createQuiz(t, author.user, { title: 'V2 no guide', category: 'Loose' });
      clock.set(START);
      const all = (await get(admin.token, '/quizzes?search=V2&limit=200')).json<QuizListItemDto[]>();
      items = Object.fromEntries(all.map((item) => [item.quiz_title, item]));
    });

    it('401, 403 for a User, 422 for a bad sort, order, limit or offset', async () => {
      expect((await get(undefined, '/quizzes')).statusCode).toBe(401);
      expect((await get(user.token, '/quizzes')).statusCode).toBe(403);
      expect((await get(user.token, '/quizzes/categories')).statusCode).toBe(403);
      for (const query of ['sort=title', 'order=up', 'limit=0', 'offset=-1', 'limit=x']) {
        expect({ query, status: (await get(author.token, `/quizzes?${query}`)).statusCode }).toEqual({
          query,
          status: 422,
        });
      }
    });

    it('whole items: guide title, release version, submitted count; deleted, guideless and unreadable quizzes are absent', async () => {
      expect(Object.keys(items).sort()).toEqual(['V2 hidden', 'V2 hinge', 'V2 keys']);
      expect(items['V2 keys']).toEqual({
        quizid: expect.any(Number),
        quiz_title: 'V2 keys',
        guideid: expect.any(Number),
        guide_title: 'Keyboard Replacement',
        guide_release_version: '1.0',
        quizzes_submitted: 0,
        category: 'Input',
        quiz_last_released: START_S + 1000,
      });
      expect(items['V2 hinge']).toMatchObject({ guide_title: 'Alpha Hinge Repair', guide_release_version: '' });
      const forOther = (await get(otherAuthor.token, '/quizzes?search=V2&limit=200')).json<QuizListItemDto[]>();
      expect(forOther.map((i) => i.quiz_title)).toEqual(['V2 hinge', 'V2 keys']);
    });

    it('every sort property, both directions, DESC by default; category filter and title search', async () => {
      const titles = async (query: string) =>
        (await get(admin.token, `/quizzes?search=V2&${query}`)).json<QuizListItemDto[]>().map((i) => i.quiz_title);
      expect(await titles('')).toEqual(['V2 hidden', 'V2 hinge', 'V2 keys']);
      expect(await titles('sort=release_date&order=asc')).toEqual(['V2 keys', 'V2 hinge', 'V2 hidden']);
      expect(await titles('sort=quiz_title&order=ASC')).toEqual(['V2 hidden', 'V2 hinge', 'V2 keys']);
      expect(await titles('sort=quiz_title')).toEqual(['V2 keys', 'V2 hinge', 'V2 hidden']);
      expect(await titles('sort=guide_title&order=ASC')).toEqual(['V2 hinge', 'V2 hidden', 'V2 keys']);
      expect(await titles('sort=guide_title&order=DESC')).toEqual(['V2 keys', 'V2 hidden', 'V2 hinge']);
      expect(await titles('sort=category&order=ASC')).toEqual(['V2 keys', 'V2 hinge', 'V2 hidden']);
      expect(await titles('sort=category')).toEqual(['V2 hidden', 'V2 hinge', 'V2 keys']);
      const byGuide = [items['V2 keys'], items['V2 hinge'], items['V2 hidden']].sort((x, y) => x.guideid - y.guideid);
      expect(await titles('sort=guideid&order=ASC')).toEqual(byGuide.map((i) => i.quiz_title));
      expect(await titles('sort=guideid&order=DESC')).toEqual(byGuide.map((i) => i.quiz_title).reverse());
      // sessions_submitted: ties fall back to quizid in the same direction.
      const byId = [items['V2 keys'], items['V2 hinge'], items['V2 hidden']].sort((x, y) => x.quizid - y.quizid);
      expect(await titles('sort=sessions_submitted&order=ASC')).toEqual(byId.map((i) => i.quiz_title));
      expect(await titles('sort=sessions_submitted')).toEqual(byId.map((i) => i.quiz_title).reverse());
      expect(await titles('category=Input')).toEqual(['V2 keys']);
      expect(await titles('category=inp')).toEqual([]);
      expect(
        (await get(admin.token, '/quizzes?search=hinge%20rep')).json<QuizListItemDto[]>().map((i) => i.quiz_title),
      ).toEqual(['V2 hinge']);
      expect(await titles('limit=1&offset=1')).toEqual(['V2 hinge']);
    });

    it('answers a page of 200 sorted by sessions_submitted in at most 3 SQL statements', async () => {
      await get(admin.token, '/quizzes'); // the token's last-used write happens once
      const res = await get(admin.token, '/quizzes?limit=200&sort=sessions_submitted');
      expect(res.statusCode).toBe(200);
      expect(res.json<QuizListItemDto[]>().length).toBeGreaterThan(3);
      expect(sqlCount(res)).toBeLessThanOrEqual(3);
    });

    it('categories: distinct, non-empty, by name, disabled and deleted quizzes’ included', async () => {
      const res = await get(author.token, '/quizzes/categories');
      expect(res.statusCode).toBe(200);
      const names = res.json<{ name: string }[]>().map((c) => c.name);
      expect(names).toEqual([...names].sort());
      expect(new Set(names).size).toBe(names.length);
      expect(names).toEqual(expect.arrayContaining(['Deleted cat', 'Input', 'Loose', 'Mechanics', 'Phones', 'Secret']));
      expect(names).not.toContain('');
      expect(res.json()[0]).toEqual({ name: names[0] });
    });
  });
});
