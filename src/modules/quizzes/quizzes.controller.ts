import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { CachedResponse } from '../../platform/response-cache/cached-response';
import { ApiErrors } from '../../common/openapi/api-error-responses';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import { CreateQuizDto, DeleteQuizzesDto, GetQuizzesDto, ImportQuizDto, QuestionsBodyDto } from './dto/quiz-body.dto';
import { QuizDetailQueryDto, QuizListQueryDto } from './dto/quiz-query.dto';
import {
  CategoryDto,
  DeleteQuizzesResultDto,
  QuestionsResultDto,
  QuizDetailDto,
  QuizListItemDto,
  QuizPageDto,
} from './dto/quiz-response.dto';
import type { SurveyJson } from './quiz-survey';
import { QUIZ_LIST_ANSWER_SOURCES, QuizzesService } from './quizzes.service';

const SURVEY_SCHEMA = { type: 'object', additionalProperties: true, description: 'Survey-builder JSON' } as const;

/**
 * Quiz definitions (Q1-Q8, Q24: docs/enterprise/quizzes.md). Static segments (`categories`, `revisions`, …) come before
 * `{quizid}`, which matches digits only.
 */
@ApiTags('Quizzes')
@ApiExtraModels(QuizDetailDto)
@Controller('quizzes')
export class QuizzesController {
  constructor(private readonly quizzes: QuizzesService) {}

  @Get()
  @ApiErrors(403, 422)
  @Authenticated('Author')
  @ApiOperation({
    summary: 'List quizzes (v2)',
    description:
      'Quizzes that are not deleted and whose primary guide you may read. `sort` (default release_date, by ' +
      'quiz_last_released; sessions_submitted sorts by quizzes_submitted), `order` (default **DESC**), ' +
      '`category` (exact) and `search` (substring of the quiz or guide title). One SQL statement per page.',
  })
  @ApiOkResponse({ type: [QuizListItemDto] })
  @CachedResponse({ family: 'answers-quizzes', sources: QUIZ_LIST_ANSWER_SOURCES })
  list(@Query() query: QuizListQueryDto, @CurrentUser() caller: AuthenticatedUser): Promise<QuizListItemDto[]> {
    return this.quizzes.list(query, caller);
  }

  @Get('categories')
  @ApiErrors(403)
  @Authenticated('Author')
  @ApiOperation({
    summary: 'Quiz categories (v2)',
    description: 'Distinct non-empty categories of all quizzes, disabled and deleted ones included, by name.',
  })
  @ApiOkResponse({ type: [CategoryDto] })
  categories(): Promise<CategoryDto[]> {
    return this.quizzes.categories();
  }

