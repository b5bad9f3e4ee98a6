import { createUser } from '../factories/user.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';

describe('users endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('GET /users', () => {
    it('answers 422 for a bad limit or order', async () => {
      expect((await t.inject({ method: 'GET', url: '/api/2.0/users?limit=0' })).statusCode).toBe(422);
      expect((await t.inject({ method: 'GET', url: '/api/2.0/users?order=up' })).statusCode).toBe(422);
    });

    it('lists by userid with enabled/banned, hides disabled and banned accounts from non-Admins, filters by joinedSince', async () => {
      const a = await createUser(t, { joinDate: 1000, privilege: 'Moderator' });
      const b = await createUser(t, { joinDate: 2000 });
      const off = await createUser(t, { joinDate: 3000, enabled: false });
      const banned = await createUser(t, { joinDate: 4000, banned: 1234 });
      const admin = await createUser(t, { joinDate: 5000, privilege: 'Admin' });
      const res = await t.inject({ method: 'GET', url: '/api/2.0/users' });
      expect(res.statusCode).toBe(200);
      const items = res.json<{ userid: number }[]>();
      expect(items.map((u) => u.userid)).toEqual([a.user.userid, b.user.userid, admin.user.userid]);
      expect(items[0]).toEqual({
        userid: a.user.userid,
        username: a.user.username,
        unique_username: a.user.uniqueUsername,
        join_date: 1000,
        image: expect.objectContaining({ id: 0, original: `${t.config.publicUrl}/api/2.0/media/placeholders/avatar.original.png` }),
        reputation: 0,
        url: `${t.config.publicUrl}/User/${a.user.userid}/${encodeURIComponent(a.user.username).replace(/%20/g, '+')}`,
        teams: [],
        privileges: ['Moderator'],
        enabled: true,
        banned: 0,
      });
      expect(JSON.stringify(items)).not.toContain('@');
      const desc = await t.inject({ method: 'GET', url: '/api/2.0/users?order=desc&limit=2' });
      expect(desc.json().map((u: { userid: number }) => u.userid)).toEqual([admin.user.userid, b.user.userid]);
      const since = await t.inject({ method: 'GET', url: '/api/2.0/users?joinedSince=2000' });
      expect(since.json().map((u: { userid: number }) => u.userid)).toEqual([b.user.userid, admin.user.userid]);
      const all = await t.as(admin.token, { method: 'GET', url: '/api/2.0/users' });
      expect(all.json().map((u: { userid: number }) => u.userid)).toEqual([
        a.user.userid,
        b.user.userid,
        off.user.userid,
        banned.user.userid,
        admin.user.userid,
      ]);
      const onlyBanned = await t.as(admin.token, { method: 'GET', url: '/api/2.0/users?banned=true' });
      expect(onlyBanned.json()).toEqual([expect.objectContaining({ userid: banned.user.userid, banned: 1234 })]);
      const onlyDisabled = await t.as(admin.token, { method: 'GET', url: '/api/2.0/users?enabled=false' });
      expect(onlyDisabled.json()).toEqual([expect.objectContaining({ userid: off.user.userid, enabled: false })]);
    });

    it('runs a bounded number of SQL statements for 200 users', async () => {
      for (let i = 0; i < 30; i += 1) await createUser(t);
      const res = await t.inject({ method: 'GET', url: '/api/2.0/users?limit=200' });
      expect(res.json().length).toBeGreaterThan(30);
      expect(sqlCount(res)).toBeLessThanOrEqual(3);
    });
  });

  describe('GET /users/{userid}', () => {
    it('answers 404 for an unknown or malformed id', async () => {
      for (const id of ['999999', 'abc', '0', '-1']) {
        const res = await t.inject({ method: 'GET', url: `/api/2.0/users/${id}` });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: true, message: 'User not found' });
      }
    });

    it('shows the public profile with rendered about text; e-mail only to self and Admins; account fields only to Admins', async () => {
      const { user, token } = await createUser(t, {
        aboutRaw: "I fix '''phones'''.<script>x</script>",
        summary: 'Repairer',
      });
      const other = await createUser(t);
      const admin = await createUser(t, { privilege: 'Admin' });
      const anonymous = (await t.inject({ method: 'GET', url: `/api/2.0/users/${user.userid}` })).json();
      expect(anonymous).toMatchObject({
        userid: user.userid,
        summary: 'Repairer',
        about_raw: "I fix '''phones'''.<script>x</script>",
        about_rendered: '<p>I fix <strong>phones</strong>.&lt;script&gt;x&lt;/script&gt;</p>',
        badge_counts: { bronze: 0, silver: 0, gold: 0, total: 0 },
        certification_count: 0,
        greatest_privilege: 'User',
      });
      expect(anonymous.email).toBeUndefined();
      expect(
        (await t.as(other.token, { method: 'GET', url: `/api/2.0/users/${user.userid}` })).json().email,
      ).toBeUndefined();
      const self = (await t.as(token, { method: 'GET', url: `/api/2.0/users/${user.userid}` })).json();
      expect(self.email).toBe(user.email);
      expect(self.enabled).toBeUndefined();
      const byAdmin = (await t.as(admin.token, { method: 'GET', url: `/api/2.0/users/${user.userid}` })).json();
      expect(byAdmin).toMatchObject({
        email: user.email,
        enabled: true,
        banned: 0,
        sso_userid: null,
        employee_id: null,
      });
      for (const body of [anonymous, self, byAdmin]) expect(JSON.stringify(body)).not.toMatch(/password|hash|token/i);
    });
  });

  describe('Admin lookups: /users/email, /users/sso, /users/employee_id', () => {
    it('answers 401 anonymously, 403 with requiredPrivileges to non-Admins, 404 when absent', async () => {
      const mod = await createUser(t, { privilege: 'Moderator' });
      const admin = await createUser(t, { privilege: 'Admin' });
      for (const url of [
        '/api/2.0/users/email/a@b.example',
        '/api/2.0/users/sso/x1',
        '/api/2.0/users/employee_id/E1',
      ]) {
        expect((await t.inject({ method: 'GET', url })).statusCode).toBe(401);
        const forbidden = await t.as(mod.token, { method: 'GET', url });
        expect(forbidden.statusCode).toBe(403);
        expect(forbidden.json()).toEqual({
          error: true,
          message: 'Insufficient privileges',
          requiredPrivileges: ['Admin'],
        });
        expect((await t.as(admin.token, { method: 'GET', url })).statusCode).toBe(404);
      }
    });

    it('finds by e-mail (any case), SSO id and employee id', async () => {
      const admin = await createUser(t, { privilege: 'Admin' });
      const { user } = await createUser(t, { email: 'lookup@users.example', ssoUserid: 'sso-77', employeeId: 'EMP-9' });
      for (const url of [
        '/api/2.0/users/email/LOOKUP@users.example',
        '/api/2.0/users/sso/sso-77',
        '/api/2.0/users/employee_id/EMP-9',
      ]) {
        const res = await t.as(admin.token, { method: 'GET', url });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({
          userid: user.userid,
          email: 'lookup@users.example',
          sso_userid: 'sso-77',
          employee_id: 'EMP-9',
        });
      }
    });
  });

  describe('PATCH /users/{userid}', () => {
    it('answers 401 anonymously, 403 for another user, 403 for Admin-only fields, 404 for an unknown user', async () => {
      const { user, token } = await createUser(t);
      const other = await createUser(t);
      expect(
        (await t.inject({ method: 'PATCH', url: `/api/2.0/users/${user.userid}`, payload: { summary: 'x' } }))
          .statusCode,
      ).toBe(401);
      const foreign = await t.as(other.token, {
        method: 'PATCH',
        url: `/api/2.0/users/${user.userid}`,
        payload: { summary: 'x' },
      });
      expect(foreign.statusCode).toBe(403);
      expect(foreign.json().requiredPrivileges).toEqual(['Admin']);
      for (const payload of [
        { privileges: ['Admin'] },
        { enabled: false },
        { banned: true },
        { email: 'new@users.example' },
        { sso_userid: 'x' },
        { employee_id: 'y' },
      ]) {
        const res = await t.as(token, { method: 'PATCH', url: `/api/2.0/users/${user.userid}`, payload });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({
          error: true,
          message: `Only an Admin may change ${Object.keys(payload)[0]}`,
          requiredPrivileges: ['Admin'],
        });
      }
      const admin = await createUser(t, { privilege: 'Admin' });
      expect(
        (await t.as(admin.token, { method: 'PATCH', url: '/api/2.0/users/999999', payload: { summary: 'x' } }))
          .statusCode,
      ).toBe(404);
    });

    it('answers 422 for invalid values, a taken unique username, and a wrong current password', async () => {
      const { user, token } = await createUser(t, { password: 'the old password' });
      await createUser(t, { uniqueUsername: 'alreadyhere' });
      const url = `/api/2.0/users/${user.userid}`;
      const cases: [Record<string, unknown>, string][] = [
        [{ unique_username: 'x' }, 'unique_username'],
        [{ unique_username: 'AlreadyHere' }, 'unique_username'],
        [{ langid: 'english' }, 'langid'],
        [{ password: 'short' }, 'password'],
        [{ password: 'a new long password', current_password: 'wrong one' }, 'current_password'],
        [{ username: '' }, 'username'],
        [{ unknown_field: 1 }, 'unknown_field'],
      ];
      for (const [payload, field] of cases) {
        const res = await t.as(token, { method: 'PATCH', url, payload });
        expect({
          payload,
          status: res.statusCode,
          fields: res.json().errors?.map((e: { field: string }) => e.field),
        }).toEqual({ payload, status: 422, fields: expect.arrayContaining([field]) });
      }
    });

    it('lets a user change their profile and password, answering the detail', async () => {
      const { user, token } = await createUser(t, { password: 'the old password' });
      const res = await t.as(token, {
        method: 'PATCH',
        url: `/api/2.0/users/${user.userid}`,
        payload: {
          username: 'Renamed',
          unique_username: 'Renamed_1',
          summary: 'Hi',
          about_raw: '== Me ==',
          langid: 'de',
          password: 'the new password',
          current_password: 'the old password',
        },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        username: 'Renamed',
        unique_username: 'renamed_1',
        summary: 'Hi',
        about_raw: '== Me ==',
        about_rendered: '<h2>Me</h2>',
        langid: 'de',
        email: user.email,
      });
      const login = await t.inject({
        method: 'POST',
        url: '/api/2.0/user/token',
        payload: { email: user.email, password: 'the new password' },
      });
      expect(login.statusCode).toBe(201);
    });

    it('lets an Admin change privileges, and the change takes effect on the next request', async () => {
      const admin = await createUser(t, { privilege: 'Admin' });
      const { user, token } = await createUser(t);
      expect((await t.as(token, { method: 'GET', url: '/api/2.0/users/email/x@y.example' })).statusCode).toBe(403);
      const res = await t.as(admin.token, {
        method: 'PATCH',
        url: `/api/2.0/users/${user.userid}`,
        payload: { privileges: ['Admin', 'Author'], sso_userid: 'sso-1', employee_id: 'E-1' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        privileges: ['Admin', 'Author'],
        greatest_privilege: 'Admin',
        sso_userid: 'sso-1',
        employee_id: 'E-1',
      });
      expect((await t.as(token, { method: 'GET', url: '/api/2.0/users/email/x@y.example' })).statusCode).toBe(404);
    });

    it("lets an Admin ban and disable: the user's tokens stop working at once", async () => {
      const admin = await createUser(t, { privilege: 'Admin' });
      const banned = await createUser(t);
      await t.as(admin.token, {
        method: 'PATCH',
        url: `/api/2.0/users/${banned.user.userid}`,
        payload: { banned: true },
      });
      expect((await t.as(banned.token, { method: 'GET', url: '/api/2.0/user' })).statusCode).toBe(401);
      const unbanned = await t.as(admin.token, {
        method: 'PATCH',
        url: `/api/2.0/users/${banned.user.userid}`,
        payload: { banned: false },
      });
      expect(unbanned.json().banned).toBe(0);
      expect((await t.as(banned.token, { method: 'GET', url: '/api/2.0/user' })).statusCode).toBe(200);
      const disabled = await createUser(t);
      await t.as(admin.token, {
        method: 'PATCH',
        url: `/api/2.0/users/${disabled.user.userid}`,
        payload: { enabled: false },
      });
      expect((await t.as(disabled.token, { method: 'GET', url: '/api/2.0/user' })).statusCode).toBe(401);
    });

    it('answers 404 for an avatar image that does not exist', async () => {
      const { user, token } = await createUser(t);
      const res = await t.as(token, {
        method: 'PATCH',
        url: `/api/2.0/users/${user.userid}`,
        payload: { image: 424242 },
      });
      expect(res.statusCode).toBe(404);
    });
  });
});
