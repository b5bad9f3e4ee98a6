import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, Public } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { CreatedUsersQueryDto } from './dto/user-query.dto';
import { UserDetailDto } from './dto/user-response.dto';
import {
  CreateByEmailsDto,
  CreateByEmailsResponseDto,
  CreatedUserDto,
  UniqueUsernamesDto,
  UniqueUsernamesResponseDto,
} from './dto/user-admin.dto';
import { UserAdminService } from './user-admin.service';
import { UsersService } from './users.service';
import { ApiErrors } from '../../common/openapi/api-error-responses';

/** Admin lookups and account administration (docs/api-conventions.md: Admin only, others 403). */
@ApiTags('Users')
@Controller('users')
export class UserLookupsController {
  constructor(
    private readonly users: UsersService,
    private readonly admin: UserAdminService,
  ) {}

  @Get('sso/:sso_userid')
  @ApiErrors(403, 404)
  @Authenticated('Admin')
  @ApiOperation({
    summary: 'Find a user by SSO user id (Admin)',
    description: 'The user detail of the account linked to this single sign-on id; 404 when none is.',
  })
  @ApiOkResponse({ type: UserDetailDto })
  bySso(@Param('sso_userid') ssoUserid: string, @CurrentUser() caller: AuthenticatedUser): Promise<UserDetailDto> {
    return this.users.detailBy('sso', ssoUserid, caller);
  }

  @Get('email/:email')
  @ApiErrors(403, 404)
  @Authenticated('Admin')
  @ApiOperation({
    summary: 'Find a user by e-mail address (Admin)',
    description:
      'The user detail of the account with this e-mail address (compared without case); 404 when none has it.',
  })
  @ApiOkResponse({ type: UserDetailDto })
  byEmail(@Param('email') email: string, @CurrentUser() caller: AuthenticatedUser): Promise<UserDetailDto> {
    return this.users.detailBy('email', email.trim().toLowerCase(), caller);
  }

  @Get('employee_id/:employee_id')
  @ApiErrors(403, 404)
  @Authenticated('Admin')
  @ApiOperation({
    summary: 'Find a user by employee id (Admin)',
    description: 'The user detail of the account with this employee id; 404 when none has it.',
  })
  @ApiOkResponse({ type: UserDetailDto })
  byEmployeeId(
    @Param('employee_id') employeeId: string,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<UserDetailDto> {
    return this.users.detailBy('employee', employeeId, caller);
  }

  @Get('created_users')
  @ApiErrors(403, 422)
  @Authenticated('Admin')
  @ApiOperation({
    summary: 'Accounts created by Admins through createByEmails, newest first (Admin)',
    description: 'Paged with `offset` and `limit`; each entry says who created the account and when.',
  })
  @ApiOkResponse({ type: [CreatedUserDto] })
  createdUsers(@Query() query: CreatedUsersQueryDto): Promise<CreatedUserDto[]> {
    return this.admin.createdUsers(query.offset, query.limit);
  }

  @Post('createByEmails')
  @ApiErrors(403, 422)
  @HttpCode(200)
  @Authenticated('Admin')
  @ApiOperation({
    summary: 'Create accounts for a list of e-mail addresses (Admin)',
    description:
      'Every valid new address gets an account (no password: it signs in through SSO, or an Admin sets one with PATCH). The answer lists every address with its outcome: created, exists, invalid or duplicate. Created accounts are committed together.',
  })
  @ApiOkResponse({ type: CreateByEmailsResponseDto })
  createByEmails(
    @Body() body: CreateByEmailsDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<CreateByEmailsResponseDto> {
    return this.admin.createByEmails(body, caller);
  }

  @Post('unique_usernames')
  @ApiErrors(422)
  @HttpCode(200)
  @Public()
  @ApiOperation({
    summary: 'Check unique usernames, or reserve one',
    description:
      "Reports for each name whether it is valid (3–30 characters of a-z, 0-9, _; compared lower-case) and available. With `reserve: true` (authentication required), the first valid, available name becomes the caller's unique username; `reserved` says which, or null.",
  })
  @ApiOkResponse({ type: UniqueUsernamesResponseDto })
  uniqueUsernames(
    @Body() body: UniqueUsernamesDto,
    @CurrentUser() caller?: AuthenticatedUser,
  ): Promise<UniqueUsernamesResponseDto> {
    return this.admin.uniqueUsernames(body, caller);
  }
}
