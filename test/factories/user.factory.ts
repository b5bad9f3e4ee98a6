import { DataSource } from 'typeorm';
import type { Privilege } from '../../src/common/auth/privileges';
import { nowSeconds } from '../../src/database/columns';
import { AuthTokenService } from '../../src/modules/auth/auth-token.service';
import { hashPassword } from '../../src/common/security/password';
import { UserEntity } from '../../src/modules/users/entities/user.entity';
import type { TestApp } from '../utils/test-app';

let sequence = 0;

export interface CreatedUser {
  user: UserEntity;
  token: string;
}

/** Inserts a user directly (no API) and issues a token for it. */
export async function createUser(
  testApp: TestApp,
  overrides: Partial<UserEntity> & { privilege?: Privilege; password?: string } = {},
): Promise<CreatedUser> {
  sequence += 1;
  const { privilege, password, ...fields } = overrides;
  const repository = testApp.app.get(DataSource).getRepository(UserEntity);
  const user = await repository.save(
    repository.create({
      email: `user${sequence}@example.test`,
      username: `User ${sequence}`,
      uniqueUsername: `user${sequence}`,
      passwordHash: password ? await hashPassword(password) : null,
      privileges: privilege && privilege !== 'User' ? privilege : '',
      joinDate: nowSeconds(),
      aboutRaw: '',
      ...fields,
    }),
  );
  const token = await testApp.app.get(AuthTokenService).issue(user.userid);
  return { user, token };
}
