import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import {
  InsufficientPrivilegesException,
  notFound,
  RevisionConflictException,
  ValidationFailedException,
} from '../../common/http/api-errors';
import { MAX_LIMIT } from '../../common/validation/pagination.dto';
import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../platform/clock/clock';
import { DocumentRegistry } from '../../platform/documents/document-registry';
import { PolicyService } from '../access/policy.service';
import type { CreateQuizDto, GetQuizzesDto, ImportQuizDto, QuestionsBodyDto } from './dto/quiz-body.dto';
import type { QuizListQueryDto } from './dto/quiz-query.dto';
import type {
  CategoryDto,
  DeleteQuizzesResultDto,
  QuestionsResultDto,
  QuizDetailDto,
  QuizListItemDto,
  QuizPageDto,
} from './dto/quiz-response.dto';
import type { QuizRevisionEntity } from './entities/quiz-revision.entity';
import type { QuizEntity } from './entities/quiz.entity';
import { QuizAccess } from './quiz-access.service';
import { toQuestion, toQuiz, toQuizDetail } from './quiz.mapper';
import {
  questionChanges,
  reviseSurvey,
  surveyQuestions,
  validateSurvey,
  withoutCorrectAnswers,
  type SurveyJson,
} from './quiz-survey';
import { QuizzesRepository } from './quizzes.repository';

export const DEFAULT_PASSING_SCORE = 80;

/** The tables a quizzes list (Q1) is read from: its cached answers are kept until one of them changes. */
export const QUIZ_LIST_ANSWER_SOURCES = [
  'quizzes',
  'guides',
  'guide_user_grants',
  'guide_team_grants',
  'releases',
  'users',
  'team_members',
];

/** Quiz definitions (Q1-Q8, Q24: docs/enterprise/quizzes.md): create, import, read, list, delete, question upserts. */
@Injectable()
export class QuizzesService {
  constructor(
    private readonly quizzes: QuizzesRepository,
    private readonly documents: DocumentRegistry,
    private readonly policy: PolicyService,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly access: QuizAccess,
  ) {}

  /** A quiz that is not deleted, or 404. */
  async require(quizid: number): Promise<QuizEntity> {
    const quiz = await this.quizzes.findQuiz(quizid);
    if (!quiz) throw notFound('Quiz');
    return quiz;
  }

  /** The revision of this quiz (404 when it is another quiz's). */
  async revisionOf(quiz: QuizEntity, quizRevisionid: number): Promise<QuizRevisionEntity> {
    const revision = await this.quizzes.findRevision(quizRevisionid);
    if (!revision || revision.quizid !== quiz.quizid) throw notFound('Quiz revision');
    return revision;
  }

  /**
   * Q7: the quizid is always a quizid (docs/enterprise/quizzes.md); `revisionid` picks another revision of this quiz.
   * The correct answers are for the quiz's editors (QuizAccess).
   */
  async detail(quizid: number, caller: AuthenticatedUser, revisionid?: number): Promise<QuizDetailDto> {
    const quiz = await this.require(quizid);
    const editor = await this.access.requireReadable(caller, quiz);
    const detail = toQuizDetail(quiz, await this.revisionOf(quiz, revisionid ?? quiz.quizRevisionid));
    return editor ? detail : { ...detail, survey: withoutCorrectAnswers(detail.survey) as SurveyJson };
  }

  /** The bare survey of a revision (docs/enterprise/quizzes.md), for clients that hold only a revision id (as `detail` shows it). */
  async revisionSurvey(quizRevisionid: number, caller: AuthenticatedUser): Promise<SurveyJson> {
    const revision = await this.quizzes.findRevision(quizRevisionid);
    const quiz = revision && (await this.quizzes.findQuiz(revision.quizid));
    if (!revision || !quiz) throw notFound('Quiz revision');
    const editor = await this.access.requireReadable(caller, quiz, 'Quiz revision');
    return editor ? revision.survey : (withoutCorrectAnswers(revision.survey) as SurveyJson);
  }

  /** Q4 */
  create(body: CreateQuizDto, caller: AuthenticatedUser): Promise<QuizDetailDto> {
    return this.createQuiz(
      {
        title: body.title,
        category: body.category,
        guideid: body.guideid,
        defaultPassingScore: body.default_passing_score,
        status: body.enabled === false ? 'disabled' : 'active',
        survey: body.survey ?? { pages: [] },
      },
      0,
      caller,
    );
  }

