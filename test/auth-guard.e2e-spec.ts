import { DataSource } from 'typeorm';
import { AuthTokenService } from '../src/modules/auth/auth-token.service';
import { UserEntity } from '../src/modules/users/entities/user.entity';
import { AuthTokenEntity } from '../src/modules/auth/entities/auth-token.entity';
import { createUser } from './factories/user.factory';
import { ConventionsTestModule } from './support/conventions-test.module';
import { createTestApp, sqlCount, type TestApp } from './utils/test-app';

const T = '/api/2.0/__test';

describe('access guard (docs/api-conventions.md)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ extraModules: [ConventionsTestModule] });
  });
  afterAll(() => t.close());

  it('answers 401 without a token on an authenticated route', async () => {
    const res = await t.inject({ method: 'GET', url: `${T}/private` });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: true, message: 'Authentication required' });
  });

  it('answers 401 for a header that is not "api <token>"', async () => {
    const { token } = await createUser(t);
    for (const authorization of [`Bearer ${token}`, 'api', token, `api ${token} extra`]) {
      const res = await t.inject({ method: 'GET', url: `${T}/private`, headers: { authorization } });
      expect({ authorization, status: res.statusCode, body: res.json() }).toEqual({
        authorization,
        status: 401,
        body: { error: true, message: 'The Authorization header must be "api <token>"' },
      });
    }
  });

  it('authenticates a token in one SQL statement (plus one write at most once a minute)', async () => {
    const { token } = await createUser(t);
    const first = await t.as(token, { method: 'GET', url: `${T}/private` });
    expect(first.statusCode).toBe(200);
    expect(sqlCount(first)).toBe(2);
    const second = await t.as(token, { method: 'GET', url: `${T}/private` });
    expect(sqlCount(second)).toBe(1);
    expect(sqlCount(await t.inject({ method: 'GET', url: `${T}/public` }))).toBe(0);
  });

  it('answers 401 for an unknown token, on public routes too', async () => {
    for (const url of [`${T}/private`, `${T}/public`]) {
      const res = await t.as('not-a-real-token', { method: 'GET', url });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: true, message: 'The token is invalid or has been revoked' });
    }
  });

  it('lets a valid token in, case-insensitive scheme word, and exposes the caller', async () => {
    const { user, token } = await createUser(t, { privilege: 'Author' });
    const res = await t.inject({ method: 'GET', url: `${T}/private`, headers: { authorization: `API ${token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ userid: user.userid, privileges: ['Author'] });
    expect((await t.as(token, { method: 'GET', url: `${T}/public` })).json()).toEqual({ userid: user.userid });
    expect((await t.inject({ method: 'GET', url: `${T}/public` })).json()).toEqual({ userid: null });
  });

  it('answers 403 with requiredPrivileges below the route privilege, and lets higher ones in', async () => {
    const author = await createUser(t, { privilege: 'Author' });
    const res = await t.as(author.token, { method: 'GET', url: `${T}/moderators` });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: true,
      message: 'Insufficient privileges',
      requiredPrivileges: ['Admin', 'Moderator'],
    });
    for (const privilege of ['Moderator', 'Admin'] as const) {
      const { token } = await createUser(t, { privilege });
      expect((await t.as(token, { method: 'GET', url: `${T}/moderators` })).statusCode).toBe(200);
    }
  });

  it('refuses a route that declares no rule (deny by default)', async () => {
    const { token } = await createUser(t, { privilege: 'Admin' });
    for (const auth of [undefined, token]) {
      const res = await t.as(auth, { method: 'GET', url: `${T}/undeclared` });
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain('leaked');
    }
  });

  it('stops accepting a revoked token and a disabled or banned account at once', async () => {
    const revoked = await createUser(t);
    const row = await t.dataSource.getRepository(AuthTokenEntity).findOneByOrFail({ userid: revoked.user.userid });
    await t.app.get(AuthTokenService).revoke(row.tokenid);
    expect((await t.as(revoked.token, { method: 'GET', url: `${T}/private` })).statusCode).toBe(401);

    const disabled = await createUser(t);
    await t.dataSource.getRepository(UserEntity).update({ userid: disabled.user.userid }, { enabled: false });
    expect((await t.as(disabled.token, { method: 'GET', url: `${T}/private` })).statusCode).toBe(401);

    const banned = await createUser(t);
    await t.dataSource.getRepository(UserEntity).update({ userid: banned.user.userid }, { banned: 1700000000 });
    expect((await t.as(banned.token, { method: 'GET', url: `${T}/private` })).statusCode).toBe(401);
  });

  it('takes a privilege change into account on the next request', async () => {
    const { user, token } = await createUser(t);
    expect((await t.as(token, { method: 'GET', url: `${T}/moderators` })).statusCode).toBe(403);
    await t.dataSource.getRepository(UserEntity).update({ userid: user.userid }, { privileges: 'Moderator' });
    expect((await t.as(token, { method: 'GET', url: `${T}/moderators` })).statusCode).toBe(200);
  });

  it('stores only a hash of the token and records when it was last used', async () => {
    const { user, token } = await createUser(t);
    await t.as(token, { method: 'GET', url: `${T}/private` });
    const rows = await t.app.get(DataSource).getRepository(AuthTokenEntity).findBy({ userid: user.userid });
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].tokenHash).not.toContain(token);
    expect(rows[0].lastUsedDate).toBeGreaterThan(0);
  });
});
