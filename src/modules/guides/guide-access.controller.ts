import { Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import { UserLightDto } from '../users/dto/user-response.dto';
import { GuideTeamDto, GuideTeamsDto } from './dto/guide-response.dto';
import { GuideAccessService } from './guide-access.service';
import { ApiErrors } from '../../common/openapi/api-error-responses';
import { GuideId } from './guide-id.param';

@ApiTags('Guide access')
@Controller('guides/:guideid')
export class GuideAccessController {
  constructor(private readonly access: GuideAccessService) {}

  @Get('users')
  @ApiErrors(403, 404)
  @Authenticated()
  @ApiOperation({ summary: 'Users granted on a guide', description: 'Callers who can read the guide; by userid.' })
  @ApiOkResponse({ type: [UserLightDto] })
  users(@GuideId() guideid: number, @CurrentUser() caller: AuthenticatedUser): Promise<UserLightDto[]> {
    return this.access.users(guideid, caller);
  }

  @Put('users/:userid')
  @ApiErrors(403, 404)
  @HttpCode(201)
  @Authenticated()
  @ApiOperation({
    summary: 'Grant a user read and edit access',
    description: 'By those who may edit the guide. Unknown user: 404. Already granted: no change. 201 with the list.',
  })
  @ApiCreatedResponse({ type: [UserLightDto] })
  grantUser(
    @GuideId() guideid: number,
    @Param('userid', new ParseIdPipe('User')) userid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<UserLightDto[]> {
    return this.access.grantUser(guideid, userid, caller);
  }

  @Delete('users/:userid')
  @ApiErrors(403, 404)
  @Authenticated()
  @ApiOperation({ summary: 'Revoke a user’s access', description: 'Not granted: no change. Answers the list.' })
  @ApiOkResponse({ type: [UserLightDto] })
  revokeUser(
    @GuideId() guideid: number,
    @Param('userid', new ParseIdPipe('User')) userid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<UserLightDto[]> {
    return this.access.revokeUser(guideid, userid, caller);
  }

  @Get('teams')
  @ApiErrors(403, 404)
  @Authenticated()
  @ApiOperation({ summary: 'Teams granted on a guide', description: 'With the caller’s rights on the guide.' })
  @ApiOkResponse({ type: GuideTeamsDto })
  teams(@GuideId() guideid: number, @CurrentUser() caller: AuthenticatedUser): Promise<GuideTeamsDto> {
    return this.access.teamsOf(guideid, caller);
  }

  @Put('teams/:teamid')
  @ApiErrors(403, 404)
  @HttpCode(201)
  @Authenticated()
  @ApiOperation({
    summary: 'Grant a team read and edit access',
    description: 'Its members may then read and edit the guide. Unknown team: 404. 201 with the team list.',
  })
  @ApiCreatedResponse({ type: [GuideTeamDto] })
  grantTeam(
    @GuideId() guideid: number,
    @Param('teamid', new ParseIdPipe('Team')) teamid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<GuideTeamDto[]> {
    return this.access.grantTeam(guideid, teamid, caller);
  }

  @Delete('teams/:teamid')
  @ApiErrors(403, 404)
  @Authenticated()
  @ApiOperation({ summary: 'Revoke a team’s access', description: 'Not granted: no change.' })
  @ApiOkResponse({ type: GuideTeamsDto })
  revokeTeam(
    @GuideId() guideid: number,
    @Param('teamid', new ParseIdPipe('Team')) teamid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<GuideTeamsDto> {
    return this.access.revokeTeam(guideid, teamid, caller);
  }
}
