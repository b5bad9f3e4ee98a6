import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ApiException, unauthorized } from '../../common/http/api-errors';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import type { UserWithTokenDto } from '../users/dto/user-response.dto';
import type { UserEntity } from '../users/entities/user.entity';
import { UserAccountsService } from '../users/user-accounts.service';
import { UsersService } from '../users/users.service';
import { AuthTokenService } from './auth-token.service';
import type { LoginDto, RegisterDto } from './dto/login.dto';
import { LIMITS, LoginRateLimiter } from './login-rate-limiter';
import { verifyPassword } from './password';

const INVALID = 'Invalid e-mail address or password';

@Injectable()
export class LoginService {
  constructor(
    private readonly accounts: UserAccountsService,
    private readonly users: UsersService,
    private readonly tokens: AuthTokenService,
    private readonly limiter: LoginRateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Same answer and the same work (one password verification) whether or not the address exists;
   * limited per account (failures) and per client address (attempts).
   */
  async login(dto: LoginDto, clientAddress: string, appId?: string): Promise<UserWithTokenDto> {
    const accountKey = `account:${dto.email.toLowerCase()}`;
    const addressKey = `address:${clientAddress}`;
    this.limiter.check(addressKey, LIMITS.attemptsPerAddress);
    this.limiter.check(accountKey, LIMITS.failuresPerAccount);
    this.limiter.hit(addressKey, LIMITS.attemptsPerAddress);
    const user = await this.accounts.findForLogin(dto.email);
    const valid = await verifyPassword(user?.passwordHash, dto.password);
    if (!user || !valid || !user.enabled || user.banned > 0) {
      this.limiter.hit(accountKey, LIMITS.failuresPerAccount);
      throw unauthorized(INVALID);
    }
    this.limiter.reset(accountKey);
    return this.startSession(user, appId);
  }

  async logout(caller: AuthenticatedUser): Promise<void> {
    await this.tokens.revoke(caller.tokenid);
  }

  async register(dto: RegisterDto, clientAddress: string, appId?: string): Promise<UserWithTokenDto> {
    if (!this.config.allowRegistration) throw new ApiException(403, 'Registration is disabled on this site');
    const addressKey = `address:${clientAddress}`;
    this.limiter.check(addressKey, LIMITS.attemptsPerAddress);
    this.limiter.hit(addressKey, LIMITS.attemptsPerAddress);
    const user = await this.accounts.create({
      email: dto.email,
      username: dto.username,
      uniqueUsername: dto.unique_username ?? null,
      password: dto.password,
    });
    return this.startSession(user, appId);
  }

  /** A new token and the user's own detail (the user sees their e-mail). */
  private async startSession(user: UserEntity, appId?: string): Promise<UserWithTokenDto> {
    const authToken = await this.tokens.issue(user.userid, appId);
    const self = { userid: user.userid, username: user.username, privileges: [], tokenid: 0 };
    return { ...(await this.users.detailOf(user, self)), authToken };
  }
}
