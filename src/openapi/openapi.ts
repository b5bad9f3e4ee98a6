import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

export const API_PREFIX = 'api/2.0';
export const DOCS_PATH = `${API_PREFIX}/docs`;
export const OPENAPI_JSON_PATH = `${API_PREFIX}/openapi.json`;

const DESCRIPTION = `
Self-hostable Repair Guide Content Service: guides, wikis and the category tree, tags, users and teams,
media and more, compatible with iFixit API 2.0 clients.

**Conventions.** Bodies are JSON whatever the Content-Type says (invalid JSON: 400). Errors are
\`{"error": true, "message": "…"}\`; 422 adds \`errors: [{message, field, index}]\`, 403 adds
\`requiredPrivileges\`. A 409 body is the current version of the resource. Unknown query parameters are
ignored. \`limit\` is 1–200 (larger values are clamped to 200; below 1 or not an integer: 422), \`offset\`
>= 0. Flags such as \`unpatrolled\` and \`excludePrerequisiteSteps\` take effect when present, whatever their
value. Add \`?pretty\` to any request for indented JSON. Every response carries \`X-Request-Id\` (yours,
if you sent a sane one). JSON bodies are limited to 1 MiB and uploads to 50 MiB by default (413 beyond).
A known path called with an unsupported method answers 405 with an \`Allow\` header.

**Authentication.** Send \`Authorization: api <token>\`. On public routes a token is optional, but an
invalid or revoked one is still a 401. \`X-App-Id\` is accepted and never required.
`.trim();

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Repair Guide Content Service API')
    .setDescription(DESCRIPTION)
    .setVersion('2.0')
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description: 'Format: `api <token>`; obtain one with POST /user/token.',
      },
      'apiToken',
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'X-App-Id',
        description: 'Application id; accepted and recorded, never required.',
      },
      'appId',
    )
    .build();
  return SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controllerKey, methodKey) => `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
  });
}

export function serveOpenApi(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    yamlDocumentUrl: `${API_PREFIX}/openapi.yaml`,
    customSiteTitle: 'Repair Guide Content Service API',
  });
}
