import { Writable } from 'node:stream';
import type { OpenAPIObject } from '@nestjs/swagger';
import {
  NOT_2XX_ON_DEMO,
  PARAMETER_EXAMPLES,
  PASSWORD_PLACEHOLDER,
  REQUEST_EXAMPLES,
} from '../src/openapi/request-examples';
import { createTestApp, type TestApp } from './utils/test-app';
import { DEMO_LOGIN, DemoSeedRegistry, type DemoLogin } from '../src/database/seed/demo-seed.registry';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  example?: string | number;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { description?: string; content: Record<string, { example?: unknown }> };
}
type Entry = [method: string, path: string, operation: Operation];

const LOGIN = '/api/2.0/user/token';

function operations(document: OpenAPIObject): Entry[] {
  return Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => [method, path, operation] as Entry),
  );
}

/** The URL the Swagger UI sends for an operation with its prefilled parameters. */
function exampleUrl(path: string, operation: Operation): string {
  let url = path;
  const query = new URLSearchParams();
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in === 'path')
      url = url.replace(`{${parameter.name}}`, encodeURIComponent(String(parameter.example)));
    if (parameter.in === 'query' && parameter.example !== undefined)
      query.set(parameter.name, String(parameter.example));
  }
  return query.size ? `${url}?${query.toString()}` : url;
}

/** The passwords of the login and signing examples (registration's is a new account's). */
function passwordsOf(document: OpenAPIObject): unknown[] {
  return operations(document)
    .filter(([method, path]) => !(method === 'post' && path === '/api/2.0/users'))
    .map(([, , operation]) => operation.requestBody?.content['application/json']?.example as { password?: unknown })
    .filter((example) => example?.password !== undefined)
    .map((example) => example.password);
}

async function demoApp(env: Record<string, string> = {}): Promise<{ t: TestApp; password: string }> {
  const log: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      log.push(chunk.toString());
      done();
    },
  });
  const t = await createTestApp({ env: { SEED_DEMO: 'true', LOG_LEVEL: 'info', ...env }, logStream });
  // Never in the log: the start-up block shows it (main.ts), from what the demo step shared.
  const password = t.app.get(DemoSeedRegistry).get<DemoLogin>(DEMO_LOGIN)!.password;
  expect(log.join('')).not.toContain(password);
  return { t, password };
}

