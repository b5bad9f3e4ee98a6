import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, Public } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ApiErrors } from '../../common/openapi/api-error-responses';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import { UsersService } from '../users/users.service';
import { UserBadgeDto } from './dto/badge.dto';
import { ReputationService } from './reputation.service';

/** Badges with a user's earned state (`/user/badges`, `/users/{userid}/badges`). */
@ApiTags('Users')
@Controller()
export class BadgesController {
  constructor(
    private readonly users: UsersService,
    private readonly reputation: ReputationService,
  ) {}

  @Get('user/badges')
  @ApiErrors(401, 422)
  @Authenticated()
  @ApiOperation({
    summary: "All badges with the current user's earned state",
    description: 'Earned badges newest first, then the others by badgeid.',
  })
  @ApiQuery({ name: 'category', required: false, enum: ['authoring', 'learning', 'community'] })
  @ApiOkResponse({ type: [UserBadgeDto] })
  myBadges(@CurrentUser() caller: AuthenticatedUser, @Query('category') category?: string): Promise<UserBadgeDto[]> {
    return this.reputation.badgesFor(caller.userid, category);
  }

  @Get('users/:userid/badges')
  @ApiErrors(404, 422)
  @Public()
  @ApiOperation({
    summary: "All badges with a user's earned state",
    description: 'Earned badges newest first, then the others by badgeid.',
  })
  @ApiQuery({ name: 'category', required: false, enum: ['authoring', 'learning', 'community'] })
  @ApiOkResponse({ type: [UserBadgeDto] })
  async badges(
    @Param('userid', new ParseIdPipe('User')) userid: number,
    @Query('category') category?: string,
  ): Promise<UserBadgeDto[]> {
    await this.users.findEntity(userid);
    return this.reputation.badgesFor(userid, category);
  }
}
