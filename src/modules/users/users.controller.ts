import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, Public } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { PaginationQueryDto } from '../../common/validation/pagination.dto';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import { ListUsersQueryDto, SearchUsersQueryDto } from './dto/user-query.dto';
import { UserDetailDto, UserListItemDto } from './dto/user-response.dto';
import { NameSearchResultDto, UserSearchResultDto } from './dto/user-search.dto';
import { UpdateUserDto } from './dto/update-user.dto';
import { UserProfileService } from './user-profile.service';
import { UsersService } from './users.service';
import { ApiErrors } from '../../common/openapi/api-error-responses';

@ApiTags('Users')
@Controller('users')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly profiles: UserProfileService,
  ) {}

  @Get()
  @ApiErrors(422)
  @Public()
  @ApiOperation({
    summary: 'List users',
    description:
      'Sorted by userid. Everyone sees enabled, unbanned accounts; Admins see all and may filter with `enabled` and `banned`.',
  })
  @ApiOkResponse({ type: [UserListItemDto] })
  list(@Query() query: ListUsersQueryDto, @CurrentUser() caller?: AuthenticatedUser): Promise<UserListItemDto[]> {
    return this.users.list(query, caller);
  }

  @Get('search/:search')
  @ApiErrors(422)
  @Public()
  @ApiOperation({
    summary: 'Search users',
    description:
      'A numeric term returns that user. Otherwise: exact unique_username, exact username, exact e-mail (Admin callers only), then partial matches in the same order; ties by userid. Case-insensitive. Non-Admins never match e-mail addresses nor see disabled or banned accounts.',
  })
  @ApiOkResponse({ type: UserSearchResultDto })
  search(
    @Param('search') search: string,
    @Query() query: SearchUsersQueryDto,
    @CurrentUser() caller?: AuthenticatedUser,
  ): Promise<UserSearchResultDto> {
    return this.users.search(
      search,
      { uniqueOnly: query.uniqueOnly ?? false, offset: query.offset, limit: query.limit },
      caller,
    );
  }

  @Get('searchnames/:search')
  @ApiErrors(422)
  @Public()
  @ApiOperation({
    summary: 'Search user names (deprecated: use /users/search/{search})',
    description:
      'Exact (case-insensitive) username or unique_username matches first, then partial matches alphabetically.',
    deprecated: true,
  })
  @ApiOkResponse({ type: NameSearchResultDto })
  searchNames(@Param('search') search: string, @Query() query: PaginationQueryDto): Promise<NameSearchResultDto> {
    return this.users.searchNames(search, query.offset, query.limit);
  }

  @Get(':userid')
  @ApiErrors(404)
  @Public()
  @ApiOperation({
    summary: 'User detail',
    description: 'E-mail only to the user and Admins; account fields only to Admins.',
  })
  @ApiOkResponse({ type: UserDetailDto })
  @ApiNotFoundResponse({ description: 'No such user.' })
  detail(
    @Param('userid', new ParseIdPipe('User')) userid: number,
    @CurrentUser() caller?: AuthenticatedUser,
  ): Promise<UserDetailDto> {
    return this.users.detail(userid, caller);
  }

  @Patch(':userid')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @ApiOperation({
    summary: 'Change a user',
    description:
      'The user or an Admin changes profile fields (username, unique_username, summary, about_raw, langid, image, password — a user changing their own password sends current_password). Only Admins change email, privileges, enabled, banned, sso_userid and employee_id (403 otherwise). Answers the user detail.',
  })
  @ApiOkResponse({ type: UserDetailDto })
  update(
    @Param('userid', new ParseIdPipe('User')) userid: number,
    @Body() body: UpdateUserDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<UserDetailDto> {
    return this.profiles.update(userid, body, caller);
  }
}
