import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse, type OpenAPIObject } from '@nestjs/swagger';

/** One entry of a 422 body's `errors` array. */
export class FieldErrorDto {
  @ApiProperty({ example: 'title must be shorter than or equal to 255 characters' })
  message!: string;

  @ApiPropertyOptional({ description: 'Dotted path of the field, e.g. `fields.125`', example: 'title' })
  field?: string;

  @ApiPropertyOptional({ type: 'integer', description: 'Position in an array body, where it applies' })
  index?: number;
}

/** The error body every error answers with (docs/api-conventions.md). */
export class ErrorBodyDto {
  @ApiProperty({ enum: [true], example: true })
  error!: true;

  @ApiProperty({ example: 'Guide not found' })
  message!: string;

  @ApiPropertyOptional({ type: [FieldErrorDto], description: '422 only' })
  errors?: FieldErrorDto[];

  @ApiPropertyOptional({ type: [String], description: '403 only: privileges that would have been enough' })
  requiredPrivileges?: string[];
}

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid JSON, or a body nested too deeply',
  401: 'Authentication required, or the token is invalid or revoked',
  403: 'Not allowed (the body names the privileges that would be enough)',
  404: 'Not found, or not readable by the caller',
  409: 'Conflict',
  405: 'Method not allowed on this path; see `Allow`',
  413: 'Body too large',
  414: 'A path segment is longer than 1000 characters',
  415: 'Unsupported media type',
  422: 'Invalid input; `errors` names each field',
  429: 'Too many requests; see `Retry-After` and the `RateLimit-*` headers',
  431: 'The request line (a long query string counts) and headers are larger than the limit; the connection is closed',
  503: 'The database is unavailable; see `Retry-After`',
};

/**
 * Declares the error statuses a route answers, each with the error body schema. A status whose body
 * is not an error object (a 409 answering the current resource) is declared by the route itself.
 */
export function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({ status, description: DESCRIPTIONS[status] ?? 'Error', type: ErrorBodyDto }),
    ),
  );
}

type Responses = Record<string, { description?: string; content?: Record<string, unknown> }>;
interface DocumentOperation {
  parameters?: { in?: string }[];
  requestBody?: unknown;
  responses?: Responses;
}

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBodyDto' } } };

/** Error bodies are written as JSON, or as XML where the route answers XML. */
const ERROR_TYPES = ['application/json', 'application/xml'];

/**
 * An error's content: the route's own types for it when they are error types; else JSON with the schema it was
 * given (a route producing CSV or SVG has its errors listed under that type, but answers them in JSON).
 */
function errorContent(content: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!content) return ERROR_CONTENT;
  const types = Object.keys(content);
  if (types.some((type) => ERROR_TYPES.includes(type))) {
    return Object.fromEntries(types.filter((type) => ERROR_TYPES.includes(type)).map((type) => [type, content[type]]));
  }
  return types.length ? { 'application/json': content[types[0]] } : ERROR_CONTENT;
}

/**
 * Completes each operation's responses with the statuses that follow from its shape, whatever the route
 * declares: 400 (malformed URL or request), 401 (an invalid token is refused even on public routes) and 431
 * (Node's HTTP parser refuses a request line and headers over its limit, before any route) everywhere, 429 on
 * API routes (the general rate limit), 413 and 422 with a body, 422 with query parameters, 404 and 414 with path
 * parameters. Every 4xx/5xx declared without a body schema gets the error schema, and is listed as JSON (or
 * XML) whatever the route's success type (409 excepted: its body is the current resource). Routes declare the
 * rest with ApiErrors.
 */
export function addErrorResponses(document: OpenAPIObject): OpenAPIObject {
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, DocumentOperation>>)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method) || !operation.responses) continue;
      const responses = operation.responses;
      const add = (status: number) => {
        responses[status] ??= { description: DESCRIPTIONS[status] ?? 'Error', content: ERROR_CONTENT };
      };
      const where = (operation.parameters ?? []).map((parameter) => parameter.in);
      add(400);
      add(401);
      add(431);
      if (path.startsWith('/api/')) add(429);
      if (operation.requestBody) [413, 422].forEach(add);
      if (where.includes('query')) add(422);
      if (where.includes('path')) [404, 414].forEach(add);
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) >= 400 && status !== '409') response.content = errorContent(response.content);
      }
    }
  }
  return document;
}
