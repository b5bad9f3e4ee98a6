import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { hasPrivilege } from '../../common/auth/privileges';
import { ApiException, unauthorized } from '../../common/http/api-errors';
import { RateLimitsService } from '../../common/rate-limit/rate-limits.service';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import type { UserWithTokenDto } from '../users/dto/user-response.dto';
import type { UserEntity } from '../users/entities/user.entity';
import { UserAccountsService } from '../users/user-accounts.service';
import { UsersService } from '../users/users.service';
import { AuthTokenService } from './auth-token.service';
import type { LoginDto, RegisterDto } from './dto/login.dto';
import { verifyPassword } from '../../common/security/password';

const INVALID = 'Invalid e-mail address or password';

@Injectable()
export class LoginService {
  constructor(
    private readonly accounts: UserAccountsService,
    private readonly users: UsersService,
    private readonly tokens: AuthTokenService,
    private readonly limits: RateLimitsService,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Same answer and the same work (one password verification) whether or not the address exists.
   * Failed logins are limited per account and per account + client address; successful ones never count,
   * so many people behind one address (an office, a proxy) can log in at once.
   */
  async login(dto: LoginDto, clientAddress: string, appId?: string): Promise<UserWithTokenDto> {
    await this.limits.assertLoginAllowed(dto.email, clientAddress);
    const user = await this.accounts.findForLogin(dto.email);
    const valid = await verifyPassword(user?.passwordHash, dto.password);
    if (!user || !valid || !user.enabled || user.banned > 0) {
      await this.limits.countFailedLogin(dto.email, clientAddress);
      throw unauthorized(INVALID);
    }
    return this.startSession(user, appId);
  }

  async logout(caller: AuthenticatedUser): Promise<void> {
    await this.transactions.run(async () => {
      await this.tokens.revoke(caller.tokenid);
      await this.audit.record({
        action: 'token.revoke',
        entity: ['user', caller.userid],
        after: { tokenid: caller.tokenid },
      });
    });
  }

  /** Self-registration, or an Admin provisioning an account (docs/api-conventions.md: allowed always, never rate-limited). */
  async register(
    dto: RegisterDto,
    clientAddress: string,
    caller: AuthenticatedUser | undefined,
    appId?: string,
  ): Promise<UserWithTokenDto> {
    const provisioning = caller !== undefined && hasPrivilege(caller.privileges, 'Admin');
    if (!provisioning) {
      if (!this.config.allowRegistration) throw new ApiException(403, 'Registration is disabled on this site');
      await this.limits.countRegistration(clientAddress);
    }
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
