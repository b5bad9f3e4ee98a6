import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ApiErrors } from '../../common/openapi/api-error-responses';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import { RequestSignoffDto, SignSignoffDto } from './dto/work-log-body.dto';
import { SignoffListQueryDto } from './dto/work-log-query.dto';
import { SignoffDto, SignoffListDto } from './dto/work-log-response.dto';
import { WorkLogSignoffsService } from './work-log-signoffs.service';

@ApiTags('Work log')
@Controller('work_log')
export class WorkLogSignoffsController {
  constructor(private readonly signoffs: WorkLogSignoffsService) {}

  @Get('signoffs')
  @ApiErrors(422)
  @Authenticated()
  @ApiOperation({
    summary: 'List sign-offs',
    description: 'Those you may see: your entries’, your teams’, all for Moderator+. `status` defaults to pending.',
  })
  @ApiOkResponse({ type: SignoffListDto })
  list(@Query() query: SignoffListQueryDto, @CurrentUser() caller: AuthenticatedUser): Promise<SignoffListDto> {
    return this.signoffs.list(query, caller);
  }

  @Post(':entryid/signoffs')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @ApiResponse({
    status: 409,
    description:
      'The entry is not started or paused (body: the entry), or a sign-off of the step is pending (body: it).',
  })
  @ApiOperation({
    summary: 'Request a sign-off of a step',
    description:
      'The owner, while started or paused; the step’s form must name a team (422), whose members are mailed.',
  })
  @ApiCreatedResponse({ type: SignoffDto })
  request(
    @Param('entryid', new ParseIdPipe('Entry')) entryid: number,
    @Body() body: RequestSignoffDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<SignoffDto> {
    return this.signoffs.request(entryid, body.stepid, caller);
  }

  @Post('signoffs/:signoffid/sign')
  @HttpCode(200)
  @ApiErrors(403, 404, 422, 429)
  @Authenticated()
  @ApiResponse({ status: 409, description: 'Not pending; the body is the sign-off.', type: SignoffDto })
  @ApiOperation({
    summary: 'Approve or reject a sign-off',
    description:
      'A member of the step’s team who is not the operator, re-entering their password (wrong: 403 ' +
      '"Signature authentication failed"; 5 failures lock signing for 15 minutes: 429). `note` is required to ' +
      'reject. The signature means `verification` (approve) or `rejection`; the requester is mailed.',
  })
  @ApiOkResponse({ type: SignoffDto })
  sign(
    @Param('signoffid', new ParseIdPipe('Signoff')) signoffid: number,
    @Body() body: SignSignoffDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<SignoffDto> {
    return this.signoffs.sign(signoffid, body, caller);
  }
}
