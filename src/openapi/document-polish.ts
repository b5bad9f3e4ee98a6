import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import type { OpenAPIObject } from '@nestjs/swagger';
import { PARAMETER_EXAMPLES, PASSWORD_PLACEHOLDER, REQUEST_EXAMPLES } from './request-examples';

/* What @nestjs/swagger's generated document gets wrong for a Swagger UI user, corrected in one pass. */

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Json;
  example?: unknown;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { description?: string; content: Record<string, { schema?: Json; example?: unknown }> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** Numeric fields that really are fractional; every other `number` of this API is an integer. */
const FRACTIONAL = new Set(['frame_rate']);

function operations(document: OpenAPIObject): [string, string, Operation][] {
  const found: [string, string, Operation][] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
    for (const [method, operation] of Object.entries(item))
      if (METHODS.includes(method)) found.push([method, path, operation]);
  }
  return found;
}

/**
 * `@Headers('x-app-id')` makes the generator declare a required lowercase header beside the documented
 * optional `X-App-Id`, and the UI then refuses to send the request. Header names are case-insensitive:
 * one optional parameter each.
 */
function fixHeaderParameters(operation: Operation): void {
  if (!operation.parameters) return;
  const seen = new Map<string, Parameter>();
  operation.parameters = operation.parameters.filter((parameter) => {
    if (parameter.in !== 'header') return true;
    const key = parameter.name.toLowerCase();
    // OpenAPI ignores an Authorization header parameter (security schemes describe it), and the Swagger UI then
    // renders no Execute button; the operation's description says what to send.
    if (key === 'authorization') return false;
    const earlier = seen.get(key);
    if (key === 'x-app-id') {
      parameter.name = 'X-App-Id';
      parameter.required = false;
      parameter.description ??= 'Application id; recorded, never required.';
    }
    if (earlier) {
      earlier.description ??= parameter.description;
      return false;
    }
    seen.set(key, parameter);
    return true;
  });
}

/** A multipart upload is a form with the field `file`; listed first so the UI offers a file picker. */
function fixUploads(operation: Operation): void {
  const content = operation.requestBody?.content;
  if (!content?.['multipart/form-data']) return;
  const form = {
    schema: {
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary', description: 'The file to upload.' } },
    },
  };
  const rest = Object.fromEntries(Object.entries(content).filter(([type]) => type !== 'multipart/form-data'));
  operation.requestBody!.content = { 'multipart/form-data': form, ...rest };
}

function integerSchema(schema: Json | undefined, name: string): void {
  if (!schema || FRACTIONAL.has(name)) return;
  if (schema.type === 'number') schema.type = 'integer';
  if (schema.type === 'array') integerSchema(schema.items as Json | undefined, name);
}

/** Every `number` property and parameter becomes `integer` (ids, dates, counts), except FRACTIONAL. */
function integerNumbers(node: unknown, name = ''): void {
  if (Array.isArray(node)) {
    node.forEach((item) => integerNumbers(item, name));
    return;
  }
  if (!node || typeof node !== 'object') return;
  const object = node as Json;
  if (object.type === 'number' && !FRACTIONAL.has(name)) object.type = 'integer';
  for (const [key, value] of Object.entries(object)) {
    if (key === 'properties' && value && typeof value === 'object') {
      for (const [property, schema] of Object.entries(value as Json)) integerNumbers(schema, property);
    } else if (key === 'parameters' && Array.isArray(value)) {
      for (const parameter of value as Parameter[]) integerSchema(parameter.schema, parameter.name);
    } else {
      integerNumbers(value, key === 'items' ? name : key);
    }
  }
}

/** `@IsIn` lists become enums on the request schemas (the generator's validator shim skips them). */
function enumsFromValidators(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Json>;
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<Function, ValidationMetadata[]> };
  for (const target of storage.validationMetadatas.keys()) {
    const schema = schemas[target.name];
    const properties = schema?.properties as Record<string, Json> | undefined;
    if (!properties) continue;
    const inherited: ValidationMetadata[] = [];
    for (
      let at: unknown = target;
      typeof at === 'function' && at !== Function.prototype;
      at = Object.getPrototypeOf(at)
    ) {
      inherited.push(...(storage.validationMetadatas.get(at) ?? []));
    }
    for (const metadata of inherited) {
      const values = metadata.constraints?.[0] as unknown;
      if (metadata.name !== 'isIn' || !Array.isArray(values)) continue;
      const property = properties[metadata.propertyName];
      if (!property) continue;
      const at = metadata.each && property.type === 'array' ? (property.items as Json) : property;
      if (at && !at.$ref) at.enum = [...(values as unknown[])];
    }
  }
}

/**
 * Swagger UI renders descriptions as Markdown with HTML: `<category>` disappears as an unknown tag and a line
 * starting with `>` becomes a quote. Escape both outside code spans.
 */
export function escapeMarkdown(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      line
        .split(/(`[^`]*`)/)
        .map((part, index) => (index % 2 === 1 ? part : part.replace(/</g, '&lt;').replace(/^(\s*)>/, '$1\\>')))
        .join(''),
    )
    .join('\n');
}

function escapeDescriptions(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(escapeDescriptions);
    return;
  }
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node as Json)) {
    if ((key === 'description' || key === 'summary') && typeof value === 'string') {
      (node as Json)[key] = escapeMarkdown(value);
    } else if (key !== 'example' && key !== 'examples') {
      escapeDescriptions(value);
    }
  }
}

/**
 * A body whose `password` is the placeholder gets the demo password when it is known, else a description
 * saying to replace it.
 */
function passwordExample(operation: Operation, body: unknown, demoPassword: string | undefined): unknown {
  if (!body || typeof body !== 'object' || (body as Json).password !== PASSWORD_PLACEHOLDER) return body;
  if (demoPassword) return { ...(body as Json), password: demoPassword };
  operation.requestBody!.description =
    `Replace \`${PASSWORD_PLACEHOLDER}\` with your password (on a development site: the demo password printed ` +
    'at the first start).';
  return body;
}

function applyExamples(method: string, path: string, operation: Operation, demoPassword: string | undefined): void {
  const example = REQUEST_EXAMPLES[`${method} ${path}`] ?? {};
  const json = operation.requestBody?.content['application/json'];
  if (json && example.body !== undefined) json.example = passwordExample(operation, example.body, demoPassword);
  for (const parameter of operation.parameters ?? []) {
    const value =
      parameter.in === 'path'
        ? (example.path?.[parameter.name] ?? PARAMETER_EXAMPLES[parameter.name])
        : parameter.in === 'query'
          ? example.query?.[parameter.name]
          : undefined;
    if (value !== undefined) parameter.example = value;
  }
}

export interface PolishOptions {
  /** Put into the examples that carry PASSWORD_PLACEHOLDER (only where the demo password may be shown). */
  demoPassword?: string;
}

export function polishDocument(document: OpenAPIObject, options: PolishOptions = {}): OpenAPIObject {
  enumsFromValidators(document);
  for (const [method, path, operation] of operations(document)) {
    fixHeaderParameters(operation);
    fixUploads(operation);
    applyExamples(method, path, operation, options.demoPassword);
  }
  integerNumbers(document.paths);
  integerNumbers(document.components);
  escapeDescriptions(document.paths);
  escapeDescriptions(document.components);
  return document;
}
