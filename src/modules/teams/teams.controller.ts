import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, Public } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import { UserLightDto } from '../users/dto/user-response.dto';
import { CreateTeamDto, ListTeamsQueryDto, TeamDto, TeamMembersQueryDto } from './dto/team.dto';
import { TeamDirectoryService } from './team-directory.service';
import { ApiErrors } from '../../common/openapi/api-error-responses';

@ApiTags('Teams')
@Controller('teams')
export class TeamsController {
  constructor(private readonly teams: TeamDirectoryService) {}

  @Get()
  @ApiErrors(422)
  @Public()
  @ApiOperation({
    summary: 'List teams',
    description: 'Ordered by teamid; aggregates count enabled, unbanned members.',
  })
  @ApiOkResponse({ type: [TeamDto] })
  list(@Query() query: ListTeamsQueryDto): Promise<TeamDto[]> {
    return this.teams.list(query);
  }

  @Post()
  @ApiErrors(403, 422)
  @Authenticated('Moderator')
  @ApiOperation({
    summary: 'Create a team (Moderator+)',
    description: 'Names are unique (422 otherwise). The first member added becomes the owner.',
  })
  @ApiCreatedResponse({ type: TeamDto })
  create(@Body() body: CreateTeamDto, @CurrentUser() caller: AuthenticatedUser): Promise<TeamDto> {
    return this.teams.create(body, caller);
  }

  @Get(':teamid')
  @ApiErrors(404, 422)
  @Public()
  @ApiOperation({
    summary: 'Team members',
    description: 'All enabled, unbanned members ordered by userid; not paginated.',
  })
  @ApiOkResponse({ type: [UserLightDto] })
  members(
    @Param('teamid', new ParseIdPipe('Team')) teamid: number,
    @Query() query: TeamMembersQueryDto,
  ): Promise<UserLightDto[]> {
    return this.teams.members(teamid, query.order);
  }

  @Put(':teamid/users/:userid')
  @ApiErrors(403, 404)
  @Authenticated()
  @ApiOperation({
    summary: 'Add a team member',
    description:
      'By the team owner or a Moderator+ (403 otherwise). Idempotent. Answers the member list ordered by userid.',
  })
  @ApiOkResponse({ type: [UserLightDto] })
  add(
    @Param('teamid', new ParseIdPipe('Team')) teamid: number,
    @Param('userid', new ParseIdPipe('User')) userid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<UserLightDto[]> {
    return this.teams.addMember(teamid, userid, caller);
  }

  @Delete(':teamid/users/:userid')
  @ApiErrors(403, 404)
  @Authenticated()
  @ApiOperation({
    summary: 'Remove a team member',
    description:
      'By the member, the team owner or a Moderator+. A removed owner is succeeded by the earliest-joined member. Answers the remaining members ordered by userid.',
  })
  @ApiOkResponse({ type: [UserLightDto] })
  remove(
    @Param('teamid', new ParseIdPipe('Team')) teamid: number,
    @Param('userid', new ParseIdPipe('User')) userid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<UserLightDto[]> {
    return this.teams.removeMember(teamid, userid, caller);
  }
}
