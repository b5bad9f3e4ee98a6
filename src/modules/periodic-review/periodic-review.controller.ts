import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { notFound, unprocessable } from '../../common/http/api-errors';
import { CachedResponse } from '../../platform/response-cache/cached-response';
import { DocumentRegistry } from '../../platform/documents/document-registry';
import { ApiErrors } from '../../common/openapi/api-error-responses';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import { AddDocumentsDto, CreateScheduleDto, MAX_ID, RemoveDocumentsDto } from './dto/schedule-body.dto';
import { CreateReviewDto } from './dto/review-body.dto';
import { ReviewDto } from './dto/review-response.dto';
import { ScheduleListQueryDto } from './dto/schedule-query.dto';
import { ChangeRequestDto } from './dto/review-response.dto';
import {
  DocumentScheduleDto,
  ReviewDocumentDto,
  ScheduleConflictDto,
  ScheduleDetailDto,
  ScheduleDto,
} from './dto/schedule-response.dto';
import { UserDocumentsQueryDto, UserRequestsQueryDto, UserReviewsQueryDto } from './dto/user-lists-query.dto';
import { REVIEW_ANSWER_SOURCES, UserListsService } from './user-lists.service';
import { ReviewSearchQueryDto, SearchHitDto } from './dto/search.dto';
import { ReviewSearchService } from './review-search.service';
import { ScheduleDocumentsService } from './schedule-documents.service';
import { ReviewsService } from './reviews.service';
import { SchedulesService } from './schedules.service';

/** `?prdids=1,2`: 1-100 ids, each 1..2^31-1. */
function parsePrdids(raw: unknown): number[] {
  const parts = typeof raw === 'string' ? raw.split(',') : [];
  const ids = parts.map((p) => (/^\d{1,10}$/.test(p.trim()) ? Number(p.trim()) : NaN));
  if (!ids.length || ids.length > 100 || ids.some((id) => !(id >= 1 && id <= MAX_ID))) {
    throw unprocessable('prdids must be 1-100 ids', 'prdids');
  }
  return ids;
}

/** Periodic review (docs/enterprise/periodic-review.md): P1-P13. */
@ApiTags('Periodic review')
@Controller('periodic_review')
export class PeriodicReviewController {
  constructor(
    private readonly schedules: SchedulesService,
    private readonly scheduleDocuments: ScheduleDocumentsService,
    private readonly reviews: ReviewsService,
    private readonly lists: UserListsService,
    private readonly searcher: ReviewSearchService,
  ) {}

