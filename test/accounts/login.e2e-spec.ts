import { AuthTokenEntity } from '../../src/modules/auth/entities/auth-token.entity';
import { UserEntity } from '../../src/modules/users/entities/user.entity';
import { createUser } from '../factories/user.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

const PASSWORD = 'correct horse battery';
const avatar = (base: string) => {
  const url = (size: string) => `${base}/api/2.0/media/placeholders/avatar.${size}.png`;
  return {
    id: 0,
    guid: 'defaultavatar000',
    mini: url('mini'),
    thumbnail: url('thumbnail'),
    '140x105': url('140x105'),
    '200x150': url('200x150'),
    standard: url('standard'),
    '440x330': url('440x330'),
    medium: url('medium'),
    large: url('large'),
    huge: url('huge'),
    original: url('original'),
  };
};

describe('authentication endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('POST /user/token', () => {
    it('answers 422 for a body without email or password', async () => {
      const res = await t.inject({ method: 'POST', url: '/api/2.0/user/token', payload: { email: 'a@b.example' } });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        error: true,
        message: 'password is required',
        errors: [{ message: 'password is required', field: 'password' }],
      });
    });

    it('answers 401 for a wrong password and for an unknown address, with the same body', async () => {
      await createUser(t, { email: 'known@login.example', password: PASSWORD });
      const wrong = await t.inject({
        method: 'POST',
        url: '/api/2.0/user/token',
        payload: { email: 'known@login.example', password: 'not the password' },
      });
      const unknown = await t.inject({
        method: 'POST',
        url: '/api/2.0/user/token',
        payload: { email: 'nobody@login.example', password: 'whatever pass' },
      });
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json()).toEqual({ error: true, message: 'Invalid e-mail address or password' });
      expect(unknown.json()).toEqual(wrong.json());
    });

    it('takes about as long for an unknown address as for a wrong password (one argon2 verification each)', async () => {
      await createUser(t, { email: 'timing@login.example', password: PASSWORD });
      const once = async (email: string, i: number) => {
        const start = process.hrtime.bigint();
        await t.inject({
          method: 'POST',
          url: '/api/2.0/user/token',
          payload: { email, password: `wrong password ${i}` },
          remoteAddress: `10.9.${i}.1`,
        });
        return Number(process.hrtime.bigint() - start) / 1e6;
      };
      const known: number[] = [];
      const unknown: number[] = [];
      // interleaved, so that load on the machine hits both kinds alike; medians resist outliers
      for (let i = 0; i < 8; i += 1) {
        known.push(await once('timing@login.example', i));
        unknown.push(await once('nobody-timing@login.example', i));
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const ratio = median(unknown) / median(known);
      expect(ratio).toBeGreaterThan(0.5);
      expect(ratio).toBeLessThan(2);
    });

    it('logs in: 201 with the user detail, e-mail and authToken; the token works and is recorded with X-App-Id', async () => {
      const { user } = await createUser(t, {
        email: 'Jane@Login.example'.toLowerCase(),
        username: 'Jane Doe',
        uniqueUsername: 'janedoe',
        password: PASSWORD,
        privilege: 'Author',
      });
      const res = await t.inject({
        method: 'POST',
        url: '/api/2.0/user/token',
        payload: { email: ' JANE@login.example ', password: PASSWORD },
        headers: { 'x-app-id': 'my-app' },
      });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toEqual({
        userid: user.userid,
        username: 'Jane Doe',
        unique_username: 'janedoe',
        join_date: user.joinDate,
        image: avatar(t.config.publicUrl),
        reputation: 0,
        url: `${t.config.publicUrl}/User/${user.userid}/Jane+Doe`,
        teams: [],
        privileges: ['Author'],
        certification_count: 0,
        badge_counts: { bronze: 0, silver: 0, gold: 0, total: 0 },
        summary: '',
        about_raw: '',
        about_rendered: '',
        langid: 'en',
        greatest_privilege: 'Author',
        email: 'jane@login.example',
        authToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });
      expect(JSON.stringify(body)).not.toMatch(/password|hash/i);
      const me = await t.as(body.authToken, { method: 'GET', url: '/api/2.0/user' });
      expect(me.statusCode).toBe(200);
      const { authToken: _token, ...detail } = body;
      expect(me.json()).toEqual(detail);
      const tokens = await t.dataSource.getRepository(AuthTokenEntity).findBy({ userid: user.userid });
      expect(tokens.map((x) => x.appId)).toEqual([null, 'my-app']); // the factory's token, then the login's
    });

    it('refuses a disabled or banned account with the same 401', async () => {
      await createUser(t, { email: 'off@login.example', password: PASSWORD, enabled: false });
      await createUser(t, { email: 'banned@login.example', password: PASSWORD, banned: 1700000000 });
      for (const email of ['off@login.example', 'banned@login.example']) {
        const res = await t.inject({
          method: 'POST',
          url: '/api/2.0/user/token',
          payload: { email, password: PASSWORD },
        });
        expect(res.statusCode).toBe(401);
      }
    });

    it('limits failed logins per account and address: 429 with Retry-After, even with the right password', async () => {
      await createUser(t, { email: 'limited@login.example', password: PASSWORD });
      for (let i = 0; i < 10; i += 1) {
        const res = await t.inject({
          method: 'POST',
          url: '/api/2.0/user/token',
          payload: { email: 'limited@login.example', password: 'nope nope nope' },
          remoteAddress: '10.1.0.1',
        });
        expect(res.statusCode).toBe(401);
      }
      const blocked = await t.inject({
        method: 'POST',
        url: '/api/2.0/user/token',
        payload: { email: 'Limited@login.example', password: PASSWORD },
        remoteAddress: '10.1.0.1',
      });
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(blocked.json()).toEqual({
        error: true,
        message: expect.stringMatching(/^Too many failed logins for this account; try again in \d+ seconds$/),
      });
      // the same account from another address is not locked by that address's failures
      const elsewhere = await t.inject({
        method: 'POST',
        url: '/api/2.0/user/token',
        payload: { email: 'limited@login.example', password: PASSWORD },
        remoteAddress: '10.2.0.1',
      });
      expect(elsewhere.statusCode).toBe(201);
    });
  });

  describe('DELETE /user/token', () => {
    it('answers 401 without a token', async () => {
      expect((await t.inject({ method: 'DELETE', url: '/api/2.0/user/token' })).statusCode).toBe(401);
    });

    it('revokes exactly the token used: 204, then 401 with it, other sessions live on', async () => {
      await createUser(t, { email: 'logout@login.example', password: PASSWORD });
      const login = () =>
        t.inject({
          method: 'POST',
          url: '/api/2.0/user/token',
          payload: { email: 'logout@login.example', password: PASSWORD },
          remoteAddress: '10.4.0.1',
        });
      const first = (await login()).json().authToken as string;
      const second = (await login()).json().authToken as string;
      const res = await t.as(first, { method: 'DELETE', url: '/api/2.0/user/token' });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect((await t.as(first, { method: 'GET', url: '/api/2.0/user' })).statusCode).toBe(401);
      expect((await t.as(second, { method: 'GET', url: '/api/2.0/user' })).statusCode).toBe(200);
    });
  });

  describe('GET /user', () => {
    it('answers 401 without a token', async () => {
      expect((await t.inject({ method: 'GET', url: '/api/2.0/user' })).json()).toEqual({
        error: true,
        message: 'Authentication required',
      });
    });
  });

  describe('POST /users (registration)', () => {
    it.each([
      [{ username: 'A', password: 'long enough pw' }, 'email'],
      [{ email: 'not-an-email', username: 'A', password: 'long enough pw' }, 'email'],
      [{ email: 'short@reg.example', username: 'A', password: 'short' }, 'password'],
      [{ email: 'nameless@reg.example', password: 'long enough pw' }, 'username'],
      [
        { email: 'bad@reg.example', username: 'A', password: 'long enough pw', unique_username: 'no spaces!' },
        'unique_username',
      ],
      [{ email: 'extra@reg.example', username: 'A', password: 'long enough pw', privileges: ['Admin'] }, 'privileges'],
    ])('answers 422 naming the field for %j', async (payload, field) => {
      const res = await t.inject({ method: 'POST', url: '/api/2.0/users', payload, remoteAddress: '10.5.0.1' });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it('answers 422 for a taken e-mail (any case) or unique username', async () => {
      await createUser(t, { email: 'taken@reg.example', uniqueUsername: 'takenname' });
      const email = await t.inject({
        method: 'POST',
        url: '/api/2.0/users',
        payload: { email: 'TAKEN@reg.example', username: 'B', password: 'long enough pw' },
        remoteAddress: '10.5.0.2',
      });
      expect(email.statusCode).toBe(422);
      expect(email.json()).toEqual({
        error: true,
        message: 'An account with that email already exists',
        errors: [{ message: 'An account with that email already exists', field: 'email' }],
      });
      const unique = await t.inject({
        method: 'POST',
        url: '/api/2.0/users',
        payload: {
          email: 'fresh@reg.example',
          username: 'B',
          unique_username: 'TakenName',
          password: 'long enough pw',
        },
        remoteAddress: '10.5.0.2',
      });
      expect(unique.statusCode).toBe(422);
      expect(unique.json().errors).toEqual([
        { message: 'That unique_username is already taken', field: 'unique_username' },
      ]);
    });

    it('registers: 201 with the detail and a working token; the password is stored hashed', async () => {
      const res = await t.inject({
        method: 'POST',
        url: '/api/2.0/users',
        payload: {
          email: 'New@Reg.example',
          username: ' New Person ',
          unique_username: 'NewPerson',
          password: 'long enough pw',
        },
        remoteAddress: '10.5.0.3',
      });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({
        username: 'New Person',
        unique_username: 'newperson',
        email: 'new@reg.example',
        privileges: [],
        greatest_privilege: 'User',
      });
      expect((await t.as(body.authToken, { method: 'GET', url: '/api/2.0/user' })).json().userid).toBe(body.userid);
      const row = await t.dataSource.getRepository(UserEntity).findOneByOrFail({ userid: body.userid });
      expect(row.passwordHash).toMatch(/^\$argon2id\$/);
      const login = await t.inject({
        method: 'POST',
        url: '/api/2.0/user/token',
        payload: { email: 'new@reg.example', password: 'long enough pw' },
        remoteAddress: '10.5.0.4',
      });
      expect(login.statusCode).toBe(201);
    });
  });
});

describe('registration switched off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ALLOW_REGISTRATION: 'false' } });
  });
  afterAll(() => t.close());

  it('answers 403', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/2.0/users',
      payload: { email: 'x@reg.example', username: 'X', password: 'long enough pw' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: true, message: 'Registration is disabled on this site' });
  });
});
