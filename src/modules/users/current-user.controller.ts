import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, Public } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { hasPrivilege } from '../../common/auth/privileges';
import { GUIDE_FLAGS } from '../../common/flags/guide-flags';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import { flagIconUrl } from '../icons/icon-urls';
import { UserBadgeDto } from '../reputation/dto/badge.dto';
import { ReputationService } from '../reputation/reputation.service';
import { FlagDto, UserFlagsDto } from './dto/flags.dto';
import { UserDetailDto } from './dto/user-response.dto';
import { UsersService } from './users.service';

/** The current user (`/user…`) and badges. */
@ApiTags('Users')
@Controller()
@ApiExtraModels(FlagDto)
export class CurrentUserController {
  constructor(
    private readonly users: UsersService,
    private readonly reputation: ReputationService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('user')
  @Authenticated()
  @ApiOperation({ summary: 'The current user', description: "The caller's own detail, with e-mail; no token." })
  @ApiOkResponse({ type: UserDetailDto })
  me(@CurrentUser() caller: AuthenticatedUser): Promise<UserDetailDto> {
    return this.users.detail(caller.userid, caller);
  }

  @Get('user/flags')
  @Authenticated()
  @ApiOperation({ summary: 'Guide flags the current user may add and remove' })
  @ApiOkResponse({ type: UserFlagsDto })
  flags(@CurrentUser() caller: AuthenticatedUser): UserFlagsDto {
    const guide: Record<string, FlagDto> = {};
    for (const flag of GUIDE_FLAGS.filter((f) => hasPrivilege(caller.privileges, f.privilege))) {
      guide[flag.flagid] = {
        flagid: flag.flagid,
        image: flagIconUrl(this.config.publicUrl, flag.flagid),
        title: flag.title,
        text: flag.text,
      };
    }
    return { guide };
  }

  @Get('user/badges')
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