/** Every prefilled example of the Swagger UI, run by the demo Admin on a fresh demo site, as the UI shows it. */
describe('OpenAPI request examples against the demo content', () => {
  let t: TestApp;
  let document: OpenAPIObject;
  let password: string;
  let token: string;

  beforeAll(async () => {
    ({ t, password } = await demoApp());
    // As the Swagger UI gets it.
    document = (await t.inject({ method: 'GET', url: '/api/2.0/openapi.json' })).json<OpenAPIObject>();
  });

  afterAll(() => t.close());

  it('puts an example on every JSON request body, every path parameter and every required query parameter', () => {
    const missing: string[] = [];
    for (const [method, path, operation] of operations(document)) {
      const json = operation.requestBody?.content['application/json'];
      if (json && json.example === undefined) missing.push(`${method} ${path}: body`);
      for (const parameter of operation.parameters ?? []) {
        // Headers are left out: the one required (GET /metrics) is a secret of the site.
        if (
          (parameter.in === 'path' || (parameter.in === 'query' && parameter.required)) &&
          parameter.example === undefined
        )
          missing.push(`${method} ${path}: ${parameter.in} ${parameter.name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('the login and the signing examples carry the demo password outside production', async () => {
    expect(passwordsOf(document)).toEqual([password, password, password, password]);
    const login = await t.inject({
      method: 'POST',
      url: LOGIN,
      payload: parametersOrBody(document, 'post', LOGIN).body,
    });
    expect(login.statusCode).toBe(201);
    token = login.json<{ authToken: string }>().authToken;
  });

  it('each GET example answers 2xx on a fresh demo site (else as NOT_2XX_ON_DEMO says)', async () => {
    const failures: string[] = [];
    const listed: string[] = [];
    for (const [method, path, operation] of operations(document)) {
      if (method !== 'get') continue;
      const url = exampleUrl(path, operation);
      const response = await t.as(token, { method: 'GET', url });
      const expected = NOT_2XX_ON_DEMO[`get ${path}`]?.status;
      if (expected !== undefined) {
        listed.push(path);
        if (response.statusCode !== expected) failures.push(`${url}: ${response.statusCode}, listed as ${expected}`);
      } else if (response.statusCode >= 300) {
        failures.push(`${url} → ${response.statusCode} ${response.body.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(listed).toHaveLength(Object.keys(NOT_2XX_ON_DEMO).length);
  });

  it('each prefilled revisionid is the current revision on a fresh demo site', async () => {
    const stale: string[] = [];
    for (const [method, path] of operations(document)) {
      const revisionid = REQUEST_EXAMPLES[`${method} ${path}`]?.query?.revisionid;
      if (revisionid === undefined) continue;
      const current = await currentRevision(
        t,
        token,
        exampleUrl(path, parametersOrBody(document, method, path).operation),
      );
      if (current !== revisionid) stale.push(`${method} ${path}: ${revisionid}, current ${current}`);
    }
    expect(stale).toEqual([]);
  });

  it('each write with a JSON body succeeds (2xx) as shown when run in document order', async () => {
    const failures: string[] = [];
    let ran = 0;
    for (const [method, path, operation] of operations(document)) {
      const example = operation.requestBody?.content['application/json']?.example;
      if (example === undefined || path === LOGIN) continue;
      let url = exampleUrl(path, operation);
      if (url.includes('revisionid=')) {
        // Earlier writes made new revisions: as a user would, read the current one first.
        url = url.replace(/revisionid=\d+/, `revisionid=${await currentRevision(t, token, url)}`);
      }
      const response = await t.as(token, { method: method.toUpperCase(), url, payload: example as object });
      ran += 1;
      if (response.statusCode >= 300)
        failures.push(`${method} ${url} → ${response.statusCode} ${response.body.slice(0, 300)}`);
    }
    expect(failures).toEqual([]);
    expect(ran).toBe(Object.values(REQUEST_EXAMPLES).filter((example) => example.body !== undefined).length - 1);
  });

  it('path examples by name are used (each one by some operation)', () => {
    const used = new Set(
      operations(document).flatMap(([, , operation]) =>
        (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
      ),
    );
    expect(Object.keys(PARAMETER_EXAMPLES).filter((name) => !used.has(name))).toEqual([]);
  });
});

describe('OpenAPI password examples in production', () => {
  it('are a placeholder the request body says to replace, even on the start that seeded the demo', async () => {
    const { t } = await demoApp({ NODE_ENV: 'production', SIGNING_SECRET: 'x'.repeat(32), LOG_FORMAT: 'json' });
    try {
      const document = (await t.inject({ method: 'GET', url: '/api/2.0/openapi.json' })).json<OpenAPIObject>();
      expect(passwordsOf(document)).toEqual([
        PASSWORD_PLACEHOLDER,
        PASSWORD_PLACEHOLDER,
        PASSWORD_PLACEHOLDER,
        PASSWORD_PLACEHOLDER,
      ]);
      const login = parametersOrBody(document, 'post', LOGIN).operation;
      expect(login.requestBody!.description).toContain(`Replace \`${PASSWORD_PLACEHOLDER}\` with your password`);
    } finally {
      await t.close();
    }
  });
});

function parametersOrBody(
  document: OpenAPIObject,
  method: string,
  path: string,
): { operation: Operation; body: object } {
  const operation = (document.paths as Record<string, Record<string, Operation>>)[path][method];
  return { operation, body: operation.requestBody?.content['application/json']?.example as object };
}

/** The current revision an edit at `url` must name: of the wiki, the guide, the step or the approval process. */
async function currentRevision(t: TestApp, token: string, url: string): Promise<number | undefined> {
  const [path] = url.split('?');
  const step = /\/steps\/(\d+)$/.exec(path);
  const document = path.replace(/\/(steps\/\d+|steporder|public|revert)$/, '');
  const current = (await t.as(token, { method: 'GET', url: document })).json<{
    revisionid?: number;
    approval_process_revisionid?: number;
    steps?: { stepid: number; revisionid: number }[];
  }>();
  return step
    ? current.steps?.find((s) => s.stepid === Number(step[1]))?.revisionid
    : (current.revisionid ?? current.approval_process_revisionid);
}