  /** Q5: the survey needs at least one page; the title defaults to survey.title. */
  import(body: ImportQuizDto, caller: AuthenticatedUser): Promise<QuizDetailDto> {
    const surveyTitle = typeof body.survey.title === 'string' ? body.survey.title.trim().slice(0, 255) : '';
    const title = body.title ?? surveyTitle;
    if (!title)
      throw new ValidationFailedException([{ message: 'title is required when the survey has none', field: 'title' }]);
    return this.createQuiz(
      {
        title,
        category: body.category,
        guideid: body.guideid,
        defaultPassingScore: body.default_passing_score,
        status: 'active',
        survey: body.survey,
      },
      1,
      caller,
    );
  }

  private async createQuiz(
    input: {
      title: string;
      category?: string;
      guideid?: number;
      defaultPassingScore?: number;
      status: 'active' | 'disabled';
      survey: SurveyJson;
    },
    minPages: number,
    caller: AuthenticatedUser,
  ): Promise<QuizDetailDto> {
    const errors = validateSurvey(input.survey, minPages);
    if (errors.length) throw new ValidationFailedException(errors);
    if (input.guideid !== undefined) await this.documents.requireEditable(caller, 'GUIDE', input.guideid);
    const category =
      input.category ?? (input.guideid !== undefined ? await this.quizzes.guideCategory(input.guideid) : '');
    const now = this.clock.nowSeconds();
    return this.transactions.run(async () => {
      const values: Omit<QuizEntity, 'quizid'> = {
        title: input.title,
        category,
        status: input.status,
        guideid: input.guideid ?? null,
        defaultPassingScore: input.defaultPassingScore ?? DEFAULT_PASSING_SCORE,
        quizRevisionid: 0,
        version: 1,
        releasedDate: now,
        submittedCount: 0,
        createdBy: caller.userid,
        createdDate: now,
        modifiedDate: now,
      };
      const quizid = await this.quizzes.insertQuiz(values);
      const revision = { quizid, version: 1, survey: input.survey, userid: caller.userid, releasedDate: now };
      const quizRevisionid = await this.quizzes.insertRevision(revision);
      await this.quizzes.updateQuiz(quizid, { quizRevisionid });
      await this.quizzes.syncQuestions(quizid, surveyQuestions(input.survey));
      if (input.guideid !== undefined) {
        await this.quizzes.insertAssociation({
          quizid,
          doctype: 'GUIDE',
          docid: input.guideid,
          userid: caller.userid,
          createdDate: now,
        });
      }
      const quiz = { quizid, ...values, quizRevisionid };
      const body = toQuizDetail(quiz, { quizRevisionid, ...revision });
      await this.audit.record({ action: 'quiz.create', entity: ['quiz', quizid], after: toQuiz(quiz) });
      return body;
    });
  }

  /** Q3: the quizzes GET /quizzes shows this caller (whose primary guide they may read). */
  async page(body: GetQuizzesDto, caller: AuthenticatedUser): Promise<QuizPageDto> {
    const [rows, total] = await this.quizzes.page({
      readable: this.access.listSql(caller, 'q.guideid'),
      offset: body.offset ?? 0,
      limit: Math.min(body.limit ?? 20, MAX_LIMIT),
      search: body.search,
      category: body.filters?.category,
      status: body.filters?.status,
      guideid: body.filters?.guideid,
      sort: body.sort?.property ?? 'quizid',
      direction: (body.sort?.direction?.toUpperCase() ?? 'ASC') as 'ASC' | 'DESC',
    });
    return { quizzes: rows.map(toQuiz), total };
  }

  /** Q1 (v2): one SQL statement whatever the page size. */
  async list(query: QuizListQueryDto, caller: AuthenticatedUser): Promise<QuizListItemDto[]> {
    const rows = await this.quizzes.list({
      sort: query.sort,
      order: query.order,
      category: query.category,
      search: query.search,
      offset: query.offset,
      limit: query.limit,
      readable: this.access.listSql(caller, 'q.guideid'),
    });
    return rows.map((row) => ({ ...row, guide_release_version: row.guide_release_version ?? '' }));
  }

