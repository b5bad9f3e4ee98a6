import { Injectable } from '@nestjs/common';
import { DemoSeed } from '../../database/seed/demo-seed.decorator';
import { parsePrivileges } from '../../common/auth/privileges';
import { DemoSeedRegistry } from '../../database/seed/demo-seed.registry';
import { DocumentRegistry } from '../../platform/documents/document-registry';
import { CoursesService } from '../courses/courses.service';
import { UsersService } from '../users/users.service';
import { QuizSessionsService } from './quiz-sessions.service';
import { QuizzesService } from './quizzes.service';

/** The demo guide the demo quiz trains on. */
export const DEMO_QUIZ_GUIDE = 'iPhone 6 Display Removal';
export const DEMO_QUIZ_TITLE = 'iPhone 6 display removal: check your knowledge';
export const DEMO_QUIZ_PASSING_SCORE = 75;
/** The demo course: a wiki page whose first stage trains on the guide and needs 90% in the quiz. */
export const DEMO_COURSE_PAGE = 'Getting Started';
export const DEMO_STAGE_PASSING_SCORE = 90;

/** A survey-builder document with a single choice, a multiple choice, a yes/no and a text question. */
export const DEMO_QUIZ_SURVEY = {
  title: DEMO_QUIZ_TITLE,
  pages: [
    {
      name: 'safety',
      elements: [
        { type: 'html', name: 'intro', html: '<p>Four questions about the guide. You pass with 75%.</p>' },
        {
          type: 'radiogroup',
          name: 'first_step',
          title: 'What do you do before opening the phone?',
          choices: ['Power it off', 'Heat the screen to 200 °C', 'Remove the SIM tray'],
          correctAnswer: 'Power it off',
        },
        {
          type: 'checkbox',
          name: 'tools',
          title: 'Which tools does the guide use?',
          choices: ['Spudger', 'Suction handle', 'Hammer', 'Pentalobe P2 Screwdriver'],
          correctAnswer: ['Spudger', 'Suction handle', 'Pentalobe P2 Screwdriver'],
        },
      ],
    },
    {
      name: 'procedure',
      elements: [
        {
          type: 'boolean',
          name: 'battery_first',
          title: 'Disconnect the battery before the display cables?',
          correctAnswer: true,
        },
        { type: 'text', name: 'screw_count', title: 'How many pentalobe screws hold the display?', correctAnswer: '2' },
      ],
    },
  ],
};

/**
 * A quiz on a demo guide with a passing score, so that a newcomer can attempt it (as the demo User), and
 * an attempt of the demo Author left in progress (what Moderators see in session lists), and a course
 * stage that uses the quiz with a stricter passing score.
 */
@Injectable()
export class QuizzesDemoSeed {
  constructor(
    private readonly quizzes: QuizzesService,
    private readonly documents: DocumentRegistry,
    private readonly users: UsersService,
    private readonly sessions: QuizSessionsService,
    private readonly seeds: DemoSeedRegistry,
    private readonly courses: CoursesService,
  ) {}

  @DemoSeed({ name: 'quizzes', order: 70 })
  async run(): Promise<void> {
    const admin = await this.users.firstAdmin();
    if (!admin) return;
    const guides = this.documents.of('GUIDE');
    const found = await guides.find(await guides.searchTitles(DEMO_QUIZ_GUIDE, 5));
    const guide = [...found.values()].find((doc) => doc.title === DEMO_QUIZ_GUIDE);
    if (!guide) return;
    const quiz = await this.quizzes.import(
      {
        survey: DEMO_QUIZ_SURVEY,
        category: 'Phone repair',
        guideid: guide.docid,
        default_passing_score: DEMO_QUIZ_PASSING_SCORE,
      },
      admin,
    );
    const wikis = this.documents.of('WIKI');
    const pages = await wikis.find(await wikis.searchTitles(DEMO_COURSE_PAGE, 5));
    const course = [...pages.values()].find((doc) => doc.title === DEMO_COURSE_PAGE);
    if (course) {
      await this.courses.createStage({
        courseWikiid: course.docid,
        orderby: 1,
        doctype: 'GUIDE',
        docid: guide.docid,
        quizid: quiz.quizid,
        passingScore: DEMO_STAGE_PASSING_SCORE,
        moduleid: null,
      });
    }
    const authorid = this.seeds.get<number[]>('demo.userids')?.[2];
    if (!authorid) return;
    const author = await this.users.findEntity(authorid);
    await this.sessions.attempt(
      { quizid: quiz.quizid, guideid: guide.docid },
      { userid: author.userid, username: author.username, privileges: parsePrivileges(author.privileges), tokenid: 0 },
    );
  }
}
