import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { parsePrivileges } from '../../common/auth/privileges';
import { nowSeconds } from '../../database/columns';
import { AuthTokenEntity } from './entities/auth-token.entity';

/** last_used_date is refreshed at most this often, so that reads do not each cost a write. */
const LAST_USED_RESOLUTION_SECONDS = 60;

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

@Injectable()
export class AuthTokenService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get tokens() {
    return this.dataSource.getRepository(AuthTokenEntity);
  }

  /** Creates a session; the plain token is returned once and only its hash is stored. */
  async issue(userid: number, appId?: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.tokens.insert({
      userid,
      tokenHash: hashToken(token),
      appId: appId?.slice(0, 255) ?? null,
      createdDate: nowSeconds(),
      lastUsedDate: null,
      revokedDate: null,
    });
    return token;
  }

  /** The user behind a live token of an enabled account, or undefined. */
  async authenticate(token: string): Promise<AuthenticatedUser | undefined> {
    const row = await this.tokens.findOne({
      where: { tokenHash: hashToken(token), revokedDate: IsNull() },
      relations: { user: true },
    });
    const user = row?.user;
    if (!row || !user || !user.enabled || user.banned > 0) return undefined;
    const now = nowSeconds();
    if (row.lastUsedDate === null || now - row.lastUsedDate >= LAST_USED_RESOLUTION_SECONDS) {
      await this.tokens.update({ tokenid: row.tokenid }, { lastUsedDate: now });
    }
    return {
      userid: user.userid,
      username: user.username,
      privileges: parsePrivileges(user.privileges),
      tokenid: row.tokenid,
    };
  }

  async revoke(tokenid: number): Promise<void> {
    await this.tokens.update({ tokenid, revokedDate: IsNull() }, { revokedDate: nowSeconds() });
  }
}
