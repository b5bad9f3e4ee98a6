import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DemoSeed } from '../../database/seed/demo-seed.decorator';
import { randomBytes } from 'node:crypto';
import { unprocessable } from '../../common/http/api-errors';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { nowSeconds } from '../../database/columns';
import { isUniqueViolation } from '../../database/errors';
import { DEMO_LOGIN, DemoSeedRegistry, NO_ADMIN, type DemoLogin } from '../../database/seed/demo-seed.registry';
import { hashPassword, verifyPassword } from '../../common/security/password';
import type { UserEntity } from './entities/user.entity';
import { UsersRepository } from './users.repository';

export interface NewAccount {
  email: string;
  username: string;
  uniqueUsername?: string | null;
  password: string | null;
  privileges?: string[];
}

export /** Under this key the demo users' ids (Admin, Moderator, Author, User) are shared with later demo steps. */
const DEMO_USERIDS = 'demo.userids';

const DEMO_ACCOUNTS = [
  { email: 'admin@demo.example', username: 'Demo Admin', uniqueUsername: 'demo_admin', privileges: ['Admin'] },
  {
    email: 'moderator@demo.example',
    username: 'Demo Moderator',
    uniqueUsername: 'demo_moderator',
    privileges: ['Moderator'],
  },
  { email: 'author@demo.example', username: 'Demo Author', uniqueUsername: 'demo_author', privileges: ['Author'] },
  { email: 'user@demo.example', username: 'Demo User', uniqueUsername: 'demo_user', privileges: [] },
] as const;

/** Creating accounts and finding them for login; also the ADMIN_EMAIL bootstrap and the demo users. */
@Injectable()
export class UserAccountsService implements OnModuleInit {
  private readonly logger = new Logger('Accounts');

  constructor(
    private readonly users: UsersRepository,
    private readonly seeds: DemoSeedRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.seeds.setEmptinessCheck(async () => (await this.users.count()) === 0);
    this.seeds.onStartup({ name: 'ADMIN_EMAIL account', order: 10, run: () => this.ensureConfiguredAdmin() });
    this.seeds.onReady(async () => this.seeds.share(NO_ADMIN, !(await this.hasAdmin())));
  }

  findForLogin(email: string): Promise<UserEntity | null> {
    return this.users.findByEmail(email.trim().toLowerCase());
  }

  /** 422 naming the field on a taken e-mail or unique username. */
  async create(account: NewAccount): Promise<UserEntity> {
    const email = account.email.trim().toLowerCase();
    if (await this.users.findByEmail(email)) throw unprocessable('An account with that email already exists', 'email');
    if (account.uniqueUsername && (await this.users.findByUniqueUsernames([account.uniqueUsername])).length) {
      throw unprocessable('That unique_username is already taken', 'unique_username');
    }
    try {
      return await this.users.insert({
        email,
        username: account.username,
        uniqueUsername: account.uniqueUsername ?? null,
        passwordHash: account.password === null ? null : await hashPassword(account.password),
        privileges: (account.privileges ?? []).join(','),
        joinDate: nowSeconds(),
        aboutRaw: '',
      });
    } catch (error) {
      if (isUniqueViolation(error))
        throw unprocessable('An account with that email or unique_username already exists', 'email');
      throw error;
    }
  }

  /**
   * Sets a new password for the account with this e-mail (npm run admin:password, ADMIN_PASSWORD at start);
   * false when there is no such account.
   */
  async setPassword(email: string, password: string): Promise<boolean> {
    const account = await this.findForLogin(email);
    if (!account) return false;
    await this.users.update(account.userid, { passwordHash: await hashPassword(password) });
    return true;
  }

  /** Whether any account holds Admin. */
  async hasAdmin(): Promise<boolean> {
    return (await this.users.firstAdmin()) !== null;
  }

  /**
   * ADMIN_EMAIL exists, is enabled and is an Admin, and ADMIN_PASSWORD is its password: set when the
   * account is created, and reset when it differs (how an operator recovers access; the log says so,
   * never the password).
   */
  private async ensureConfiguredAdmin(): Promise<void> {
    const admin = this.config.admin;
    if (!admin) return;
    const existing = await this.users.findByEmail(admin.email);
    if (!existing) {
      await this.create({
        email: admin.email,
        username: 'Administrator',
        password: admin.password,
        privileges: ['Admin'],
      });
      this.logger.log(`created the Admin account ${admin.email}`);
      return;
    }
    if (!(await verifyPassword(existing.passwordHash, admin.password))) {
      await this.users.update(existing.userid, { passwordHash: await hashPassword(admin.password) });
      this.logger.warn(`reset the password of ${admin.email} to ADMIN_PASSWORD`);
    }
    const privileges = new Set(existing.privileges.split(',').filter(Boolean));
    if (!privileges.has('Admin') || !existing.enabled || existing.banned) {
      privileges.add('Admin');
      await this.users.update(existing.userid, { privileges: [...privileges].join(','), enabled: true, banned: 0 });
      this.logger.log(`made ${admin.email} an enabled Admin`);
    }
  }

  @DemoSeed({ name: 'demo users', order: 10 })
  private async seedDemoUsers(): Promise<void> {
    const password = randomBytes(9).toString('base64url');
    const userids: number[] = [];
    for (const account of DEMO_ACCOUNTS) {
      userids.push((await this.create({ ...account, privileges: [...account.privileges], password })).userid);
    }
    this.seeds.share(DEMO_USERIDS, userids);
    this.seeds.share<DemoLogin>(DEMO_LOGIN, {
      accounts: DEMO_ACCOUNTS.map((account) => ({ email: account.email, privilege: account.privileges[0] ?? 'User' })),
      password,
    });
    // The password is never logged: the start-up summary shows it (main.ts), outside production only.
    this.logger.warn(`demo accounts created: ${DEMO_ACCOUNTS.map((a) => a.email).join(', ')}`);
  }
}
