import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Authenticated, CurrentUser } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ApiErrors } from '../../common/openapi/api-error-responses';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import {
  AttemptDto,
  BulkCancelDto,
  InvalidateDto,
  SaveSessionDto,
  SessionIdDto,
  SubmitSessionDto,
} from './dto/quiz-body.dto';
import { SessionListQueryDto } from './dto/quiz-query.dto';
import {
  AttemptSessionDto,
  BulkCancelResultDto,
  InvalidateResultDto,
  QuizDto,
  SessionDto,
  SubmissionDto,
  SubmitResultDto,
} from './dto/quiz-response.dto';
import { QuizSessionsService } from './quiz-sessions.service';

const NotInProgress = () =>
  ApiResponse({
    status: 409,
    description: 'The session is not `in_progress`; the body is the Session.',
    type: SessionDto,
  });

/** Quiz sessions (Q11, Q17-Q23: docs/enterprise/quizzes.md). */
@ApiTags('Quizzes')
@Controller('quizzes')
export class QuizSessionsController {
  constructor(private readonly sessions: QuizSessionsService) {}

  @Post('attempt')
  @ApiErrors(404, 422)
  @Authenticated()
  @ApiResponse({ status: 409, description: 'The quiz is disabled; the body is the Quiz.', type: QuizDto })
  @ApiOperation({
    summary: 'Attempt a quiz',
    description:
      'Any reader of the context (`guideid` or `wikiid`, at most one); anyone without one. One open session per ' +
      'user, quiz and `course_stageid`: 200 with the existing one, 201 with a new one pinning the current revision, ' +
      'the passing score and the guide release in force. The survey comes without correct answers.',
  })
  @ApiCreatedResponse({ type: AttemptSessionDto, description: 'A new session.' })
  @ApiOkResponse({ type: AttemptSessionDto, description: 'Your open session.' })
  async attempt(
    @Body() body: AttemptDto,
    @CurrentUser() caller: AuthenticatedUser,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AttemptSessionDto> {
    const { created, session } = await this.sessions.attempt(body, caller);
    void reply.status(created ? 201 : 200);
    return session;
  }

  @Get('sessions')
  @ApiErrors(403, 422)
  @Authenticated()
  @ApiOperation({
    summary: 'List quiz sessions',
    description: 'Your sessions, or another user’s with `userid` (Moderator+), by sessionid.',
  })
  @ApiOkResponse({ type: [SessionDto] })
  list(@Query() query: SessionListQueryDto, @CurrentUser() caller: AuthenticatedUser): Promise<SessionDto[]> {
    return this.sessions.list(query, caller);
  }

  @Post('sessions/save')
  @HttpCode(200)
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @NotInProgress()
  @ApiOperation({
    summary: 'Save answers',
    description: 'The owner. Merges `answers` into the saved ones; a key that is not a question name is a 422.',
  })
  @ApiOkResponse({ type: SessionDto })
  save(@Body() body: SaveSessionDto, @CurrentUser() caller: AuthenticatedUser): Promise<SessionDto> {
    return this.sessions.save(body.sessionid, body.answers, caller);
  }

  @Post('sessions/submit')
  @HttpCode(200)
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @NotInProgress()
  @ApiOperation({
    summary: 'Submit a session',
    description:
      'The owner. Merges `answers`, grades against the revision the session pinned and records each answer. ' +
      'Submitted answers never change.',
  })
  @ApiOkResponse({ type: SubmitResultDto })
  submit(@Body() body: SubmitSessionDto, @CurrentUser() caller: AuthenticatedUser): Promise<SubmitResultDto> {
    return this.sessions.submit(body.sessionid, body.answers, caller);
  }

  @Post('sessions/cancel')
  @HttpCode(200)
  @ApiErrors(404, 422)
  @Authenticated()
  @NotInProgress()
  @ApiOperation({ summary: 'Cancel a session', description: 'The owner or a Moderator+.' })
  @ApiOkResponse({ type: SessionDto })
  cancel(@Body() body: SessionIdDto, @CurrentUser() caller: AuthenticatedUser): Promise<SessionDto> {
    return this.sessions.cancel(body.sessionid, caller);
  }

  @Post('sessions/bulkCancel')
  @HttpCode(200)
  @ApiErrors(403, 422)
  @Authenticated('Moderator')
  @ApiOperation({
    summary: 'Cancel sessions',
    description: '1-500 sessionids; those that are not `in_progress` (or unknown) are skipped.',
  })
  @ApiOkResponse({ type: BulkCancelResultDto })
  bulkCancel(@Body() body: BulkCancelDto): Promise<BulkCancelResultDto> {
    return this.sessions.bulkCancel(body.sessionids);
  }

  @Patch('sessions/userInvalidateAll/:userid')
  @ApiErrors(403, 404, 422)
  @Authenticated('Moderator')
  @ApiOperation({
    summary: 'Invalidate all sessions of a user',
    description: 'Every `in_progress` and `submitted` session becomes `invalidated`, recording who, when and `reason`.',
  })
  @ApiOkResponse({ type: InvalidateResultDto })
  invalidateAll(
    @Param('userid', new ParseIdPipe('User')) userid: number,
    @Body() body: InvalidateDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<InvalidateResultDto> {
    return this.sessions.invalidateAll(userid, body?.reason, caller);
  }

  @Get('submissions/:sessionid')
  @ApiErrors(404)
  @Authenticated()
  @ApiOperation({ summary: 'Graded answers of a session', description: 'The owner or a Moderator+.' })
  @ApiOkResponse({ type: [SubmissionDto] })
  submissions(
    @Param('sessionid', new ParseIdPipe('Session')) sessionid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<SubmissionDto[]> {
    return this.sessions.submissions(sessionid, caller);
  }
}
