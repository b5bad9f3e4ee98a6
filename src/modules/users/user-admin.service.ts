import { Injectable } from '@nestjs/common';
import { isEmail } from 'class-validator';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { unauthorized } from '../../common/http/api-errors';
import { isUniqueViolation } from '../../database/errors';
import { nowSeconds } from '../../database/columns';
import { TransactionService } from '../../database/transaction.service';
import type {
  CreateByEmailResultDto,
  CreateByEmailsDto,
  CreateByEmailsResponseDto,
  CreatedUserDto,
  UniqueUsernameResultDto,
  UniqueUsernamesDto,
  UniqueUsernamesResponseDto,
} from './dto/user-admin.dto';
import { UNIQUE_USERNAME, UNIQUE_USERNAME_RULE } from './dto/update-user.dto';
import { toUserSummary } from './user.mapper';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

/** Display name made from an address: "jane.doe@x" → "jane.doe". */
export const usernameFromEmail = (email: string): string => email.split('@')[0].slice(0, 255) || email;

@Injectable()
export class UserAdminService {
  constructor(
    private readonly users: UsersRepository,
    private readonly reads: UsersService,
    private readonly transactions: TransactionService,
  ) {}

  /**
   * Creates accounts (without a password: they sign in through SSO, or an Admin sets one) for every
   * valid new address, in one transaction, and reports each address's outcome.
   */
  async createByEmails(dto: CreateByEmailsDto, admin: AuthenticatedUser): Promise<CreateByEmailsResponseDto> {
    return this.transactions.run(async () => {
      const normalized = dto.emails.map((email) => email.trim().toLowerCase());
      const existing = new Map((await this.users.findByEmails(normalized)).map((u) => [u.email, u.userid]));
      const seen = new Set<string>();
      const results: CreateByEmailResultDto[] = [];
      let created = 0;
      for (const email of normalized) {
        if (!isEmail(email)) {
          results.push({ email, status: 'invalid', message: 'Not an e-mail address' });
        } else if (seen.has(email)) {
          results.push({ email, status: 'duplicate', message: 'Listed more than once' });
        } else if (existing.has(email)) {
          results.push({ email, status: 'exists', userid: existing.get(email) });
        } else {
          const user = await this.users.insert({
            email,
            username: usernameFromEmail(email),
            uniqueUsername: null,
            passwordHash: null,
            privileges: (dto.privileges ?? []).join(','),
            joinDate: nowSeconds(),
            aboutRaw: '',
            createdByUserid: admin.userid,
          });
          results.push({ email, status: 'created', userid: user.userid });
          created += 1;
        }
        seen.add(email);
      }
      return { created, results };
    });
  }

  async createdUsers(offset: number, limit: number): Promise<CreatedUserDto[]> {
    const users = await this.users.listCreatedBy(offset, limit);
    const ctx = await this.reads.context(users);
    return users.map((u) => ({ ...toUserSummary(u, ctx), email: u.email, created_by: u.createdByUserid }));
  }

  async uniqueUsernames(dto: UniqueUsernamesDto, caller?: AuthenticatedUser): Promise<UniqueUsernamesResponseDto> {
    if (dto.reserve && !caller) throw unauthorized('Reserving a unique username needs authentication');
    const names = dto.unique_usernames.map((name) => name.trim().toLowerCase());
    const taken = new Set(
      (await this.users.findByUniqueUsernames(names.filter((n) => UNIQUE_USERNAME.test(n)))).map(
        (u) => u.uniqueUsername,
      ),
    );
    const results: UniqueUsernameResultDto[] = names.map((name) => {
      if (!UNIQUE_USERNAME.test(name))
        return { unique_username: name, valid: false, available: false, message: UNIQUE_USERNAME_RULE };
      return taken.has(name)
        ? { unique_username: name, valid: true, available: false, message: 'Already taken' }
        : { unique_username: name, valid: true, available: true };
    });
    let reserved: string | null = null;
    if (dto.reserve && caller) {
      for (const candidate of results.filter((r) => r.available)) {
        try {
          await this.users.update(caller.userid, { uniqueUsername: candidate.unique_username });
          reserved = candidate.unique_username;
          break;
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          candidate.available = false;
          candidate.message = 'Already taken';
        }
      }
    }
    return { results, reserved };
  }
}