  @Get('search/:searchTerm')
  @ApiErrors(403, 422)
  @Authenticated('Author')
  @ApiOperation({
    summary: 'Search documents to schedule',
    description:
      'Author+. Guides and wikis the caller may edit whose title contains `searchTerm` (1-100 characters, ' +
      'case-insensitive), guides first, each newest first, with their schedule membership (`prsid`, `prdid`, or ' +
      'null). At most 1000 title matches per doctype are considered.',
  })
  @ApiOkResponse({ type: [SearchHitDto] })
  search(
    @Param('searchTerm') searchTerm: string,
    @Query() query: ReviewSearchQueryDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<SearchHitDto[]> {
    return this.searcher.search(searchTerm, query, caller);
  }

  @Get('reviews/:userid')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @ApiOperation({ summary: 'Reviews by a user', description: 'That user or a Moderator+. By reviewid (`order`).' })
  @ApiOkResponse({ type: [ReviewDto] })
  userReviews(
    @Param('userid', new ParseIdPipe('User')) userid: number,
    @Query() query: UserReviewsQueryDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<ReviewDto[]> {
    return this.lists.reviews(userid, query, caller);
  }

  @Get('documents/:userid')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @ApiOperation({
    summary: 'Documents a user reviews',
    description:
      'That user or a Moderator+. Documents whose effective reviewer is the user, or in a schedule whose default ' +
      'team the user is in; `state` filters on the state now. By prdid.',
  })
  @ApiOkResponse({ type: [ReviewDocumentDto] })
  @CachedResponse({ family: 'answers-reviews', sources: REVIEW_ANSWER_SOURCES })
  userDocuments(
    @Param('userid', new ParseIdPipe('User')) userid: number,
    @Query() query: UserDocumentsQueryDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<ReviewDocumentDto[]> {
    return this.lists.documents(userid, query, caller);
  }

  @Get('requests/:userid')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @ApiOperation({
    summary: 'Change requests assigned to a user',
    description: 'That user or a Moderator+. `status` open or resolved. By requestid.',
  })
  @ApiOkResponse({ type: [ChangeRequestDto] })
  userRequests(
    @Param('userid', new ParseIdPipe('User')) userid: number,
    @Query() query: UserRequestsQueryDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<ChangeRequestDto[]> {
    return this.lists.requests(userid, query, caller);
  }

  @Post('review')
  @ApiErrors(403, 404, 422, 429)
  @Authenticated()
  @ApiOperation({
    summary: 'Review a scheduled document (signed)',
    description:
      '`prdid`, or `doctype` + `docid`; `outcome` no_changes or changes_requested (which needs ' +
      '`change_request.description` 1-5000; the assignee defaults to the document’s author); `notes` at most 5000; ' +
      '`password` re-entered (wrong: 403 `Signature authentication failed`; locked: 429). The effective reviewer, ' +
      'a member of the schedule’s default team or an editor of the document. Accepted while the document is ' +
      '`open` or `overdue`: `scheduled` is 409 with the ReviewDocument, a document in no schedule 409. The next due ' +
      'date counts from now; `no_changes` resolves the document’s open change requests. Signature meaning `review`.',
  })
  @ApiCreatedResponse({ type: ReviewDto })
  @ApiConflictResponse({
    description: 'The document is not scheduled, or its window is not open (body: the ReviewDocument).',
  })
  review(@Body() body: CreateReviewDto, @CurrentUser() caller: AuthenticatedUser): Promise<ReviewDto> {
    return this.reviews.review(body, caller);
  }

  @Post()
  @ApiErrors(403, 422)
  @Authenticated('Author')
  @ApiOperation({
    summary: 'Create a review schedule',
    description:
      'Author+. `recurrence` {type:"annual", month, day} (a valid date; Feb 29 falls on Feb 28 in other years; ' +
      'due at 00:00 UTC) or {type:"interval", days 2-3650}; `completion_window_days` 1-365 (default 30, less than ' +
      'an interval); at most one of `default_reviewer_userid` and `default_reviewer_teamid`, which must exist (422).',
  })
  @ApiCreatedResponse({ type: ScheduleDetailDto })
  create(@Body() body: CreateScheduleDto, @CurrentUser() caller: AuthenticatedUser): Promise<ScheduleDetailDto> {
    return this.schedules.create(body, caller);
  }

  @Get()
  @ApiErrors(403, 422)
  @Authenticated('Author')
  @ApiOperation({ summary: 'List review schedules', description: 'Author+. By prsid (`order`).' })
  @ApiOkResponse({ type: [ScheduleDto] })
  list(@Query() query: ScheduleListQueryDto): Promise<ScheduleDto[]> {
    return this.schedules.list(query);
  }

  @Post('documents')
  @HttpCode(200)
  @ApiErrors(403, 404, 422)
  @Authenticated('Author')
  @ApiExtraModels(ScheduleConflictDto)
  @ApiOperation({
    summary: 'Add documents to a schedule',
    description:
      'Author+ editors of every document (403 otherwise; a document that is gone or unreadable is 404). 1-100 ' +
      '{doctype, docid, reviewer_userid?}; documents already in this schedule are no-ops; a document in another ' +
      'schedule is 409 `{error, message, conflicts:[{doctype, docid, prsid}]}`; an unknown reviewer is 422. ' +
      'All or nothing. The next due date counts from now.',
  })
  @ApiOkResponse({ type: ScheduleDetailDto })
  @ApiConflictResponse({
    description: 'A document is in another schedule.',
    schema: { $ref: getSchemaPath(ScheduleConflictDto) },
  })
  addDocuments(@Body() body: AddDocumentsDto, @CurrentUser() caller: AuthenticatedUser): Promise<ScheduleDetailDto> {
    return this.scheduleDocuments.add(body, caller);
  }

  @Delete('documents')
  @HttpCode(204)
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @ApiOperation({
    summary: 'Remove documents from their schedules',
    description:
      '`prdids` 1-100 in the body or as `?prdids=1,2`. Each document: its editors, the schedule’s creator or a ' +
      'Moderator+ (403 otherwise). A prdid that is gone is 404 and nothing is removed. Reviews and change ' +
      'requests are kept.',
  })
  @ApiQuery({ name: 'prdids', required: false, type: String, description: 'Comma-separated prdids.' })
  @ApiBody({ type: RemoveDocumentsDto, required: false })
  @ApiNoContentResponse()
  async removeDocuments(
    @Body() body: RemoveDocumentsDto,
    @Query('prdids') query: unknown,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<void> {
    const prdids = body?.prdids ?? parsePrdids(query);
    await this.scheduleDocuments.remove(prdids, caller);
  }

  @Delete('documents/:prdid')
  @HttpCode(204)
  @ApiErrors(403, 404)
  @Authenticated()
  @ApiOperation({
    summary: 'Remove a document from its schedule',
    description: 'As DELETE /periodic_review/documents.',
  })
  @ApiNoContentResponse()
  async removeDocument(
    @Param('prdid', new ParseIdPipe('Review document')) prdid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<void> {
    await this.scheduleDocuments.remove([prdid], caller);
  }

  @Get(':prsid')
  @ApiErrors(403, 404)
  @Authenticated('Author')
  @ApiOperation({
    summary: 'A schedule with its documents',
    description: 'Author+. Only documents the caller may read are listed; state is computed from the clock.',
  })
  @ApiOkResponse({ type: ScheduleDetailDto })
  detail(
    @Param('prsid', new ParseIdPipe('Schedule')) prsid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<ScheduleDetailDto> {
    return this.schedules.detail(prsid, caller);
  }

  @Delete(':prsid')
  @HttpCode(204)
  @ApiErrors(403, 404)
  @Authenticated('Author')
  @ApiOperation({
    summary: 'Delete a schedule',
    description: 'Its creator or a Moderator+. Frees its documents; reviews and change requests are kept.',
  })
  @ApiNoContentResponse()
  async remove(
    @Param('prsid', new ParseIdPipe('Schedule')) prsid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<void> {
    await this.schedules.remove(prsid, caller);
  }

  @Get(':doctype/:docid')
  @ApiErrors(404)
  @Authenticated()
  @ApiOperation({
    summary: 'The review schedule of a document',
    description:
      'Readers of the document. `doctype` is guide or wiki (case-insensitive; anything else is 404). A document ' +
      'that is gone, unreadable or in no schedule is 404.',
  })
  @ApiOkResponse({ type: DocumentScheduleDto })
  documentSchedule(
    @Param('doctype') doctype: string,
    @Param('docid', new ParseIdPipe('Document')) docid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<DocumentScheduleDto> {
    const type = DocumentRegistry.parse(doctype);
    if (!type) throw notFound('Document');
    return this.lists.documentSchedule(type, docid, caller);
  }
}
