import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { CachedResponse } from '../../platform/response-cache/cached-response';
import { ApiErrors } from '../../common/openapi/api-error-responses';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import { CancelEntryDto, CreateEntryDto, StepDataDto } from './dto/work-log-body.dto';
import { SuspendedQueryDto, WorkLogExportQueryDto, WorkLogListQueryDto } from './dto/work-log-query.dto';
import { FinishResultDto, WorkLogEntryDto, WorkLogListDto } from './dto/work-log-response.dto';
import { WorkLogExportService } from './work-log-export.service';
import { WorkLogStepDataService } from './work-log-step-data.service';
import { WORK_LOG_ANSWER_SOURCES, WorkLogService } from './work-log.service';

const EntryId = () => Param('entryid', new ParseIdPipe('Entry'));
const Conflict = (what: string) =>
  ApiResponse({ status: 409, description: `${what}; the body is the entry as it is now.`, type: WorkLogEntryDto });

@ApiTags('Work log')
@Controller('work_log')
export class WorkLogController {
  constructor(
    private readonly workLog: WorkLogService,
    private readonly stepData: WorkLogStepDataService,
    private readonly exporter: WorkLogExportService,
  ) {}

  @Get()
  @ApiErrors(403, 422)
  @Authenticated()
  @ApiOperation({
    summary: 'List work-log entries',
    description:
      'Your entries, or another user’s with `userid` (Moderator+, else 403), filtered by guide, work order, status and ' +
      'start time (`since`/`until`, UNIX seconds, inclusive). `{results: [...]}` ordered by entryid.',
  })
  @ApiOkResponse({ type: WorkLogListDto })
  @CachedResponse({ family: 'answers-worklog', sources: WORK_LOG_ANSWER_SOURCES })
  list(@Query() query: WorkLogListQueryDto, @CurrentUser() caller: AuthenticatedUser): Promise<WorkLogListDto> {
    return this.workLog.list(query, caller);
  }

  @Get('export.csv')
  @ApiErrors(403, 404, 422)
  @Authenticated('Moderator')
  @ApiOperation({
    summary: 'Export captured data as CSV',
    description:
      'Every recorded value (one row each, superseded values included) of one entry (`entryid`) or of all entries ' +
      'of a guide (`guideid`, optionally `since`/`until` on the start time). Exactly one of entryid and guideid. ' +
      'Streamed page by page in constant memory. Columns: ' +
      'entryid, guideid, workorderid, userid, status, starttime, endtime, guide_revisionid, stepid, field_revisionid, ' +
      'field_guid, label, value, recorded_by, date.',
  })
  @ApiProduces('text/csv')
  @ApiResponse({
    status: 200,
    description: 'CSV (RFC 4180, CRLF line ends, a header row).',
    content: { 'text/csv': { schema: { type: 'string' } } },
  })
  async export(
    @Query() query: WorkLogExportQueryDto,
    @CurrentUser() caller: AuthenticatedUser,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const stream = await this.exporter.export(query, caller);
    await reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="work-log.csv"')
      .send(stream);
  }

  @Get(':entryid')
  @ApiErrors(404)
  @Authenticated()
  @ApiOperation({ summary: 'Read an entry', description: 'Its owner and Moderator+ only (404 for anyone else).' })
  @ApiOkResponse({ type: WorkLogEntryDto })
  read(@EntryId() entryid: number, @CurrentUser() caller: AuthenticatedUser): Promise<WorkLogEntryDto> {
    return this.workLog.read(entryid, caller);
  }

  @Post()
  @ApiErrors(404, 422)
  @Authenticated()
  @ApiOperation({
    summary: 'Start an entry',
    description:
      'Any reader of the guide. Pins the revision the caller reads, the release in force and the highest form ' +
      'revision of the guide’s steps (`max_form_revisionid`). `join_code` is accepted and ignored.',
  })
  @ApiCreatedResponse({ type: WorkLogEntryDto })
  start(@Body() body: CreateEntryDto, @CurrentUser() caller: AuthenticatedUser): Promise<WorkLogEntryDto> {
    return this.workLog.start(body, caller);
  }

  @Post(':entryid/finish')
  @HttpCode(200)
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @Conflict('Suspended, cancelled, or a sign-off is pending')
  @ApiOperation({
    summary: 'Finish an entry',
    description:
      'The owner. Needs every required field filled (under any revision of its field) and an approved sign-off for ' +
      'steps that name a team: each gap is one 422 error at `fields.<field_revisionid>` or `signoffs.<stepid>`. ' +
      'On a complete entry it answers the stored result again and writes nothing.',
  })
  @ApiOkResponse({ type: FinishResultDto })
  finish(@EntryId() entryid: number, @CurrentUser() caller: AuthenticatedUser): Promise<FinishResultDto> {
    return this.workLog.finish(entryid, caller);
  }