  /** Q2 */
  async categories(): Promise<CategoryDto[]> {
    return (await this.quizzes.categories()).map((name) => ({ name }));
  }

  /** Q8: soft delete; the creator or a Moderator+ for every id, else 403 and nothing is deleted. */
  async remove(quizids: number[], caller: AuthenticatedUser): Promise<DeleteQuizzesResultDto> {
    const ids = [...new Set(quizids)];
    const found = await this.quizzes.findQuizzes(ids);
    if (!this.policy.canModerate(caller) && [...found.values()].some((quiz) => quiz.createdBy !== caller.userid)) {
      throw new InsufficientPrivilegesException(
        ['Admin', 'Moderator'],
        'Only the creator or a Moderator may delete a quiz',
      );
    }
    const now = this.clock.nowSeconds();
    return this.transactions.run(async () => {
      const deleted: number[] = [];
      for (const quizid of ids) {
        const quiz = found.get(quizid);
        if (!quiz) continue;
        if (!(await this.quizzes.updateQuiz(quizid, { status: 'deleted', modifiedDate: now }))) continue;
        await this.audit.record({
          action: 'quiz.delete',
          entity: ['quiz', quizid],
          before: toQuiz(quiz),
          after: { status: 'deleted' },
        });
        deleted.push(quizid);
      }
      return { deleted, not_found: ids.filter((id) => !deleted.includes(id)) };
    });
  }

  /**
   * Q24, for the quiz's editors (QuizAccess): an existing uid changes only its title; a new uid (with type and
   * correctAnswer) is appended to the last page. Any change makes a new revision (version + 1), released at once.
   */
  async upsertQuestions(body: QuestionsBodyDto, caller: AuthenticatedUser): Promise<QuestionsResultDto> {
    const quiz = await this.require(body.quizid);
    await this.access.requireEditable(caller, quiz);
    const revision = await this.revisionOf(quiz, quiz.quizRevisionid);
    const { titles, added, errors } = questionChanges(body.questions, surveyQuestions(revision.survey));
    if (errors.length) throw new ValidationFailedException(errors);
    if (!titles.size && !added.length) {
      return {
        created: 0,
        updated: 0,
        quiz_revisionid: quiz.quizRevisionid,
        questions: (await this.quizzes.questions(quiz.quizid)).map(toQuestion),
      };
    }
    const survey = reviseSurvey(revision.survey, titles, added);
    const invalid = validateSurvey(survey, 0);
    if (invalid.length) throw new ValidationFailedException(invalid);
    const now = this.clock.nowSeconds();
    return this.transactions.run(async () => {
      const version = quiz.version + 1;
      // The version moves first: a concurrent revision waits for this row and then gets the 409, where inserting
      // its revision first made it collide with this one's (a 500).
      const changes = { version, releasedDate: now, modifiedDate: now };
      if (!(await this.quizzes.updateQuiz(quiz.quizid, changes, quiz.version))) {
        throw new RevisionConflictException(toQuiz((await this.quizzes.findQuiz(quiz.quizid)) ?? quiz));
      }
      const quizRevisionid = await this.quizzes.insertRevision({
        quizid: quiz.quizid,
        version,
        survey,
        userid: caller.userid,
        releasedDate: now,
      });
      await this.quizzes.updateQuiz(quiz.quizid, { quizRevisionid });
      await this.quizzes.syncQuestions(quiz.quizid, surveyQuestions(survey));
      await this.audit.record({
        action: 'quiz.revise',
        entity: ['quiz', quiz.quizid],
        before: { quiz_revisionid: quiz.quizRevisionid, version: quiz.version },
        after: {
          quiz_revisionid: quizRevisionid,
          version,
          created: added.map((q) => q.name),
          retitled: [...titles.keys()],
        },
      });
      return {
        created: added.length,
        updated: titles.size,
        quiz_revisionid: quizRevisionid,
        questions: (await this.quizzes.questions(quiz.quizid)).map(toQuestion),
      };
    });
  }

  /** 409 with the Quiz (a disabled quiz refuses attempts, associations and attaches). */
  assertEnabled(quiz: QuizEntity): void {
    if (quiz.status !== 'active') throw new RevisionConflictException(toQuiz(quiz));
  }
}
