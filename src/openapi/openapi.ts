import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { addErrorResponses } from '../common/openapi/api-error-responses';
import { polishDocument } from './document-polish';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { DEMO_LOGIN, DemoSeedRegistry, type DemoLogin } from '../database/seed/demo-seed.registry';
import { addApiPrefix, authorizeOnLogin } from './swagger-ui-auth';
import { API_TAGS } from './tags';

export const API_PREFIX = 'api/2.0';
export const DOCS_PATH = `${API_PREFIX}/docs`;
export const OPENAPI_JSON_PATH = `${API_PREFIX}/openapi.json`;

const DETAILS = `
**Conventions.** Bodies are JSON whatever the Content-Type says (invalid JSON: 400). Errors are
\`{"error": true, "message": "…"}\`; 422 adds \`errors: [{message, field, index}]\`, 403 adds
\`requiredPrivileges\`. A 409 body is the current version of the resource. Unknown query parameters are
ignored. \`limit\` is 1–200 (larger values are clamped to 200; below 1 or not an integer: 422), and
\`offset\` is 0 or more. Flags such as \`unpatrolled\` and \`excludePrerequisiteSteps\` take effect when present, whatever their
value. Add \`?pretty\` to any request for indented JSON. Every response carries \`X-Request-Id\` (yours,
if you sent a sane one). JSON bodies are limited to 1 MiB and uploads to 50 MiB by default (413 beyond).
A known path called with an unsupported method answers 405 with an \`Allow\` header.

**Input limits.** JSON nested deeper than 64 levels: 400, before validation. Text containing NUL or unpaired
UTF-16 surrogates, in a body or a query parameter: 422 naming the field. \`null\` is accepted only in fields
documented as nullable (elsewhere: 422 naming the field). Integers must fit the database's INT range
(−2147483648…2147483647) unless documented as int64; integer query parameters (\`offset\`, ids,
\`revisionid\`) outside their range are a 422 naming the parameter, while a path id outside 1…2147483647 is
the 404 of an unknown id. A malformed URL is a 400, a path segment over 1000 characters a 414, a request
line and headers over Node's limit of 16 KiB together (a long query string counts) a 431 (the connection is
then closed).

**Rate limits.** Every API request counts against a limit per token (when one is sent) or else per client
address (default 600 per minute); failed logins are limited per account and per account and address, self-
registration per address. Beyond a limit: 429 with \`Retry-After\`; responses carry \`RateLimit-Limit\`,
\`RateLimit-Remaining\` and \`RateLimit-Reset\`.

**Authentication.** Send \`Authorization: api <token>\`. On public routes a token is optional, but an
invalid or revoked one is still a 401. \`X-App-Id\` is accepted and never required. In this page a
successful **POST /user/token** authorizes the page; **Authorize** also takes a token typed by hand (the
\`api \` prefix is added when missing), and **DELETE /user/token** logs the page out.

**Reads and writes spell some fields differently** (as in iFixit API 2.0): a guide's \`parts\` and \`tools\`
are read as \`{text, …}\` but written as \`{name, …}\`; a step's lines are read with \`text_raw\` (and
\`text_rendered\`) but written with \`text\`; wiki text is read as \`*_raw\` / \`*_rendered\` (e.g.
\`introduction_raw\`) and written under the plain name (\`introduction\`). Each field says so below.

The rules in full are in the repository: docs/api-conventions.md.
`.trim();

/** What a newcomer reads first; the details are one click away, folded. */
const DESCRIPTION = `
Self-hostable guides, wikis and the category tree, tags, users and teams, media and more, compatible with iFixit API 2.0
clients.

**Start here.** Open **Authentication › POST /user/token** and press **Execute**: the page is then authorized
by itself (and stays so across reloads). On a development site with fresh demo content the example already
holds the demo password; elsewhere replace the placeholder with your password. Then try any operation: the
prefilled examples point at the demo content. Your own clients send \`Authorization: api <token>\`.

<details>
<summary><b>Conventions, limits and authentication in detail</b></summary>

${DETAILS}

</details>
`.trim();

/**
 * The demo password, while this process knows it (the start that seeded the demo content) and only outside
 * production: the login and signing examples then run as shown.
 */
function demoPassword(app: INestApplication): string | undefined {
  if (app.get<AppConfig>(APP_CONFIG).env === 'production') return undefined;
  return app.get(DemoSeedRegistry, { strict: false }).get<DemoLogin>(DEMO_LOGIN)?.password;
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Repair Guide Content Service API')
    .setDescription(DESCRIPTION)
    .setVersion('2.0')
    .addServer('/', 'This service')
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description: 'Format: `api <token>`; obtain one with POST /user/token.',
      },
      'apiToken',
    );
  for (const [name, description] of API_TAGS) config.addTag(name, description);
  return polishDocument(
    addErrorResponses(
      SwaggerModule.createDocument(app, config.build(), {
        operationIdFactory: (controllerKey, methodKey) => `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
      }),
    ),
    { demoPassword: demoPassword(app) },
  );
}

/** `document` is built on the first request for it: building it costs about a second of start-up. */
export function serveOpenApi(app: INestApplication, document: () => OpenAPIObject): void {
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    yamlDocumentUrl: `${API_PREFIX}/openapi.yaml`,
    customSiteTitle: 'Repair Guide Content Service API',
    swaggerOptions: {
      persistAuthorization: true,
      filter: true,
      tryItOutEnabled: true,
      displayRequestDuration: true,
      // Deep links put the operationId in the URL hash, and Swagger UI logs a deprecation error on reload for
      // the underscore in ours (Auth_createToken).
      deepLinking: false,
      requestInterceptor: addApiPrefix,
      responseInterceptor: authorizeOnLogin,
    },
  });
}
