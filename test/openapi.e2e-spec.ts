import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildOpenApiDocument } from '../src/openapi/openapi';
import { API_TAGS } from '../src/openapi/tags';
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

  it('files every operation under one known tag, with a summary and a description', async () => {
    const document = (await t.inject({ method: 'GET', url: '/api/2.0/openapi.json' })).json<{
      paths: Record<string, Record<string, { tags?: string[]; summary?: string; description?: string }>>;
    }>();
    const known = new Set(API_TAGS.map(([name]) => name));
    const problems: string[] = [];
    let count = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        count += 1;
        const at = `${method} ${path}`;
        if (operation.tags?.length !== 1 || !known.has(operation.tags[0]))
          problems.push(`${at}: tags ${JSON.stringify(operation.tags)}`);
        if (!operation.summary?.trim()) problems.push(`${at}: no summary`);
        if (!operation.description?.trim()) problems.push(`${at}: no description`);
      }
    }
    // What the descriptions cite is checked in the committed document (src/docs-citations.spec.ts).
    expect(problems).toEqual([]);
    expect(count).toBeGreaterThan(150);
  });

  it('offers one security scheme, a short start-here header with the details folded, and the configured upload limit', async () => {
    const document = (await t.inject({ method: 'GET', url: '/api/2.0/openapi.json' })).json<{
      info: { description: string };
      components: { securitySchemes: Record<string, unknown> };
      paths: Record<string, Record<string, { description?: string }>>;
    }>();
    expect(Object.keys(document.components.securitySchemes)).toEqual(['apiToken']);
    const [header, details] = document.info.description.split('<details>');
    expect(header).toContain('**Start here.**');
    expect(header.length).toBeLessThan(800);
    expect(details).toContain('**Conventions.**');
    const upload = document.paths['/api/2.0/user/media/images'].post.description!;
    expect(upload).toContain(`MEDIA_MAX_PIXELS pixels (default ${t.config.media.maxImagePixels.toLocaleString('en')})`);
  });

  it('has the Swagger UI authorize the page on login and add the `api ` prefix', async () => {
    const init = await t.inject({ method: 'GET', url: '/api/2.0/docs/swagger-ui-init.js' });
    expect(init.statusCode).toBe(200);
    expect(init.body).toMatch(/"requestInterceptor": \(request\)\s*=>/);
    expect(init.body).toMatch(/"responseInterceptor": \(response\)\s*=>/);
    expect(init.body).toMatch(/ui\.preauthorizeApiKey\(["']apiToken["'], `api \$\{token\}`\)/);
    expect(init.body).toContain('"persistAuthorization": true');
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
