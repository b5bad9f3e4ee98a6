import { CoursesService } from '../../src/modules/courses/courses.service';
import type { QuizDetailDto } from '../../src/modules/quizzes/dto/quiz-response.dto';
import { QuizzesService } from '../../src/modules/quizzes/quizzes.service';
import { ReleasesService } from '../../src/modules/releases/releases.service';
import type { UserEntity } from '../../src/modules/users/entities/user.entity';
import type { TestApp } from '../utils/test-app';
import { asCaller } from './wiki.factory';

/** A survey with a checkbox, a radio group and a text question (correct answers: [a, b], 'yes', '4'). */
export const THREE_QUESTIONS = {
  title: 'Three questions',
  pages: [
    {
      name: 'p1',
      elements: [
        { type: 'html', name: 'intro', html: '<p>Read the guide first.</p>' },
        {
          type: 'panel',
          name: 'tools',
          elements: [
            { type: 'checkbox', name: 'q_tools', title: 'Tools?', choices: ['a', 'b', 'c'], correctAnswer: ['a', 'b'] },
          ],
        },
        { type: 'radiogroup', name: 'q_safe', title: 'Safe?', choices: ['yes', 'no'], correctAnswer: 'yes' },
      ],
    },
    { name: 'p2', elements: [{ type: 'text', name: 'q_count', title: 'How many?', correctAnswer: '4' }] },
  ],
};

/** Creates a quiz through the service (the same path as POST /quizzes/import). */
export function createQuiz(
  t: TestApp,
  author: UserEntity,
  fields: { title?: string; guideid?: number; category?: string; default_passing_score?: number; survey?: object } = {},
): Promise<QuizDetailDto> {
  const { survey, ...rest } = fields;
  return t.app
    .get(QuizzesService)
    .import(
      { title: 'A quiz', ...rest, survey: (survey ?? THREE_QUESTIONS) as Record<string, unknown> },
      asCaller(author),
    );
}

/** A course stage (written only by seeds and factories, docs/enterprise/quizzes.md). */
export function createCourseStage(
  t: TestApp,
  fields: { courseWikiid: number; quizid?: number | null; passingScore?: number | null; orderby?: number },
) {
  return t.app.get(CoursesService).createStage({
    courseWikiid: fields.courseWikiid,
    orderby: fields.orderby ?? 1,
    doctype: null,
    docid: null,
    quizid: fields.quizid ?? null,
    passingScore: fields.passingScore ?? null,
    moduleid: null,
  });
}

/** Releases the guide (no approval process applies in tests): the release in force afterwards. */
export async function releaseGuide(t: TestApp, admin: UserEntity, guideid: number): Promise<number> {
  const releases = t.app.get(ReleasesService);
  const created = await releases.create('GUIDE', guideid, { type: 'major', notes: '' }, asCaller(admin));
  if (created.status === 'pending') await releases.markReleased(created.releaseid);
  return created.releaseid;
}
