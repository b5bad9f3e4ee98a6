import { UserEntity } from '../../src/modules/users/entities/user.entity';
import { DEMO_LOGIN, DemoSeedRegistry, type DemoLogin } from '../../src/database/seed/demo-seed.registry';
import { createUser } from '../factories/user.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

describe('account administration', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { privilege: 'Admin' });
  });
  afterAll(() => t.close());

  describe('POST /users/createByEmails', () => {
    it('answers 401, 403 for non-Admins, 422 for a bad body', async () => {
      const mod = await createUser(t, { privilege: 'Moderator' });
      expect(
        (await t.inject({ method: 'POST', url: '/api/2.0/users/createByEmails', payload: { emails: ['a@b.example'] } }))
          .statusCode,
      ).toBe(401);
      expect(
        (
          await t.as(mod.token, {
            method: 'POST',
            url: '/api/2.0/users/createByEmails',
            payload: { emails: ['a@b.example'] },
          })
        ).statusCode,
      ).toBe(403);
      for (const payload of [
        {},
        { emails: [] },
        { emails: 'a@b.example' },
        { emails: ['a@b.example'], privileges: ['Root'] },
      ]) {
        expect(
          (await t.as(admin.token, { method: 'POST', url: '/api/2.0/users/createByEmails', payload })).statusCode,
        ).toBe(422);
      }
    });

    it('reports every address: created, exists, invalid, duplicate; creates the valid new ones', async () => {
      const existing = await createUser(t, { email: 'old@bulk.example' });
      const res = await t.as(admin.token, {
        method: 'POST',
        url: '/api/2.0/users/createByEmails',
        payload: {
          emails: [
            'New.One@bulk.example',
            'old@bulk.example',
            'not-an-address',
            'new.one@bulk.example',
            'two@bulk.example',
          ],
          privileges: ['Author'],
        },
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toEqual({
        created: 2,
        results: [
          { email: 'new.one@bulk.example', status: 'created', userid: expect.any(Number) },
          { email: 'old@bulk.example', status: 'exists', userid: existing.user.userid },
          { email: 'not-an-address', status: 'invalid', message: 'Not an e-mail address' },
          { email: 'new.one@bulk.example', status: 'duplicate', message: 'Listed more than once' },
          { email: 'two@bulk.example', status: 'created', userid: expect.any(Number) },
        ],
      });
      const created = await t.dataSource.getRepository(UserEntity).findOneByOrFail({ userid: body.results[0].userid });
      expect(created).toMatchObject({
        username: 'new.one',
        privileges: 'Author',
        passwordHash: null,
        createdByUserid: admin.user.userid,
      });

      const list = await t.as(admin.token, { method: 'GET', url: '/api/2.0/users/created_users' });
      expect(list.statusCode).toBe(200);
      expect(list.json().map((u: { email: string; created_by: number }) => [u.email, u.created_by])).toEqual([
        ['two@bulk.example', admin.user.userid],
        ['new.one@bulk.example', admin.user.userid],
      ]);
      const user = await createUser(t);
      expect((await t.as(user.token, { method: 'GET', url: '/api/2.0/users/created_users' })).statusCode).toBe(403);
    });
  });

  describe('POST /users/unique_usernames', () => {
    it('answers 422 for a bad body and 401 when reserving anonymously', async () => {
      expect(
        (await t.inject({ method: 'POST', url: '/api/2.0/users/unique_usernames', payload: { unique_usernames: [] } }))
          .statusCode,
      ).toBe(422);
      expect(
        (
          await t.inject({
            method: 'POST',
            url: '/api/2.0/users/unique_usernames',
            payload: { unique_usernames: ['free_one'], reserve: true },
          })
        ).statusCode,
      ).toBe(401);
    });

    it('checks validity and availability, and reserves the first free name for the caller', async () => {
      await createUser(t, { uniqueUsername: 'taken_name' });
      const { user, token } = await createUser(t, { uniqueUsername: null });
      const check = await t.inject({
        method: 'POST',
        url: '/api/2.0/users/unique_usernames',
        payload: { unique_usernames: ['Taken_Name', 'no!', 'Free_Name'] },
      });
      expect(check.statusCode).toBe(200);
      expect(check.json()).toEqual({
        reserved: null,
        results: [
          { unique_username: 'taken_name', valid: true, available: false, message: 'Already taken' },
          {
            unique_username: 'no!',
            valid: false,
            available: false,
            message: 'unique_username must be 3 to 30 characters of a-z, 0-9 and _',
          },
          { unique_username: 'free_name', valid: true, available: true },
        ],
      });
      const reserve = await t.as(token, {
        method: 'POST',
        url: '/api/2.0/users/unique_usernames',
        payload: { unique_usernames: ['taken_name', 'free_name'], reserve: true },
      });
      expect(reserve.json().reserved).toBe('free_name');
      expect((await t.inject({ method: 'GET', url: `/api/2.0/users/${user.userid}` })).json().unique_username).toBe(
        'free_name',
      );
    });
  });
});

