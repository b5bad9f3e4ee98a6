import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { parsePrivileges } from '../../common/auth/privileges';
import { nowSeconds } from '../../database/columns';
import { SqlReader } from '../../database/sql-reader';
import { AuthTokenEntity } from './entities/auth-token.entity';

/** last_used_date is refreshed at most this often, so that reads do not each cost a write. */
const LAST_USED_RESOLUTION_SECONDS = 60;

interface TokenRow {
  tokenid: number | string;
  last_used: number | string | null;
  userid: number | string;
  username: string;
  privileges: string;
  enabled: number | string | boolean;
  banned: number | string;
}

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

@Injectable()
export class AuthTokenService {
  private readonly sql: SqlReader;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.sql = new SqlReader(dataSource);
  }

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
    // One hand-written statement on every authenticated request: building it per request cost more than running it.
    const [row] = await this.sql.rows<TokenRow>(
      `SELECT t.tokenid AS tokenid, t.last_used_date AS last_used, u.userid AS userid, u.username AS username,
              u.privileges AS privileges, u.enabled AS enabled, u.banned AS banned
         FROM auth_tokens t INNER JOIN users u ON u.userid = t.userid
        WHERE t.token_hash = ? AND t.revoked_date IS NULL`,
      [hashToken(token)],
    );
    if (!row || !Number(row.enabled) || Number(row.banned) > 0) return undefined;
    const tokenid = Number(row.tokenid);
    const now = nowSeconds();
    if (row.last_used === null || now - Number(row.last_used) >= LAST_USED_RESOLUTION_SECONDS) {
      await this.tokens.update({ tokenid }, { lastUsedDate: now });
    }
    return {
      userid: Number(row.userid),
      username: row.username,
      privileges: parsePrivileges(row.privileges),
      tokenid,
    };
  }

  async revoke(tokenid: number): Promise<void> {
    await this.tokens.update({ tokenid, revokedDate: IsNull() }, { revokedDate: nowSeconds() });
  }
}
