import { Body, Controller, Delete, Headers, HttpCode, Ip, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiHeader, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, Public } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { UserWithTokenDto } from '../users/dto/user-response.dto';
import { LoginDto, RegisterDto } from './dto/login.dto';
import { LoginService } from './login.service';
import { ApiErrors } from '../../common/openapi/api-error-responses';

@ApiTags('Authentication')
@Controller()
export class AuthController {
  constructor(private readonly login: LoginService) {}

  @Post('user/token')
  @ApiErrors(401, 422, 429)
  @Public()
  @ApiOperation({
    summary: 'Log in',
    description:
      'Answers the user detail plus `authToken`; send it as `Authorization: api <authToken>`. Wrong credentials: 401 (the same answer and timing whether or not the address exists). Failed logins are limited per account and client address (RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT_ADDRESS, default 10 per 15 minutes) and per account (RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT, default 100): beyond, 429 with Retry-After, even with the right password. Successful logins are never counted.',
  })
  @ApiHeader({ name: 'X-App-Id', required: false, description: 'Recorded with the session; never required.' })
  @ApiCreatedResponse({ type: UserWithTokenDto })
  createToken(
    @Body() body: LoginDto,
    @Ip() ip: string,
    @Headers('x-app-id') appId?: string,
  ): Promise<UserWithTokenDto> {
    return this.login.login(body, ip, appId);
  }

  @Delete('user/token')
  @ApiErrors(401)
  @HttpCode(204)
  @Authenticated()
  @ApiOperation({ summary: 'Log out', description: 'Revokes the token used for this request.' })
  @ApiNoContentResponse({ description: 'The token no longer works.' })
  async deleteToken(@CurrentUser() caller: AuthenticatedUser): Promise<void> {
    await this.login.logout(caller);
  }

  @Post('users')
  @ApiErrors(403, 422, 429)
  @Public()
  @ApiOperation({
    summary: 'Register',
    description:
      'Creates an account (when the site allows registration; else 403) and logs it in: 201 with the user detail plus `authToken`. Malformed e-mail, a password under 10 characters, a taken e-mail or unique_username: 422 naming the field. ' +
      'Called with an Admin’s token it provisions an account: it works whatever ALLOW_REGISTRATION says, answers the same way (the token is the new user’s), and is not counted by the registration rate limit.',
  })
  @ApiCreatedResponse({ type: UserWithTokenDto })
  register(
    @Body() body: RegisterDto,
    @Ip() ip: string,
    @CurrentUser() caller?: AuthenticatedUser,
    @Headers('x-app-id') appId?: string,
  ): Promise<UserWithTokenDto> {
    return this.login.register(body, ip, caller, appId);
  }
}