describe('bootstrap Admin and demo users', () => {
  it('creates the ADMIN_EMAIL Admin at start; it can log in', async () => {
    const t = await createTestApp({ env: { ADMIN_EMAIL: 'Root@Boot.example', ADMIN_PASSWORD: 'bootstrap password' } });
    try {
      const login = await t.inject({
        method: 'POST',
        url: '/api/2.0/user/token',
        payload: { email: 'root@boot.example', password: 'bootstrap password' },
      });
      expect(login.statusCode).toBe(201);
      expect(login.json()).toMatchObject({ privileges: ['Admin'], username: 'Administrator' });
    } finally {
      await t.close();
    }
  });

  it('seeds demo users of every privilege on an empty database, their password in no log line', async () => {
    const lines: string[] = [];
    const logStream = { write: (line: string) => lines.push(line) };
    const t = await createTestApp({ env: { SEED_DEMO: 'true', LOG_LEVEL: 'info' }, logStream });
    try {
      const users = await t.dataSource.getRepository(UserEntity).find({ order: { userid: 'ASC' } });
      expect(users.map((u) => [u.email, u.privileges])).toEqual(
        expect.arrayContaining([
          ['admin@demo.example', 'Admin'],
          ['moderator@demo.example', 'Moderator'],
          ['author@demo.example', 'Author'],
          ['user@demo.example', ''],
        ]),
      );
      // The log names the accounts, never their password: the start-up block shows it (DEMO_LOGIN, main.ts).
      const announcement = lines.find((line) => line.includes('demo accounts created'));
      expect(announcement).toContain('admin@demo.example');
      const password = t.app.get(DemoSeedRegistry).get<DemoLogin>(DEMO_LOGIN)?.password;
      expect(password).toBeDefined();
      expect(lines.join('')).not.toContain(password);
      const login = await t.inject({
        method: 'POST',
        url: '/api/2.0/user/token',
        payload: { email: 'admin@demo.example', password },
      });
      expect(login.statusCode).toBe(201);
      // the other modules' demo content, created on behalf of the demo Admin
      const tree = (await t.inject({ method: 'GET', url: '/api/2.0/wikis/CATEGORY?display=hierarchy' })).json();
      expect(Object.keys(tree.hierarchy).length).toBeGreaterThan(0);
      const guides = (await t.inject({ method: 'GET', url: '/api/2.0/guides' })).json<
        { userid: number; image: unknown }[]
      >();
      expect(guides.length).toBeGreaterThanOrEqual(4);
      const admin = await t.dataSource.getRepository(UserEntity).findOneByOrFail({ email: 'admin@demo.example' });
      expect(guides.some((g) => g.userid === admin.userid)).toBe(true);
      expect(guides.every((g) => g.image !== null)).toBe(true);
      expect((await t.inject({ method: 'GET', url: `/api/2.0/wikis/USER/${admin.userid}` })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
