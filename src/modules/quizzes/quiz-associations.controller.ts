import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ValidationFailedException } from '../../common/http/api-errors';
import { ApiErrors } from '../../common/openapi/api-error-responses';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import { AssociationsBodyDto, AttachGuideDto, AttachWikiDto, DissociateBodyDto } from './dto/quiz-body.dto';
import { AssociationsQueryDto } from './dto/quiz-query.dto';
import { AssociationDto, CourseAssignmentDto, PassingScoreDto, QuizDto } from './dto/quiz-response.dto';
import { QuizAssociationsService } from './quiz-associations.service';

const Disabled = () =>
  ApiResponse({ status: 409, description: 'The quiz is disabled; the body is the Quiz.', type: QuizDto });

/** The ids of `?quizids=1,2,3` (422 when they are not 1-100 positive integers). */
function parseQuizids(value: string | undefined): number[] {
  const parts = (value ?? '').split(',').filter((part) => part.trim() !== '');
  const ids = parts.map((part) => (/^\d{1,10}$/.test(part.trim()) ? Number(part) : NaN));
  if (!ids.length || ids.length > 100 || ids.some((id) => !Number.isInteger(id) || id < 1 || id > 2147483647)) {
    throw new ValidationFailedException([{ message: 'quizids must be 1 to 100 quiz ids', field: 'quizids' }]);
  }
  return ids;
}

/** Quizzes on guides, wikis and course stages (Q9, Q10, Q12-Q16: docs/enterprise/quizzes.md). */
@ApiTags('Quizzes')
@Controller('quizzes')
export class QuizAssociationsController {
  constructor(private readonly associations: QuizAssociationsService) {}

  @Post('associations')
  @HttpCode(200)
  @ApiErrors(403, 404, 422)
  @Authenticated('Author')
  @Disabled()
  @ApiOperation({
    summary: 'Associate a guide with quizzes',
    description:
      'An Author+ editor of the guide. A repeat is a no-op. A quiz without a primary guide gets this one, which ' +
      'only its creator or a Moderator+ may do (403). A quiz whose primary guide you may not read is a 404. ' +
      'Answers the guide’s full set.',
  })
  @ApiOkResponse({ type: [AssociationDto] })
  associate(@Body() body: AssociationsBodyDto, @CurrentUser() caller: AuthenticatedUser): Promise<AssociationDto[]> {
    return this.associations.associate(body.guideid, body.quizids, caller);
  }

  @Delete('associations')
  @HttpCode(204)
  @ApiErrors(403, 404, 422)
  @Authenticated('Author')
  @ApiOperation({
    summary: 'Remove guide-quiz associations',
    description:
      'Moderator+, or an Author who edits the guide. `guideid` and `quizids` in the body, or as ' +
      '`?guideid=1&quizids=2,3`. When the primary guide goes, the lowest remaining associated guide takes its place.',
  })
  @ApiBody({ type: DissociateBodyDto, required: false })
  @ApiNoContentResponse()
  async dissociate(
    @Body() body: DissociateBodyDto,
    @Query() query: AssociationsQueryDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<void> {
    const guideid = body?.guideid ?? query.guideid;
    if (guideid === undefined) {
      throw new ValidationFailedException([{ message: 'guideid is required', field: 'guideid' }]);
    }
    const quizids = body?.quizids ?? parseQuizids(query.quizids);
    await this.associations.dissociate(guideid, quizids, caller);
  }

  @Get('associations/:guideid')
  @ApiErrors(404)
  @Authenticated()
  @ApiOperation({ summary: 'Quizzes of a guide', description: 'Any reader of the guide; an empty array when none.' })
  @ApiOkResponse({ type: [AssociationDto] })
  forGuide(
    @Param('guideid', new ParseIdPipe('Guide')) guideid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<AssociationDto[]> {
    return this.associations.forGuide(guideid, caller);
  }

  @Get('courseAssignments/:quizid')
  @ApiErrors(403, 404)
  @Authenticated('Author')
  @ApiOperation({
    summary: 'Course stages that use a quiz',
    description: 'An empty array when none. A quiz whose primary guide you may not read is a 404.',
  })
  @ApiOkResponse({ type: [CourseAssignmentDto] })
  courseAssignments(
    @Param('quizid', new ParseIdPipe('Quiz')) quizid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<CourseAssignmentDto[]> {
    return this.associations.courseAssignments(quizid, caller);
  }

  @Get('passingScore/:course_stageid/:quizid')
  @ApiErrors(404)
  @Authenticated()
  @ApiOperation({
    summary: 'Passing score of a quiz in a course stage',
    description: 'The stage’s score when the stage links this quiz and sets one, else the quiz default.',
  })
  @ApiOkResponse({ type: PassingScoreDto })
  passingScore(
    @Param('course_stageid', new ParseIdPipe('Course stage')) courseStageid: number,
    @Param('quizid', new ParseIdPipe('Quiz')) quizid: number,
  ): Promise<PassingScoreDto> {
    return this.associations.passingScore(courseStageid, quizid);
  }

  @Post('attach/guide')
  @HttpCode(200)
  @ApiErrors(403, 404, 422)
  @Authenticated('Author')
  @Disabled()
  @ApiOperation({
    summary: 'Attach a quiz to a guide',
    description:
      'An Author+ editor of the guide. A quiz without a primary guide gets this one, which only its creator or a ' +
      'Moderator+ may do (403). A quiz whose primary guide you may not read is a 404.',
  })
  @ApiOkResponse({ type: AssociationDto })
  attachGuide(@Body() body: AttachGuideDto, @CurrentUser() caller: AuthenticatedUser): Promise<AssociationDto> {
    return this.associations.attachOne(body.quizid, 'GUIDE', body.guideid, caller);
  }

  @Post('attach/wiki')
  @HttpCode(200)
  @ApiErrors(403, 404, 422)
  @Authenticated('Author')
  @Disabled()
  @ApiOperation({
    summary: 'Attach a quiz to a wiki',
    description: 'An Author+ editor of the wiki. A quiz whose primary guide you may not read is a 404.',
  })
  @ApiOkResponse({ type: AssociationDto })
  attachWiki(@Body() body: AttachWikiDto, @CurrentUser() caller: AuthenticatedUser): Promise<AssociationDto> {
    return this.associations.attachOne(body.quizid, 'WIKI', body.wikiid, caller);
  }
}
