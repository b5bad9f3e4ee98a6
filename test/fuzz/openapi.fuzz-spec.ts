import { Writable } from 'node:stream';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { AuthTokenService } from '../../src/modules/auth/auth-token.service';
import { UserEntity } from '../../src/modules/users/entities/user.entity';
import { buildOpenApiDocument } from '../../src/openapi/openapi';
import { tempMediaDir } from '../factories/media.factory';
import { createUser } from '../factories/user.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

/**
 * Schema-driven fuzzing of every operation of the OpenAPI document, as built from the running app (so new
 * routes are picked up without a change here): for each operation and each of anonymous, a User and an
 * Admin, FUZZ_RUNS (50) requests are generated from the operation's parameters and body schema, mixed
 * with hostile values (edge integers, NUL, unpaired surrogates, nulls, wrong types, broken encodings).
 * Fails on any 5xx and on any status the document does not list for the operation, printing the
 * requests (and the server's error log lines) to replay them. Bounded by FUZZ_TIME_LIMIT_MS.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 50);
const TIME_LIMIT_MS = Number(process.env.FUZZ_TIME_LIMIT_MS ?? 300_000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];
type Identity = 'anonymous' | 'User' | 'Admin';

interface Schema {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  nullable?: boolean;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
  responses: Record<string, unknown>;
}
interface FuzzRequest {
  method: string;
  url: string;
  payload?: string | Buffer;
  headers: Record<string, string>;
}
interface Finding {
  identity: Identity;
  request: FuzzRequest;
  status: number;
  body: string;
  log: string[];
}

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\ud800b',
  '\udfff',
  '%',
  '%00',
  '../..',
  'a'.repeat(300),
  '<script>x</script>',
];
const EDGE_INTEGERS = [0, 1, -1, 2, 2147483647, 2147483648, -2147483649, 9007199254740992, 1e20];
const EDGE_INTEGER_TEXT = ['0', '-1', '1.5', 'abc', '2147483648', '9223372036854775807', '99999999999999999999', ''];

/** Percent-encodes UTF-8 bytes (unpaired surrogates become U+FFFD, as a browser would send them). */
const encode = (value: string) =>
  [...Buffer.from(value, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).padStart(2, '0').toUpperCase()}`,
    )
    .join('');

function deref(document: OpenAPIObject, schema: Schema | undefined): Schema {
  let current = schema ?? {};
  for (let i = 0; current.$ref && i < 10; i++) {
    const name = current.$ref.replace('#/components/schemas/', '');
    current = ((document.components?.schemas ?? {}) as Record<string, Schema>)[name] ?? {};
  }
  return current;
}

class Fuzzer {
  /** Values seen in responses, by field name: ids and titles that exist, so requests reach past the 404s. */
  readonly harvested = new Map<string, Set<string | number>>();

  constructor(private readonly document: OpenAPIObject) {}

  harvest(value: unknown, key = ''): void {
    if (Array.isArray(value)) value.slice(0, 20).forEach((item) => this.harvest(item, key));
    else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) this.harvest(v, k);
    } else if (
      (typeof value === 'number' && Number.isInteger(value)) ||
      (typeof value === 'string' && value.length < 80)
    ) {
      if (!key) return;
      let set = this.harvested.get(key);
      if (!set) this.harvested.set(key, (set = new Set()));
      if (set.size < 30) set.add(value);
    }
  }

  private seen(name: string): (string | number)[] {
    const aliases: Record<string, string[]> = {
      id: ['id', 'imageid', 'guideid'],
      title: ['title', 'category'],
      doc_type: ['doc_type'],
      langid: ['langid', 'locale'],
      context: ['context'],
      contextid: ['guideid', 'stepid'],
      search: ['username', 'unique_username', 'title'],
    };
    const keys = aliases[name] ?? [name, name.replace(/s$/, '')];
    return keys.flatMap((key) => [...(this.harvested.get(key) ?? [])]);
  }

  private text(name: string, schema: Schema): fc.Arbitrary<string> {
    const known = this.seen(name).map(String);
    const options: fc.WeightedArbitrary<string>[] = [
      { weight: 3, arbitrary: fc.string({ maxLength: Math.min(schema.maxLength ?? 30, 30) }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
      { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    ];
    if (known.length) options.push({ weight: 4, arbitrary: fc.constantFrom(...known) });
    if (schema.enum?.length) options.push({ weight: 6, arbitrary: fc.constantFrom(...schema.enum.map(String)) });
    return fc.oneof(...options);
  }

  private integer(name: string, schema: Schema): fc.Arbitrary<number> {
    const known = this.seen(name).filter((v): v is number => typeof v === 'number');
    const options: fc.WeightedArbitrary<number>[] = [
      { weight: 3, arbitrary: fc.integer({ min: schema.minimum ?? -3, max: Math.min(schema.maximum ?? 40, 1000) }) },
      { weight: 1, arbitrary: fc.constantFrom(...EDGE_INTEGERS) },
    ];
    if (known.length) options.push({ weight: 4, arbitrary: fc.constantFrom(...known) });
    return fc.oneof(...options);
  }

  /** A JSON value for a schema, with mutations (null, wrong types) at every level. */
  value(schemaOrRef: Schema | undefined, name = '', depth = 0): fc.Arbitrary<unknown> {
    const schema = deref(this.document, schemaOrRef);
    const variants = schema.anyOf ?? schema.oneOf ?? schema.allOf;
    let base: fc.Arbitrary<unknown>;
    if (variants?.length) base = fc.oneof(...variants.map((v) => this.value(v, name, depth)));
    else if (schema.enum?.length) base = fc.constantFrom(...schema.enum);
    else if (schema.type === 'integer') base = this.integer(name, schema);
    else if (schema.type === 'number') base = fc.oneof(this.integer(name, schema), fc.double({ noNaN: true }));
    else if (schema.type === 'boolean') base = fc.boolean();
    else if (schema.type === 'string') base = this.text(name, schema);
    else if (schema.type === 'array')
      base = depth > 4 ? fc.constant([]) : fc.array(this.value(schema.items, name, depth + 1), { maxLength: 3 });
    else if (schema.properties && depth <= 4) {
      const properties = schema.properties;
      const required = new Set(schema.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, child] of Object.entries(properties)) record[key] = this.value(child, key, depth + 1);
      base = fc.record(record, { requiredKeys: Object.keys(properties).filter((key) => required.has(key)) });
    } else base = fc.jsonValue({ maxDepth: 2 });
    if (depth === 0) return base;
    return fc.oneof(
      { weight: 12, arbitrary: base },
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
    );
  }

  private pathValue(parameter: Parameter): fc.Arbitrary<string> {
    const schema = deref(this.document, parameter.schema);
    const known = this.seen(parameter.name).map(String);
    const options: fc.WeightedArbitrary<string>[] = [
      {
        weight: 2,
        arbitrary: this.value(schema, parameter.name, 1).map((v) =>
          encode(typeof v === 'string' ? v : (JSON.stringify(v) ?? '')),
        ),
      },
      { weight: 1, arbitrary: fc.constantFrom(...EDGE_INTEGER_TEXT.filter(Boolean), '%E0%A4%A', '%00') },
    ];
    if (known.length) options.push({ weight: 6, arbitrary: fc.constantFrom(...known.map(encode)) });
    if (schema.enum?.length)
      options.push({ weight: 6, arbitrary: fc.constantFrom(...schema.enum.map((v) => encode(String(v)))) });
    // A segment "." or ".." (also as %2E) is a dot-segment: WHATWG URL parsing, as in browsers, fetch and the
    // injector, removes it, so the request would be for another path (where its method may not exist).
    return fc.oneof(...options).map((v) => (v === '' || /^(\.|%2E){1,2}$/i.test(v) ? 'x' : v));
  }

  private queryValue(parameter: Parameter): fc.Arbitrary<string | undefined> {
    const schema = deref(this.document, parameter.schema);
    const value = fc.oneof(
      {
        weight: 4,
        arbitrary: this.value(schema, parameter.name, 1).map((v) =>
          typeof v === 'string' ? v : (JSON.stringify(v) ?? ''),
        ),
      },
      { weight: 1, arbitrary: fc.constantFrom(...EDGE_INTEGER_TEXT) },
    );
    return parameter.required
      ? fc.oneof({ weight: 9, arbitrary: value }, { weight: 1, arbitrary: fc.constant(undefined) })
      : fc.oneof(value, fc.constant(undefined));
  }

  request(method: Method, path: string, operation: Operation): fc.Arbitrary<FuzzRequest> {
    const parameters = operation.parameters ?? [];
    const pathParams = parameters.filter((p) => p.in === 'path');
    const queryParams = parameters.filter((p) => p.in === 'query');
    const content = operation.requestBody?.content ?? {};
    const json = content['application/json'];
    const raw = content['application/octet-stream'] ?? content['multipart/form-data'];
    const body: fc.Arbitrary<{ payload?: string | Buffer; type?: string }> = json
      ? fc.oneof(
          {
            weight: 18,
            arbitrary: this.value(json.schema).map((v) => ({ payload: JSON.stringify(v), type: 'application/json' })),
          },
          { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((s) => ({ payload: s, type: 'application/json' })) },
          {
            weight: 1,
            arbitrary: fc.constant({ payload: `${'['.repeat(100)}${']'.repeat(100)}`, type: 'application/json' }),
          },
        )
      : raw
        ? fc
            .uint8Array({ maxLength: 256 })
            .map((bytes) => ({ payload: Buffer.from(bytes), type: 'application/octet-stream' }))
        : fc.constant({});
    return fc
      .record({
        path: fc.tuple(...pathParams.map((p) => this.pathValue(p))),
        query: fc.tuple(...queryParams.map((p) => this.queryValue(p))),
        body,
      })
      .map(({ path: values, query, body: { payload, type } }) => {
        let url = path;
        pathParams.forEach((p, i) => (url = url.replace(`{${p.name}}`, values[i])));
        const search = queryParams
          .map((p, i) => (query[i] === undefined ? undefined : `${p.name}=${encode(query[i])}`))
          .filter((part): part is string => part !== undefined)
          .join('&');
        const headers: Record<string, string> = type ? { 'content-type': type } : {};
        return {
          method: method.toUpperCase(),
          url: search ? `${url}?${search}` : url,
          ...(payload !== undefined ? { payload } : {}),
          headers,
        };
      });
  }
}

describe('OpenAPI fuzz: no 5xx, no undocumented status', () => {
  let t: TestApp;
  let document: OpenAPIObject;
  const logLines: string[] = [];
  const identities: Record<Exclude<Identity, 'anonymous'>, UserEntity | undefined> = {
    User: undefined,
    Admin: undefined,
  };

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        SEED_DEMO: 'true',
        MEDIA_DIR: tempMediaDir(),
        LOG_LEVEL: 'error',
        RATE_LIMIT_API_MAX: '0',
        RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT_ADDRESS: '0',
        RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT: '0',
        RATE_LIMIT_REGISTRATIONS_PER_ADDRESS: '0',
      },
      logStream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          logLines.push(chunk.toString());
          if (logLines.length > 5000) logLines.shift();
          done();
        },
      }),
    });
    identities.User = (await createUser(t)).user;
    identities.Admin = (await createUser(t, { privilege: 'Admin' })).user;
    document = buildOpenApiDocument(t.app);
  }, 120_000);
  afterAll(() => t?.close());

  /** Fresh tokens and the original privileges before each operation: a fuzzed request may revoke or demote. */
  async function tokens(): Promise<Record<Identity, string | undefined>> {
    const users = t.app.get(DataSource).getRepository(UserEntity);
    const issue = t.app.get(AuthTokenService);
    const result: Record<Identity, string | undefined> = { anonymous: undefined, User: undefined, Admin: undefined };
    for (const identity of ['User', 'Admin'] as const) {
      const user = identities[identity]!;
      await users.update(
        { userid: user.userid },
        { privileges: identity === 'Admin' ? 'Admin' : '', enabled: true, banned: 0 },
      );
      result[identity] = await issue.issue(user.userid);
    }
    return result;
  }

  it(`answers every generated request of every operation below 500, with a documented status (seed ${SEED})`, async () => {
    const fuzzer = new Fuzzer(document);
    const admin = (await tokens()).Admin!;
    const operations = Object.entries(document.paths as Record<string, Partial<Record<Method, Operation>>>)
      .flatMap(([path, item]) =>
        METHODS.filter((m) => item[m]).map((method) => ({ path, method, operation: item[method]! })),
      )
      // reads first, deletes last: destructive requests should not starve the others of data
      .sort((a, b) => METHODS.indexOf(a.method) - METHODS.indexOf(b.method));
    for (const { path } of operations.filter((o) => o.method === 'get' && !o.path.includes('{'))) {
      const res = await t.as(admin, { method: 'GET', url: path });
      if (String(res.headers['content-type'] ?? '').includes('json')) fuzzer.harvest(safeJson(res));
    }
    for (const table of ['guides', 'users', 'teams', 'images']) {
      const rows = await t.dataSource
        .query<Record<string, unknown>[]>(`SELECT * FROM ${table} LIMIT 20`)
        .catch(() => []);
      fuzzer.harvest(rows);
    }

    const deadline = Date.now() + TIME_LIMIT_MS;
    const failures: Finding[] = [];
    const undocumented = new Map<string, Finding>();
    let requests = 0;
    let skipped = 0;
    for (const [index, { path, method, operation }] of operations.entries()) {
      const current = await tokens();
      const samples = fc.sample(fuzzer.request(method, path, operation), { numRuns: RUNS * 3, seed: SEED + index });
      for (const [i, request] of samples.entries()) {
        if (Date.now() > deadline) {
          skipped += samples.length - i;
          break;
        }
        const identity = (['anonymous', 'User', 'Admin'] as const)[i % 3];
        const mark = logLines.length;
        const res: LightMyRequestResponse = await t.as(current[identity], {
          method: request.method,
          url: request.url,
          payload: request.payload,
          headers: request.headers,
        });
        requests += 1;
        const finding = () => ({
          identity,
          request,
          status: res.statusCode,
          body: res.body.slice(0, 500),
          log: logLines.slice(mark),
        });
        if (res.statusCode >= 500) failures.push(finding());
        else if (!operation.responses[String(res.statusCode)] && !operation.responses.default) {
          const key = `${method.toUpperCase()} ${path} -> ${res.statusCode}`;
          if (!undocumented.has(key)) undocumented.set(key, finding());
        }
        if (res.statusCode < 300 && String(res.headers['content-type'] ?? '').includes('json'))
          fuzzer.harvest(safeJson(res));
      }
    }

    const report = [
      `fuzz: seed ${SEED}, ${operations.length} operations, ${requests} requests, ${skipped} skipped at the time limit`,
      `5xx: ${failures.length}`,
      ...failures.slice(0, 30).map((f) => describeFinding(f)),
      `undocumented statuses: ${undocumented.size}`,
      ...[...undocumented.entries()].map(([key, f]) => `  ${key}  e.g. ${describeFinding(f).trim()}`),
    ].join('\n');
    process.stdout.write(`${report}\n`);
    expect({ serverErrors: failures.length, undocumented: [...undocumented.keys()] }).toEqual({
      serverErrors: 0,
      undocumented: [],
    });
  });
});

function safeJson(res: LightMyRequestResponse): unknown {
  try {
    return res.json();
  } catch {
    return undefined;
  }
}

function describeFinding(f: Finding): string {
  const payload =
    f.request.payload === undefined
      ? ''
      : Buffer.isBuffer(f.request.payload)
        ? ` <${f.request.payload.length} bytes>`
        : ` ${f.request.payload.slice(0, 300)}`;
  const errors = f.log
    .map((line) => {
      try {
        const parsed = JSON.parse(line) as { err?: { stack?: string; message?: string } };
        return parsed.err?.stack?.split('\n').slice(0, 4).join(' | ') ?? parsed.err?.message;
      } catch {
        return undefined;
      }
    })
    .filter(Boolean);
  return `  [${f.identity}] ${f.request.method} ${f.request.url}${payload}\n    -> ${f.status} ${f.body}${
    errors.length ? `\n    server: ${errors.join('\n    server: ')}` : ''
  }`;
}
