import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ApiErrors } from '../../common/openapi/api-error-responses';
import { RevisionId, Versioned } from '../../common/revisions/versioned.decorator';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import { ApprovalAssignmentsService } from './approval-assignments.service';
import { ApprovalProcessesService } from './approval-processes.service';
import {
  AssignProcessDto,
  CreateProcessDto,
  ListProcessesQueryDto,
  ProcessRevisionQueryDto,
  SearchProcessesQueryDto,
  UnassignProcessQueryDto,
  UpdateProcessDto,
} from './dto/process-body.dto';
import { ApprovalProcessDto, ProcessAssignmentDto, WikiAssignmentDto } from './dto/process-response.dto';

const ProcessId = () => Param('approval_processid', new ParseIdPipe('Approval process'));
const WikiId = () => Param('wikiid', new ParseIdPipe('Wiki'));

/** Approval processes and their assignment to documents (docs/enterprise/approvals.md, A1-A7 and A12). */
@ApiTags('Approvals')
@Controller()
export class ApprovalProcessesController {
  constructor(
    private readonly processes: ApprovalProcessesService,
    private readonly assignments: ApprovalAssignmentsService,
  ) {}

  @Get('approvals/processes')
  @ApiErrors(403)
  @Authenticated('Admin')
  @ApiOperation({ summary: 'List approval processes (A1, Admin)', description: 'Ordered by approval_processid.' })
  @ApiOkResponse({ type: [ApprovalProcessDto] })
  list(@Query() query: ListProcessesQueryDto): Promise<ApprovalProcessDto[]> {
    return this.processes.list(query);
  }

  @Get('approvals/process/search/:search_phrase')
  @ApiErrors(403)
  @Authenticated('Admin')
  @ApiOperation({
    summary: 'Search approval processes by name (A2, Admin)',
    description: 'Case-insensitive substring of the name, 1-100 characters (422 otherwise); by approval_processid.',
  })
  @ApiOkResponse({ type: [ApprovalProcessDto] })
  search(
    @Param('search_phrase') phrase: string,
    @Query() query: SearchProcessesQueryDto,
  ): Promise<ApprovalProcessDto[]> {
    return this.processes.search(phrase, query.limit);
  }

  @Get('approvals/process/:approval_processid')
  @ApiErrors(403, 404)
  @Authenticated('Admin')
  @ApiOperation({
    summary: 'An approval process (A3, Admin)',
    description: 'The current revision, or `revisionid` (404 when it is not a revision of this process).',
  })
  @ApiOkResponse({ type: ApprovalProcessDto })
  get(@ProcessId() id: number, @Query() query: ProcessRevisionQueryDto): Promise<ApprovalProcessDto> {
    return this.processes.get(id, query.revisionid);
  }

  @Post('approvals/process')
  @ApiErrors(403, 422)
  @Authenticated('Admin')
  @ApiOperation({
    summary: 'Create an approval process (A4, Admin)',
    description:
      '1-10 stages, each exactly one of `userid` (1 signature) or `teamid` with `required_signatures` from 1 to ' +
      'its member count (default 1). `site_default: true` clears the flag on any other process.',
  })
  @ApiCreatedResponse({ type: ApprovalProcessDto })
  create(@Body() body: CreateProcessDto): Promise<ApprovalProcessDto> {
    return this.processes.create(body);
  }

  @Patch('approvals/process/:approval_processid')
  @ApiErrors(403, 404, 422)
  @Authenticated('Admin')
  @Versioned()
  @ApiOperation({
    summary: 'Edit an approval process (A5, Admin)',
    description:
      '`?revisionid=` is the current approval_process_revisionid (missing: 422; stale: 409 with the process). A ' +
      'changed name or stage list makes a new revision (open requests keep theirs); `site_default` alone makes none.',
  })
  @ApiOkResponse({ type: ApprovalProcessDto })
  @ApiConflictResponse({ type: ApprovalProcessDto, description: 'Stale revisionid: the current process.' })
  update(
    @ProcessId() id: number,
    @Body() body: UpdateProcessDto,
    @RevisionId() revisionid: number,
  ): Promise<ApprovalProcessDto> {
    return this.processes.update(id, revisionid, body);
  }

  @Put('approvals/:wikiid/:approval_processid')
  @ApiErrors(403, 404, 422)
  @Authenticated('Admin')
  @ApiOperation({
    summary: "Assign a process to a wiki's slot (A6, Admin)",
    description: '`release_type`: `all` (default; minor and major releases) or `major` (major releases only).',
  })
  @ApiOkResponse({ type: WikiAssignmentDto })
  assign(
    @WikiId() wikiid: number,
    @ProcessId() id: number,
    @Body() body: AssignProcessDto,
  ): Promise<WikiAssignmentDto> {
    return this.assignments.assignWiki(wikiid, id, body.release_type ?? 'all');
  }

  @Delete('approvals/:wikiid')
  @HttpCode(204)
  @ApiErrors(403, 404, 422)
  @Authenticated('Admin')
  @ApiOperation({
    summary: "Clear a wiki's process slots (A7, Admin)",
    description: '`?release_type=all|major` clears one slot, default both; 204 even when nothing was assigned.',
  })
  @ApiNoContentResponse()
  async unassign(@WikiId() wikiid: number, @Query() query: UnassignProcessQueryDto): Promise<void> {
    await this.assignments.unassignWiki(wikiid, query.release_type);
  }

  @Get('guides/:guideid/approvalProcesses')
  @ApiErrors(403, 404)
  @Authenticated()
  @ApiOperation({
    summary: 'The approval processes a guide would use now (A12)',
    description:
      'For the guide’s editors and Admins: `major` then `minor`, each as it resolves now (major: the guide’s ' +
      '`major` slot, its `all` slot, the site default, none; minor: `all`, the site default, none).',
  })
  @ApiOkResponse({ type: [ProcessAssignmentDto] })
  forGuide(
    @Param('guideid', new ParseIdPipe('Guide')) guideid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<ProcessAssignmentDto[]> {
    return this.assignments.forGuide(guideid, caller);
  }
}