  @Post(':entryid/cancel')
  @HttpCode(200)
  @ApiErrors(404, 422)
  @Authenticated()
  @Conflict('Complete or cancelled')
  @ApiOperation({ summary: 'Cancel an entry', description: 'The owner or a Moderator+. `reason` (≤ 2000) is audited.' })
  @ApiOkResponse({ type: WorkLogEntryDto })
  cancel(
    @EntryId() entryid: number,
    @Body() body: CancelEntryDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<WorkLogEntryDto> {
    return this.workLog.cancel(entryid, body?.reason, caller);
  }

  @Post(':entryid/pause')
  @HttpCode(200)
  @ApiErrors(403, 404)
  @Authenticated()
  @Conflict('Not started')
  @ApiOperation({ summary: 'Pause an entry', description: 'The owner; the open timing closes.' })
  @ApiOkResponse({ type: WorkLogEntryDto })
  pause(@EntryId() entryid: number, @CurrentUser() caller: AuthenticatedUser): Promise<WorkLogEntryDto> {
    return this.workLog.pause(entryid, caller);
  }

  @Post(':entryid/resume')
  @HttpCode(200)
  @ApiErrors(403, 404)
  @Authenticated()
  @Conflict('Not paused')
  @ApiOperation({ summary: 'Resume an entry', description: 'The owner; a timing reopens on the current step.' })
  @ApiOkResponse({ type: WorkLogEntryDto })
  resume(@EntryId() entryid: number, @CurrentUser() caller: AuthenticatedUser): Promise<WorkLogEntryDto> {
    return this.workLog.resume(entryid, caller);
  }

  @Post(':entryid/suspend')
  @HttpCode(200)
  @ApiErrors(403, 404)
  @Authenticated()
  @Conflict('Not started or paused')
  @ApiOperation({ summary: 'Suspend an entry', description: 'The owner hands the entry over: it waits to be assumed.' })
  @ApiOkResponse({ type: WorkLogEntryDto })
  suspend(@EntryId() entryid: number, @CurrentUser() caller: AuthenticatedUser): Promise<WorkLogEntryDto> {
    return this.workLog.suspend(entryid, caller);
  }

  @Post(':entryid/assume')
  @HttpCode(200)
  @ApiErrors(404)
  @Authenticated()
  @Conflict('Not suspended')
  @ApiOperation({
    summary: 'Assume a suspended entry',
    description: 'Any reader of the guide (the previous owner too) becomes the owner; audited with both owners.',
  })
  @ApiOkResponse({ type: WorkLogEntryDto })
  assume(@EntryId() entryid: number, @CurrentUser() caller: AuthenticatedUser): Promise<WorkLogEntryDto> {
    return this.workLog.assume(entryid, caller);
  }

  @Put(':entryid/stepData')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @Conflict('Not started, or `lasttimingid` is not the newest timing')
  @ApiOperation({
    summary: 'Record step data',
    description:
      '`{fields: {"<field_revisionid>": value}}` (1-100 keys of any form revision of this guide’s steps). Text ' +
      'Input/Text Area: string ≤ 65535 (numbers are stringified); Numeric Input: number or numeric string within ' +
      'min/max; Checkbox: true, false, 1, 0, "1", "0" (stored "1"/"0"); Radios/Select: one of the options; Date: ' +
      'YYYY-MM-DD; Image/Document: an id in your media manager; Video: a video id. Each bad key or value is a 422 at ' +
      '`fields.<key>`. Values are appended, never overwritten. `stepid` moves the timing to that step. The owner, ' +
      'while `started`.',
  })
  @ApiOkResponse({ type: WorkLogEntryDto })
  record(
    @EntryId() entryid: number,
    @Body() body: StepDataDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<WorkLogEntryDto> {
    return this.stepData.record(entryid, body, caller);
  }

  @Delete(':entryid')
  @HttpCode(204)
  @ApiErrors(404)
  @Authenticated('Admin')
  @ApiOperation({
    summary: 'Delete an entry',
    description: 'Soft and audited: the entry and its data leave every read.',
  })
  @ApiNoContentResponse()
  async remove(@EntryId() entryid: number): Promise<void> {
    await this.workLog.remove(entryid);
  }

  @Get(':guideid/suspended')
  @ApiErrors(404, 422)
  @Authenticated()
  @ApiOperation({
    summary: 'Suspended entries of a guide',
    description: 'Any reader of the guide; they may assume them.',
  })
  @ApiOkResponse({ type: WorkLogListDto })
  suspended(
    @Param('guideid', new ParseIdPipe('Guide')) guideid: number,
    @Query() query: SuspendedQueryDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<WorkLogListDto> {
    return this.workLog.suspended(guideid, query.offset, query.limit, caller);
  }
}
