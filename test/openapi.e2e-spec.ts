import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildOpenApiDocument } from '../src/openapi/openapi';
import { createTestApp, type TestApp } from './utils/test-app';

const root = resolve(__dirname, '..');
const FIX = 'run `npm run openapi:sync` and commit the result';

describe('OpenAPI document (docs/api-conventions.md)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serves the document and the Swagger UI', async () => {
    const json = await t.inject({ method: 'GET', url: '/api/2.0/openapi.json' });
    expect(json.statusCode).toBe(200);
    const document = json.json();
    expect(document.info.title).toBe('Repair Guide Content Service API');
    expect(document.components.securitySchemes.apiToken).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description: 'Format: `api <token>`; obtain one with POST /user/token.',
    });
    const ui = await t.inject({ method: 'GET', url: '/api/2.0/docs' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toMatch(/text\/html/);
    expect(ui.body).toContain('swagger-ui');
  });

  it(`matches the committed openapi/openapi.json (if not: ${FIX})`, () => {
    const committed = JSON.parse(readFileSync(resolve(root, 'openapi/openapi.json'), 'utf8')) as unknown;
    expect(JSON.parse(JSON.stringify(buildOpenApiDocument(t.app)))).toEqual(committed);
  });

  it(`src/metadata.ts is what the swagger plugin generates from the current code (if not: ${FIX})`, () => {
    const check = resolve(root, 'src/metadata.check.ts');
    try {
      execFileSync(process.execPath, [resolve(root, 'scripts/generate-metadata.mjs'), 'src/metadata.check.ts'], {
        cwd: root,
        stdio: 'pipe',
      });
      expect(readFileSync(check, 'utf8')).toBe(readFileSync(resolve(root, 'src/metadata.ts'), 'utf8'));
    } finally {
      rmSync(check, { force: true });
    }
  }, 120_000);
});
