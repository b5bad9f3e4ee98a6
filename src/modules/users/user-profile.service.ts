import { isAdmin } from '../../common/auth/privileges';
import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { InsufficientPrivilegesException, unprocessable } from '../../common/http/api-errors';
import { isUniqueViolation } from '../../database/errors';
import { nowSeconds } from '../../database/columns';
import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';

const splitList = (value: string): string[] => value.split(',').filter(Boolean);
import { hashPassword, verifyPassword } from '../../common/security/password';
import { UserAboutWritten } from './user.events';
import { AVATAR_SOURCE, type AvatarSource } from './avatar-source';
import type { UserEntity } from './entities/user.entity';
import { ADMIN_ONLY_FIELDS, type UpdateUserDto } from './dto/update-user.dto';
import type { UserDetailDto } from './dto/user-response.dto';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Injectable()
export class UserProfileService {
  constructor(
    private readonly users: UsersRepository,
    private readonly reads: UsersService,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    @Inject(AVATAR_SOURCE) private readonly avatars: AvatarSource,
  ) {}

  async update(userid: number, dto: UpdateUserDto, caller: AuthenticatedUser): Promise<UserDetailDto> {
    const admin = isAdmin(caller);
    if (!admin && caller.userid !== userid) throw new InsufficientPrivilegesException(['Admin']);
    const adminFields = ADMIN_ONLY_FIELDS.filter((field) => dto[field] !== undefined);
    if (!admin && adminFields.length) {
      throw new InsufficientPrivilegesException(['Admin'], `Only an Admin may change ${adminFields.join(', ')}`);
    }
    const user = await this.reads.findEntity(userid);
    const changes = await this.changesFor(user, dto, admin && caller.userid !== userid);
    try {
      await this.transactions.run(async (tx) => {
        await this.users.update(userid, changes);
        if (changes.imageid !== undefined) {
          await this.avatars.setUsage('user', userid, changes.imageid === null ? [] : [changes.imageid]);
        }
        if (changes.aboutRaw && changes.aboutRaw.trim() !== '') tx.publish(UserAboutWritten({ userid }));
        await this.auditSecurityChanges(user, changes);
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const field = dto.email !== undefined ? 'email' : dto.unique_username ? 'unique_username' : 'sso_userid';
      throw unprocessable(`That ${field} is already taken`, field);
    }
    return this.reads.detail(userid, caller);
  }

  /** Privileges, bans, enabling, password and identity changes go to the audit log (never the values of secrets). */
  private async auditSecurityChanges(user: UserEntity, changes: Partial<UserEntity>): Promise<void> {
    const entity: [string, number] = ['user', user.userid];
    if (changes.privileges !== undefined && changes.privileges !== user.privileges) {
      await this.audit.record({
        action: 'user.privileges',
        entity,
        before: { privileges: splitList(user.privileges) },
        after: { privileges: splitList(changes.privileges) },
      });
    }
    if (changes.banned !== undefined && Boolean(changes.banned) !== Boolean(user.banned)) {
      await this.audit.record({
        action: changes.banned ? 'user.ban' : 'user.unban',
        entity,
        before: { banned: user.banned },
        after: { banned: changes.banned },
      });
    }
    if (changes.enabled !== undefined && changes.enabled !== user.enabled) {
      await this.audit.record({ action: changes.enabled ? 'user.enable' : 'user.disable', entity });
    }
    if (changes.passwordHash !== undefined) await this.audit.record({ action: 'user.password', entity });
    const identity = (['email', 'ssoUserid', 'employeeId'] as const).filter(
      (key) => changes[key] !== undefined && changes[key] !== user[key],
    );
    if (identity.length) {
      await this.audit.record({
        action: 'user.identity',
        entity,
        before: Object.fromEntries(identity.map((key) => [key, user[key]])),
        after: Object.fromEntries(identity.map((key) => [key, changes[key]])),
      });
    }
  }

  private async changesFor(user: UserEntity, dto: UpdateUserDto, adminForOther: boolean): Promise<Partial<UserEntity>> {
    const changes: Partial<UserEntity> = {};
    if (dto.username !== undefined) changes.username = dto.username;
    if (dto.summary !== undefined) changes.summary = dto.summary;
    if (dto.about_raw !== undefined) changes.aboutRaw = dto.about_raw;
    if (dto.langid !== undefined) changes.langid = dto.langid;
    if (dto.unique_username !== undefined) {
      if (dto.unique_username !== null && dto.unique_username !== user.uniqueUsername) {
        const [taken] = await this.users.findByUniqueUsernames([dto.unique_username]);
        if (taken) throw unprocessable('That unique_username is already taken', 'unique_username');
      }
      changes.uniqueUsername = dto.unique_username;
    }
    if (dto.image !== undefined) {
      if (dto.image !== null) await this.avatars.assertImagesUsableBy(user.userid, [dto.image]);
      changes.imageid = dto.image;
    }
    if (dto.password !== undefined) {
      if (!adminForOther && !(await verifyPassword(user.passwordHash, dto.current_password ?? ''))) {
        throw unprocessable('current_password is incorrect', 'current_password');
      }
      changes.passwordHash = await hashPassword(dto.password);
    }
    if (dto.email !== undefined && dto.email !== user.email) {
      if (await this.users.findByEmail(dto.email)) throw unprocessable('That email is already taken', 'email');
      changes.email = dto.email;
    }
    if (dto.privileges !== undefined) changes.privileges = dto.privileges.join(',');
    if (dto.enabled !== undefined) changes.enabled = dto.enabled;
    if (dto.banned !== undefined) changes.banned = dto.banned ? user.banned || nowSeconds() : 0;
    if (dto.sso_userid !== undefined) changes.ssoUserid = dto.sso_userid;
    if (dto.employee_id !== undefined) changes.employeeId = dto.employee_id;
    return changes;
  }
}
