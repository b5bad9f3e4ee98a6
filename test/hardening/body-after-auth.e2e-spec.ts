import { createUser, type CreatedUser } from '../factories/user.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

const api = (path: string) => `/api/2.0${path}`;

/**
 * Who may call a route is answered before anything about what they sent: a body the parser refuses (not JSON,
 * nested too deep, over BODY_LIMIT, declared or not) is answered 400/413 only to a caller the route admits;
 * anyone else gets the 401 or 403 they would get with a good body.
 */
describe('authentication and privileges come before a refused body', () => {
  let t: TestApp;
  let user: CreatedUser;
  let author: CreatedUser;

  beforeAll(async () => {
    t = await createTestApp({ env: { BODY_LIMIT: '2048' } });
    user = await createUser(t);
    author = await createUser(t, { privilege: 'Author' });
  });
  afterAll(() => t.close());

  const bodies: [name: string, payload: string, status: number, message: string][] = [
    ['not JSON', '{"title": ', 400, 'Request body is not valid JSON'],
    [
      'nested too deep',
      `{"a":${'['.repeat(100)}${']'.repeat(100)}}`,
      400,
      'Request body is nested deeper than 64 levels',
    ],
    [
      'over BODY_LIMIT',
      JSON.stringify({ title: 'x'.repeat(4000) }),
      413,
      'Request body is larger than the limit of 2048 bytes',
    ],
  ];

  it.each(bodies)(
    '%s: 401 anonymous, 403 below the privilege, then the refusal',
    async (_name, payload, status, message) => {
      const post = (token?: string) =>
        t.as(token, { method: 'POST', url: api('/guides'), payload, headers: { 'content-type': 'application/json' } });
      const anonymous = await post();
      expect({ status: anonymous.statusCode, body: anonymous.json() }).toEqual({
        status: 401,
        body: { error: true, message: expect.any(String) },
      });
      expect((await post(user.token)).statusCode).toBe(403);
      const admitted = await post(author.token);
      expect({ status: admitted.statusCode, body: admitted.json() }).toEqual({
        status,
        body: { error: true, message },
      });
    },
  );

  it('a public route answers the refusal itself', async () => {
    const res = await t.inject({
      method: 'POST',
      url: api('/user/token'),
      payload: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
  });

  it('an unread body over the limit closes the connection after the answer', async () => {
    const res = await t.inject({
      method: 'POST',
      url: api('/guides'),
      payload: JSON.stringify({ title: 'x'.repeat(4000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers.connection).toBe('close');
  });
});
