import { Writable } from 'node:stream';
import type { OpenAPIObject } from '@nestjs/swagger';
import { buildOpenApiDocument } from '../src/openapi/openapi';
import { REQUEST_EXAMPLES } from '../src/openapi/request-examples';
import { createTestApp, type TestApp } from './utils/test-app';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { example?: unknown }> };
}

/** What a signing example says in place of the password; the run signs with the demo password. */
const PASSWORD_PLACEHOLDER = 'your password';

/** Every prefilled example of the Swagger UI, run in document order by the demo Admin on a fresh demo site. */
describe('OpenAPI request examples against the demo content', () => {
  let t: TestApp;
  let document: OpenAPIObject;
  let password: string;
  const log: string[] = [];

  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log.push(chunk.toString());
        done();
      },
    });
    t = await createTestApp({ env: { SEED_DEMO: 'true', LOG_LEVEL: 'info' }, logStream });
    document = buildOpenApiDocument(t.app);
    const line = log.join('').match(/password for all: (\S+)/);
    password = line![1];
  });

  afterAll(() => t.close());

  const operations = (): [string, string, Operation][] =>
    Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => [method, path, operation] as [string, string, Operation]),
    );

  it('puts an example on every JSON request body and every path parameter of those operations', () => {
    const missing: string[] = [];
    for (const [method, path, operation] of operations()) {
      const json = operation.requestBody?.content['application/json'];
      if (json && json.example === undefined) missing.push(`${method} ${path}: body`);
      if (!json) continue;
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'path' && parameter.example === undefined)
          missing.push(`${method} ${path}: ${parameter.name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('each example succeeds (2xx) when run in document order', async () => {
    const login = await t.inject({
      method: 'POST',
      url: '/api/2.0/user/token',
      payload: { ...(REQUEST_EXAMPLES['post /api/2.0/user/token'].body as object), password },
    });
    expect(login.statusCode).toBe(201);
    const token = login.json<{ authToken: string }>().authToken;

    const failures: string[] = [];
    let ran = 0;
    for (const [method, path, operation] of operations()) {
      const example = operation.requestBody?.content['application/json']?.example;
      if (example === undefined || path === '/api/2.0/user/token') continue;
      let url = path;
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'path')
          url = url.replace(`{${parameter.name}}`, encodeURIComponent(String(parameter.example)));
      }
      if ((operation.parameters ?? []).some((p) => p.in === 'query' && p.name === 'revisionid' && p.required)) {
        // As a user would: read the current revision (of the guide, or of the step) first.
        const step = /\/steps\/(\d+)$/.exec(url);
        const current = (await t.as(token, { method: 'GET', url: url.replace(/\/(steps\/\d+|steporder)$/, '') })).json<{
          revisionid?: number;
          approval_process_revisionid?: number;
          steps?: { stepid: number; revisionid: number }[];
        }>();
        const revisionid = step
          ? current.steps!.find((s) => s.stepid === Number(step[1]))!.revisionid
          : (current.revisionid ?? current.approval_process_revisionid);
        url += `?revisionid=${revisionid}`;
      }
      const body = example as Record<string, unknown>;
      const payload = body.password === PASSWORD_PLACEHOLDER ? { ...body, password } : body;
      const response = await t.as(token, { method: method.toUpperCase(), url, payload });
      ran += 1;
      if (response.statusCode >= 300)
        failures.push(`${method} ${url} → ${response.statusCode} ${response.body.slice(0, 300)}`);
    }
    expect(failures).toEqual([]);
    expect(ran).toBe(Object.keys(REQUEST_EXAMPLES).length - 1);
  });
});