  @Get('revisions/:quizRevisionid')
  @ApiErrors(403, 404)
  @Authenticated('Author')
  @ApiOperation({
    summary: 'The survey of a quiz revision',
    description:
      'The bare survey-builder JSON of a revision, for clients that hold only a quiz_revisionid, shown as ' +
      '`GET /quizzes/{quizid}` shows it (`correctAnswer` for the quiz’s editors only; 404 when you may not read ' +
      'its primary guide).',
  })
  @ApiOkResponse({ schema: SURVEY_SCHEMA })
  revision(
    @Param('quizRevisionid', new ParseIdPipe('Quiz revision')) quizRevisionid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<SurveyJson> {
    return this.quizzes.revisionSurvey(quizRevisionid, caller);
  }

  @Post('getQuizzes')
  @HttpCode(200)
  @ApiErrors(403, 422)
  @Authenticated('Author')
  @ApiOperation({
    summary: 'Search quizzes',
    description:
      'The quizzes `GET /quizzes` shows you (not deleted, with a primary guide you may read), paginated (`offset`, ' +
      '`limit` ≤ 200), searchable (`search` in the title), filterable (`filters`: category, status, guideid) and ' +
      'sortable (`sort`: property, direction; default quizid ASC).',
  })
  @ApiOkResponse({ type: QuizPageDto })
  page(@Body() body: GetQuizzesDto, @CurrentUser() caller: AuthenticatedUser): Promise<QuizPageDto> {
    return this.quizzes.page(body, caller);
  }

  @Post()
  @ApiErrors(403, 404, 422)
  @Authenticated('Author')
  @ApiOperation({
    summary: 'Create a quiz',
    description:
      'Author+, and an editor of `guideid` when given (it becomes the primary guide and an association; the ' +
      'category defaults to the guide’s). `enabled:false` creates it `disabled`. The survey (default ' +
      '`{pages: []}`, 0-100 pages) follows the survey rules (docs/enterprise/quizzes.md): each violation is a 422 at `survey.<name>`. ' +
      'Revision 1 is released at once.',
  })
  @ApiCreatedResponse({ type: QuizDetailDto })
  create(@Body() body: CreateQuizDto, @CurrentUser() caller: AuthenticatedUser): Promise<QuizDetailDto> {
    return this.quizzes.create(body, caller);
  }

  @Post('import')
  @ApiErrors(403, 404, 422)
  @Authenticated('Author')
  @ApiOperation({
    summary: 'Import a survey-builder document as a quiz',
    description: 'As POST /quizzes, with 1-100 pages; the title defaults to `survey.title`.',
  })
  @ApiCreatedResponse({ type: QuizDetailDto })
  import(@Body() body: ImportQuizDto, @CurrentUser() caller: AuthenticatedUser): Promise<QuizDetailDto> {
    return this.quizzes.import(body, caller);
  }

  @Post('delete')
  @HttpCode(200)
  @ApiErrors(403, 422)
  @Authenticated('Author')
  @ApiOperation({
    summary: 'Delete quizzes',
    description:
      'Soft and audited. The creator or a Moderator+ for every id (403 otherwise, and nothing is deleted); ' +
      'unknown or already deleted ids go to `not_found`.',
  })
  @ApiOkResponse({ type: DeleteQuizzesResultDto })
  remove(@Body() body: DeleteQuizzesDto, @CurrentUser() caller: AuthenticatedUser): Promise<DeleteQuizzesResultDto> {
    return this.quizzes.remove(body.quizids, caller);
  }

  @Post('questions')
  @HttpCode(200)
  @ApiErrors(403, 404, 422)
  @Authenticated('Author')
  @ApiOperation({
    summary: 'Update quiz questions',
    description:
      'For editors of the quiz’s primary guide (its author, granted users and teams, Moderator+; a quiz without a ' +
      'guide: its creator or a Moderator+), else 403; a quiz whose guide you may not read is a 404. By ' +
      '`external_question_uid` (the survey element name): an existing one has **only its title** updated; a ' +
      'new one needs `type` and `correctAnswer` and is appended to the last page. A change makes a new revision.',
  })
  @ApiOkResponse({ type: QuestionsResultDto })
  questions(@Body() body: QuestionsBodyDto, @CurrentUser() caller: AuthenticatedUser): Promise<QuestionsResultDto> {
    return this.quizzes.upsertQuestions(body, caller);
  }

  @Get(':quizid')
  @ApiErrors(403, 404, 422)
  @Authenticated('Author')
  @ApiOperation({
    summary: 'A quiz, or the survey of a quiz revision',
    description:
      'Serves both `GET /quizzes/{quizid}` and `GET /quizzes/{quizRevisionid}`: the number is **always a ' +
      'quizid**, even when it is also a quiz_revisionid. It answers the quiz with its current survey; ' +
      '`?revisionid=` picks another revision of this quiz (one of another quiz is 404), and `?format=survey` ' +
      'answers the bare survey JSON. Clients holding only a revision id use ' +
      '`GET /quizzes/revisions/{quizRevisionid}`. The survey has its `correctAnswer`s for those who may change ' +
      'the quiz (see POST /quizzes/questions); other readers get it without them. A quiz whose primary guide ' +
      'you may not read is a 404.',
  })
  @ApiOkResponse({
    description: 'QuizDetail, or the bare survey with `format=survey`.',
    schema: { oneOf: [{ $ref: getSchemaPath(QuizDetailDto) }, SURVEY_SCHEMA] },
  })
  async read(
    @Param('quizid', new ParseIdPipe('Quiz')) quizid: number,
    @Query() query: QuizDetailQueryDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<QuizDetailDto | SurveyJson> {
    const detail = await this.quizzes.detail(quizid, caller, query.revisionid);
    return query.format === 'survey' ? detail.survey : detail;
  }
}
