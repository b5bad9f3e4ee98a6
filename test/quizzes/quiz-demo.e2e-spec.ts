import { AuthTokenService } from '../../src/modules/auth/auth-token.service';
import type { AttemptSessionDto, QuizListItemDto } from '../../src/modules/quizzes/dto/quiz-response.dto';
import { UserEntity } from '../../src/modules/users/entities/user.entity';
import { createTestApp, type TestApp } from '../utils/test-app';
import { API } from './quiz-test-kit';

describe('quizzes demo content', () => {
  let t: TestApp;
  // Seeding the whole demo site takes a while on MariaDB when the machine is busy.
  beforeAll(async () => {
    t = await createTestApp({ env: { SEED_DEMO: 'true' } });
  }, 120_000);
  afterAll(() => t.close());

  const tokenOf = async (email: string) => {
    const user = await t.dataSource.getRepository(UserEntity).findOneByOrFail({ email });
    return { user, token: await t.app.get(AuthTokenService).issue(user.userid) };
  };

  it('a quiz on a demo guide with a passing score, which the demo User can attempt and pass', async () => {
    const author = await tokenOf('author@demo.example');
    const list = await t.as(author.token, { method: 'GET', url: `${API}/quizzes` });
    expect(list.statusCode).toBe(200);
    const [item, ...rest] = list.json<QuizListItemDto[]>();
    expect(rest).toEqual([]);
    expect(item).toMatchObject({
      quiz_title: 'iPhone 6 display removal: check your knowledge',
      guide_title: 'iPhone 6 Display Removal',
      category: 'Phone repair',
      quizzes_submitted: 0,
    });
    const detail = (await t.as(author.token, { method: 'GET', url: `${API}/quizzes/${item.quizid}` })).json();
    expect(detail).toMatchObject({ default_passing_score: 75, status: 'active', guideid: item.guideid, version: 1 });

    const stages = await t.as(author.token, { method: 'GET', url: `${API}/quizzes/courseAssignments/${item.quizid}` });
    expect(stages.json()).toEqual([
      {
        course_wikiid: expect.any(Number),
        course_title: 'Getting Started',
        course_stageid: expect.any(Number),
        passing_score: 90,
      },
    ]);
    const stageid = stages.json<{ course_stageid: number }[]>()[0].course_stageid;
    const score = await t.as(author.token, {
      method: 'GET',
      url: `${API}/quizzes/passingScore/${stageid}/${item.quizid}`,
    });
    expect(score.json()).toEqual({ passing_score: 90, source: 'course_stage' });

    const user = await tokenOf('user@demo.example');
    const associations = await t.as(user.token, { method: 'GET', url: `${API}/quizzes/associations/${item.guideid}` });
    expect(associations.json()).toEqual([
      { quizid: item.quizid, quiz_title: item.quiz_title, doctype: 'GUIDE', docid: item.guideid },
    ]);
    const attempt = await t.as(user.token, {
      method: 'POST',
      url: `${API}/quizzes/attempt`,
      payload: { quizid: item.quizid, guideid: item.guideid },
    });
    expect(attempt.statusCode).toBe(201);
    const session = attempt.json<AttemptSessionDto>();
    expect(attempt.body).not.toContain('correctAnswer');
    expect(session.passing_score).toBe(75);
    const submit = await t.as(user.token, {
      method: 'POST',
      url: `${API}/quizzes/sessions/submit`,
      payload: {
        sessionid: session.sessionid,
        answers: {
          first_step: 'Power it off',
          tools: ['Pentalobe P2 Screwdriver', 'Spudger', 'Suction handle'],
          battery_first: true,
          screw_count: '3',
        },
      },
    });
    expect(submit.json()).toMatchObject({ score: 75, passed: true, passing_score: 75 });
  });
});
