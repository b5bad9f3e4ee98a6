import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiConflictResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { CachedResponse } from '../../platform/response-cache/cached-response';
import { ApiErrors } from '../../common/openapi/api-error-responses';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import { APPROVAL_ANSWER_SOURCES, ApprovalRequestsService } from './approval-requests.service';
import { ApprovalSigningService } from './approval-signing.service';
import { ListRequestsQueryDto, SignRequestDto } from './dto/request-body.dto';
import { ApprovalRequestDto, SignCodeSentDto } from './dto/request-response.dto';

const RequestId = () => Param('approval_requestid', new ParseIdPipe('Approval request'));

/** Approval requests and their signatures (docs/enterprise/approvals.md, A8-A11). */
@ApiTags('Approvals')
@Controller('approvals')
export class ApprovalRequestsController {
  constructor(
    private readonly requests: ApprovalRequestsService,
    private readonly signing: ApprovalSigningService,
  ) {}

  @Get('requests')
  @ApiErrors(403)
  @Authenticated()
  @ApiOperation({
    summary: 'List approval requests (A8)',
    description:
      '`eligibility`: `mine` (default; requested by the caller or naming them in a stage, directly or through a ' +
      'team), `eligible` (the caller can sign now) or `all` (Admin only, 403 otherwise). Ordered by approval_requestid. ' +
      '`eligible` on each request says whether the caller may sign now.',
  })
  @ApiOkResponse({ type: [ApprovalRequestDto] })
  @CachedResponse({ family: 'answers-approvals', sources: APPROVAL_ANSWER_SOURCES })
  list(@Query() query: ListRequestsQueryDto, @CurrentUser() caller: AuthenticatedUser): Promise<ApprovalRequestDto[]> {
    return this.requests.list(query, caller);
  }

  @Get('request/:approval_requestid')
  @ApiErrors(404)
  @Authenticated()
  @ApiOperation({
    summary: 'An approval request (A9)',
    description: 'For Admins, the requester and anyone named in a stage; 404 for everyone else.',
  })
  @ApiOkResponse({ type: ApprovalRequestDto })
  get(@RequestId() id: number, @CurrentUser() caller: AuthenticatedUser): Promise<ApprovalRequestDto> {
    return this.requests.get(id, caller);
  }

  @Post('request/sign/:approval_requestid')
  @HttpCode(200)
  @ApiErrors(403, 404, 422, 429)
  @Authenticated()
  @ApiOperation({
    summary: 'Approve or reject with an electronic signature (A10)',
    description:
      'An eligible signer (the open stage’s user or a member of its team, who has not signed this stage and did not ' +
      'request it) re-enters `password` or a mailed `sign_token` (exactly one). A rejection needs a `note`. Not ' +
      'pending: 409 with the request; not eligible: 403 `Not eligible to sign`; wrong secret: 403 `Signature ' +
      'authentication failed`; 5 failures in 15 minutes lock signing for 15 minutes (429 with Retry-After). The last ' +
      'approval of the last stage releases the release; a rejection rejects it.',
  })
  @ApiOkResponse({ type: ApprovalRequestDto })
  @ApiConflictResponse({ type: ApprovalRequestDto, description: 'The request is not pending: its current state.' })
  sign(
    @RequestId() id: number,
    @Body() body: SignRequestDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<ApprovalRequestDto> {
    return this.signing.sign(id, body, caller);
  }

  @Post('request/sign/:approval_requestid/token')
  @HttpCode(202)
  @ApiErrors(403, 404, 429)
  @Authenticated()
  @ApiOperation({
    summary: 'Mail a one-time sign code (A11)',
    description:
      'An eligible signer gets a 6-digit code by e-mail, valid 10 minutes, single use, for the open stage; a new code ' +
      'voids the old one; a 4th code within 15 minutes is 429. The code is never in the answer.',
  })
  @ApiAcceptedResponse({ type: SignCodeSentDto })
  @ApiConflictResponse({ type: ApprovalRequestDto, description: 'The request is not pending: its current state.' })
  token(@RequestId() id: number, @CurrentUser() caller: AuthenticatedUser): Promise<SignCodeSentDto> {
    return this.signing.issueCode(id, caller);
  }
}
