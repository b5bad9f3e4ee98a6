import { Controller, Get, Inject } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { hasPrivilege } from '../../common/auth/privileges';
import { GUIDE_FLAGS } from '../../common/flags/guide-flags';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { flagIconUrl } from '../../common/flags/icon-urls';
import { FlagDto, UserFlagsDto } from './dto/flags.dto';
import { UserDetailDto } from './dto/user-response.dto';
import { UsersService } from './users.service';
import { ApiErrors } from '../../common/openapi/api-error-responses';

/** The current user (`/user…`). */
@ApiTags('Users')
@Controller()
@ApiExtraModels(FlagDto)
export class CurrentUserController {
  constructor(
    private readonly users: UsersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('user')
  @ApiErrors(401)
  @Authenticated()
  @ApiOperation({ summary: 'The current user', description: "The caller's own detail, with e-mail; no token." })
  @ApiOkResponse({ type: UserDetailDto })
  me(@CurrentUser() caller: AuthenticatedUser): Promise<UserDetailDto> {
    return this.users.detail(caller.userid, caller);
  }

  @Get('user/flags')
  @ApiErrors(401)
  @Authenticated()
  @ApiOperation({
    summary: 'Guide flags the current user may add and remove',
    description:
      'The flags the caller may add to and remove from guides, keyed by flag id, each with its title and icon.',
  })
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
}
