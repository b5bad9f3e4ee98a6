import { Writable } from 'node:stream';
import { ConventionsTestModule } from './support/conventions-test.module';
import { createTestApp, sqlCount, type TestApp } from './utils/test-app';

const T = '/api/2.0/__test';

describe('HTTP conventions (docs/api-conventions.md)', () => {
  let t: TestApp;
  const logLines: string[] = [];

  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    t = await createTestApp({
      extraModules: [ConventionsTestModule],
      logStream,
      env: { LOG_LEVEL: 'info', BODY_LIMIT: '2048', UPLOAD_LIMIT: '8192' },
    });
  });
  afterAll(() => t.close());

  describe('routing', () => {
    it('answers an unknown path with a JSON 404', async () => {
      const res = await t.inject({ method: 'GET', url: '/api/2.0/no/such/thing' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ error: true, message: 'No such endpoint: GET /api/2.0/no/such/thing' });
    });

    it('answers a known path with an unsupported method with 405 and Allow', async () => {
      const res = await t.inject({ method: 'PUT', url: `${T}/list` });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
      expect(res.json()).toEqual({ error: true, message: `Method PUT is not allowed on ${T}/list` });
      const both = await t.inject({ method: 'PATCH', url: `${T}/things` });
      expect(both.statusCode).toBe(405);
      expect(both.headers.allow).toBe('POST, DELETE, OPTIONS');
    });

    it('serves /health outside the API prefix', async () => {
      const res = await t.inject({ method: 'GET', url: '/health' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
      expect((await t.inject({ method: 'GET', url: '/api/2.0/health' })).statusCode).toBe(404);
    });
  });

  describe('request bodies', () => {
    it('parses JSON whatever the Content-Type says, or without one', async () => {
      for (const contentType of ['application/json', 'application/x-www-form-urlencoded', 'text/plain', undefined]) {
        const res = await t.inject({
          method: 'POST',
          url: `${T}/things`,
          payload: '{"title":"hello"}',
          headers: contentType ? { 'content-type': contentType } : {},
        });
        expect({ contentType, status: res.statusCode, body: res.json() }).toEqual({
          contentType,
          status: 201,
          body: { title: 'hello' },
        });
      }
    });

    it('answers invalid JSON with 400 in the error shape', async () => {
      const res = await t.inject({
        method: 'POST',
        url: `${T}/things`,
        payload: '{"title": nope',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: true, message: 'Request body is not valid JSON' });
    });

    it('parses a DELETE body', async () => {
      const res = await t.inject({ method: 'DELETE', url: `${T}/things`, payload: { title: 'x' } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ deleted: 'x' });
    });

    it('answers a body over BODY_LIMIT with 413 JSON, declared or not', async () => {
      const big = JSON.stringify({ title: 'x'.repeat(4000) });
      const declared = await t.inject({
        method: 'POST',
        url: `${T}/things`,
        payload: big,
        headers: { 'content-type': 'application/json' },
      });
      expect(declared.statusCode).toBe(413);
      expect(declared.json()).toEqual({ error: true, message: 'Request body is larger than the limit of 2048 bytes' });
    });

    it('lets raw-body routes take up to UPLOAD_LIMIT, and no more', async () => {
      const ok = await t.inject({
        method: 'POST',
        url: `${T}/raw`,
        payload: Buffer.alloc(6000, 1),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(ok.statusCode).toBe(201);
      expect(ok.json()).toEqual({ bytes: 6000 });
      const tooBig = await t.inject({
        method: 'POST',
        url: `${T}/raw`,
        payload: Buffer.alloc(9000, 1),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(tooBig.statusCode).toBe(413);
      expect(tooBig.json().error).toBe(true);
    });
  });

  describe('validation', () => {
    it('answers a missing or invalid field with 422 and errors[]', async () => {
      const res = await t.inject({ method: 'POST', url: `${T}/things`, payload: {} });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        error: true,
        message: 'title is required',
        errors: [{ message: 'title is required', field: 'title' }],
      });
      const invalid = await t.inject({ method: 'POST', url: `${T}/things`, payload: { title: 42 } });
      expect(invalid.json().errors).toEqual([
        { message: 'title must be shorter than or equal to 10 characters', field: 'title' },
        { message: 'title must be a string', field: 'title' },
      ]);
    });

    it('names the field and index of a bad array item', async () => {
      const res = await t.inject({
        method: 'POST',
        url: `${T}/things`,
        payload: {
          title: 'ok',
          parts: [
            { name: 'a', quantity: 1 },
            { name: 'b', quantity: 0 },
          ],
        },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual([
        { message: 'quantity must not be less than 1', field: 'parts.quantity', index: 1 },
      ]);
    });

    it('rejects unknown body fields and non-object bodies with 422', async () => {
      const unknown = await t.inject({ method: 'POST', url: `${T}/things`, payload: { title: 'ok', evil: 1 } });
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json().errors).toEqual([{ message: 'property evil should not exist', field: 'evil' }]);
      const array = await t.inject({
        method: 'POST',
        url: `${T}/things`,
        payload: '[1,2]',
        headers: { 'content-type': 'application/json' },
      });
      expect(array.statusCode).toBe(422);
      expect(array.json()).toEqual({
        error: true,
        message: 'Request body must be a JSON object',
        errors: [{ message: 'Request body must be a JSON object' }],
      });
    });
  });

  describe('query parameters', () => {
    it('applies defaults and ignores unknown parameters', async () => {
      const res = await t.inject({ method: 'GET', url: `${T}/list?whatever=1` });
      expect(res.json()).toEqual({ limit: 20, offset: 0, order: 'ASC', unpatrolled: false });
    });

    it('clamps limit above 200 and accepts order in any case', async () => {
      const res = await t.inject({ method: 'GET', url: `${T}/list?limit=5000&offset=40&order=desc` });
      expect(res.json()).toEqual({ limit: 200, offset: 40, order: 'DESC', unpatrolled: false });
    });

    it.each([
      ['limit=0', 'limit', 'limit must not be less than 1'],
      ['limit=-3', 'limit', 'limit must not be less than 1'],
      ['limit=2.5', 'limit', 'limit must be an integer'],
      ['limit=ten', 'limit', 'limit must be an integer'],
      ['offset=-1', 'offset', 'offset must not be less than 0'],
      ['order=sideways', 'order', 'order must be ASC or DESC'],
      ['includePrivate=yes', 'includePrivate', 'includePrivate must be one of true, false, 1, 0 (in any case)'],
    ])('answers %s with 422', async (query, field, message) => {
      const res = await t.inject({ method: 'GET', url: `${T}/list?${query}` });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ error: true, message, errors: [{ message, field }] });
    });

    it('treats presence flags as set whatever their value, and parses booleans', async () => {
      for (const q of ['unpatrolled', 'unpatrolled=', 'unpatrolled=false', 'unpatrolled=0']) {
        expect((await t.inject({ method: 'GET', url: `${T}/list?${q}` })).json().unpatrolled).toBe(true);
      }
      expect((await t.inject({ method: 'GET', url: `${T}/list?includePrivate=1` })).json().includePrivate).toBe(true);
      expect((await t.inject({ method: 'GET', url: `${T}/list?includePrivate=false` })).json().includePrivate).toBe(
        false,
      );
    });
  });

  describe('response formats', () => {
    it('indents JSON with ?pretty, errors included', async () => {
      const res = await t.inject({ method: 'GET', url: `${T}/list?pretty` });
      expect(res.body).toBe(JSON.stringify({ limit: 20, offset: 0, order: 'ASC', unpatrolled: false }, null, 2));
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const error = await t.inject({ method: 'GET', url: '/api/2.0/nothing?pretty=1' });
      expect(error.body).toBe(
        JSON.stringify({ error: true, message: 'No such endpoint: GET /api/2.0/nothing' }, null, 2),
      );
    });

    it('does not indent with ?pretty=false (or 0, no, off), errors included', async () => {
      const plain = JSON.stringify({ limit: 20, offset: 0, order: 'ASC', unpatrolled: false });
      for (const q of ['pretty=false', 'pretty=0', 'pretty=no', 'pretty=OFF']) {
        expect((await t.inject({ method: 'GET', url: `${T}/list?${q}` })).body).toBe(plain);
      }
      expect((await t.inject({ method: 'GET', url: `${T}/list?pretty=true` })).body).toBe(
        JSON.stringify(JSON.parse(plain), null, 2),
      );
      const error = await t.inject({ method: 'GET', url: '/api/2.0/nothing?pretty=false' });
      expect(error.body).toBe(JSON.stringify({ error: true, message: 'No such endpoint: GET /api/2.0/nothing' }));
    });

    it('answers XML for routes that opt in, mapping names that are not XML names', async () => {
      const res = await t.inject({ method: 'GET', url: `${T}/xml?type=XML` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/xml/);
      expect(res.body).toBe(
        '<?xml version="1.0" encoding="UTF-8"?>\n<thing><id>1</id><title>A &amp; B &lt;c&gt;</title><image><id>7</id><entry key="140x105">http://x/140</entry></image><steps><item><n>1</n></item><item><n>2</n></item></steps><none></none></thing>',
      );
      const json = await t.inject({ method: 'GET', url: `${T}/xml` });
      expect(json.json().image['140x105']).toBe('http://x/140');
    });

    it('ignores type=XML on routes that did not opt in', async () => {
      const res = await t.inject({ method: 'GET', url: `${T}/list?type=XML` });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    });
  });

  describe('errors', () => {
    it('answers an unexpected error with a bare 500 and logs it with the request id', async () => {
      const res = await t.inject({ method: 'GET', url: `${T}/boom`, headers: { 'x-request-id': 'trace-boom-1' } });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ error: true, message: 'Internal server error' });
      expect(res.body).not.toContain('secret');
      const line = logLines
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.msg === 'unhandled error');
      expect(line).toMatchObject({ reqId: 'trace-boom-1', level: 50 });
    });

    it('answers a revision conflict with 409 and the current resource as the body', async () => {
      const res = await t.inject({ method: 'GET', url: `${T}/conflict` });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ guideid: 1, revisionid: 5 });
    });
  });

  describe('revisions (docs/api-conventions.md)', () => {
    it('requires a well-formed revisionid on versioned routes', async () => {
      for (const [query, message] of [
        ['', 'revisionid is required'],
        ['?revisionid=', 'revisionid is required'],
        ['?revisionid=abc', 'revisionid must be an integer from 1 to 2147483647'],
        ['?revisionid=-1', 'revisionid must be an integer from 1 to 2147483647'],
        ['?revisionid=0', 'revisionid must be an integer from 1 to 2147483647'],
        ['?revisionid=2147483648', 'revisionid must be an integer from 1 to 2147483647'],
        ['?revisionid=99999999999999999999', 'revisionid must be an integer from 1 to 2147483647'],
      ]) {
        const res = await t.inject({ method: 'POST', url: `${T}/versioned${query}` });
        expect({ query, status: res.statusCode, body: res.json() }).toEqual({
          query,
          status: 422,
          body: { error: true, message, errors: [{ message, field: 'revisionid' }] },
        });
      }
    });

    it('answers a stale revisionid with 409 and the current resource, and passes a current one through', async () => {
      const stale = await t.inject({ method: 'POST', url: `${T}/versioned?revisionid=6` });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual({ thingid: 1, revisionid: 7 });
      const ok = await t.inject({ method: 'POST', url: `${T}/versioned?revisionid=7` });
      expect(ok.statusCode).toBe(201);
      expect(ok.json()).toEqual({ thingid: 1, revisionid: 8 });
    });

    it('accepts a missing revisionid where it is optional', async () => {
      expect((await t.inject({ method: 'POST', url: `${T}/optionally-versioned` })).json()).toEqual({
        revisionid: null,
      });
      expect((await t.inject({ method: 'POST', url: `${T}/optionally-versioned?revisionid=3` })).json()).toEqual({
        revisionid: 3,
      });
    });
  });

  describe('headers', () => {
    it('echoes a sane X-Request-Id and makes one up otherwise', async () => {
      const echoed = await t.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'abc-123' } });
      expect(echoed.headers['x-request-id']).toBe('abc-123');
      const replaced = await t.inject({
        method: 'GET',
        url: '/health',
        headers: { 'x-request-id': 'bad id\n<script>' },
      });
      expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(logLines.some((l) => l.includes('"reqId":"abc-123"'))).toBe(true);
    });

    it('allows any origin and answers a CORS preflight with 204', async () => {
      const res = await t.inject({
        method: 'OPTIONS',
        url: '/api/2.0/anything',
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': 'PATCH',
          'access-control-request-headers': 'authorization,x-app-id',
        },
      });
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-methods']).toContain('PATCH');
      expect(res.headers['access-control-allow-headers']).toBe(
        'Authorization, X-App-Id, Content-Type, X-Request-Id, X-Registration-Token',
      );
      const simple = await t.inject({ method: 'GET', url: '/health', headers: { origin: 'https://app.example' } });
      expect(simple.headers['access-control-allow-origin']).toBe('*');
    });

    it('counts SQL statements per request when asked to', async () => {
      const res = await t.inject({ method: 'GET', url: `${T}/sql` });
      expect(sqlCount(res)).toBe(3);
      expect(sqlCount(await t.inject({ method: 'GET', url: `${T}/list` }))).toBe(0);
    });
  });
});
