import { Body, Controller, Delete, Headers, HttpCode, Ip, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiHeader,
  ApiNoContentResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser, Public } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { UserWithTokenDto } from '../users/dto/user-response.dto';
import { LoginDto, RegisterDto } from './dto/login.dto';
import { LoginService } from './login.service';

@ApiTags('Authentication')
@Controller()
export class AuthController {
  constructor(private readonly login: LoginService) {}

  @Post('user/token')
  @Public()
  @ApiOperation({
    summary: 'Log in',
    description:
      'Answers the user detail plus `authToken`; send it as `Authorization: api <authToken>`. Wrong credentials: 401 (the same answer and timing whether or not the address exists). Limited per account (10 failures in 15 minutes) and per client address (50 attempts in 15 minutes): 429 with Retry-After.',
  })
  @ApiHeader({ name: 'X-App-Id', required: false, description: 'Recorded with the session; never required.' })
  @ApiCreatedResponse({ type: UserWithTokenDto })
  @ApiUnauthorizedResponse({ description: 'Invalid e-mail address or password.' })
  @ApiTooManyRequestsResponse({ description: 'Too many attempts; see Retry-After.' })
  createToken(
    @Body() body: LoginDto,
    @Ip() ip: string,
    @Headers('x-app-id') appId?: string,
  ): Promise<UserWithTokenDto> {
    return this.login.login(body, ip, appId);
  }

  @Delete('user/token')
  @HttpCode(204)
  @Authenticated()
  @ApiOperation({ summary: 'Log out', description: 'Revokes the token used for this request.' })
  @ApiNoContentResponse({ description: 'The token no longer works.' })
  async deleteToken(@CurrentUser() caller: AuthenticatedUser): Promise<void> {
    await this.login.logout(caller);
  }

  @Post('users')
  @Public()
  @ApiOperation({
    summary: 'Register',
    description:
      'Creates an account (when the site allows registration; else 403) and logs it in: 201 with the user detail plus `authToken`. Malformed e-mail, a password under 10 characters, a taken e-mail or unique_username: 422 naming the field.',
  })
  @ApiCreatedResponse({ type: UserWithTokenDto })
  register(
    @Body() body: RegisterDto,
    @Ip() ip: string,
    @Headers('x-app-id') appId?: string,
  ): Promise<UserWithTokenDto> {
    return this.login.register(body, ip, appId);
  }
}
