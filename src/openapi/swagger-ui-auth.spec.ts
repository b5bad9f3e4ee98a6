import { addApiPrefix, authorizeOnLogin } from './swagger-ui-auth';

describe('Swagger UI interceptors', () => {
  it('add the `api ` prefix to a bare token, and leave a prefixed or other value alone', () => {
    expect(addApiPrefix({ headers: { Authorization: ' abc123 ' } }).headers).toEqual({ Authorization: 'api abc123' });
    expect(addApiPrefix({ headers: { authorization: 'api abc123' } }).headers).toEqual({ authorization: 'api abc123' });
    expect(addApiPrefix({ headers: { Authorization: 'Bearer x' } }).headers).toEqual({ Authorization: 'Bearer x' });
    expect(addApiPrefix({ headers: { Accept: 'json' } }).headers).toEqual({ Accept: 'json' });
    expect(addApiPrefix({}).headers).toBeUndefined();
  });

  describe('authorizeOnLogin', () => {
    const calls: unknown[][] = [];
    const page = globalThis as unknown as { ui?: unknown; location?: unknown };
    beforeEach(() => {
      calls.length = 0;
      page.location = { href: 'http://localhost:3000/api/2.0/docs' };
      page.ui = {
        preauthorizeApiKey: (...args: unknown[]) => calls.push(['preauthorize', ...args]),
        authActions: {
          persistAuthorizationIfNeeded: () => calls.push(['persist']),
          logoutWithPersistOption: (...args: unknown[]) => calls.push(['logout', ...args]),
        },
      };
    });
    afterAll(() => {
      delete page.ui;
      delete page.location;
    });

    it('authorizes the page with the token of a successful login and keeps it', () => {
      const response = { url: 'http://localhost:3000/api/2.0/user/token', status: 201, body: { authToken: 't0k' } };
      expect(authorizeOnLogin(response)).toBe(response);
      expect(calls).toEqual([['preauthorize', 'apiToken', 'api t0k'], ['persist']]);
    });

    it('logs the page out after DELETE /user/token', () => {
      authorizeOnLogin({ url: '/api/2.0/user/token', status: 204 });
      expect(calls).toEqual([['logout', ['apiToken']]]);
    });

    it('does nothing for a failed login or another route', () => {
      authorizeOnLogin({ url: '/api/2.0/user/token', status: 401, body: { error: true } });
      authorizeOnLogin({ url: '/api/2.0/users', status: 201, body: { authToken: 'other' } });
      expect(calls).toEqual([]);
    });
  });
});
