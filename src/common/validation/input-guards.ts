import type { FieldError } from '../http/api-errors';

/** Deepest nesting of arrays and objects accepted in a JSON body (400 beyond, before any validation). */
export const MAX_JSON_DEPTH = 64;

/** The database's INT range: integers outside it in a body are a 422 unless the field is declared int64. */
export const INT32_MAX = 2_147_483_647;
export const INT32_MIN = -2_147_483_648;

/**
 * Whether JSON text nests arrays/objects deeper than `max`. A linear scan that skips string contents, so
 * that a hostile body is refused before JSON.parse and class-transformer recurse into it.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** NUL and unpaired UTF-16 surrogates: neither database stores them faithfully, and URLs cannot encode the latter. */
export const isBadText = (value: string): boolean => value.includes('\u0000') || UNPAIRED_SURROGATE.test(value);

/** Replaces unpaired surrogates with U+FFFD, so that encodeURIComponent never throws on stored text. */
export const wellFormed = (value: string): string =>
  UNPAIRED_SURROGATE.test(value)
    ? value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    : value;

const fieldError = (message: string, path: string[], index: number | undefined): FieldError => ({
  message: `${path.join('.') || 'body'} ${message}`,
  ...(path.length ? { field: path.join('.') } : {}),
  ...(index !== undefined ? { index } : {}),
});

/**
 * Strings with NUL or unpaired surrogates anywhere in a body or query, named like class-validator errors
 * (dotted field path without indices; the innermost index in `index`).
 */
export function badTextErrors(
  value: unknown,
  path: string[] = [],
  index?: number,
  out: FieldError[] = [],
): FieldError[] {
  if (typeof value === 'string') {
    if (isBadText(value))
      out.push(fieldError('must not contain NUL characters or unpaired UTF-16 surrogates', path, index));
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => badTextErrors(item, path, i, out));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      badTextErrors(child, [...path, key], index, out);
    }
  }
  return out;
}

interface FieldSchema {
  nullable?: boolean;
  format?: string;
}

type FieldSchemas = Map<string, FieldSchema>;

const SWAGGER_PROPERTY = 'swagger/apiModelProperties';
const PLUGIN_FACTORY = '_OPENAPI_METADATA_FACTORY';
const schemasByClass = new WeakMap<object, FieldSchemas>();

/**
 * What the OpenAPI document says about a DTO's fields: the Nest swagger plugin's metadata (from the
 * TypeScript types: `x?: number | null` is nullable) and explicit @ApiProperty options.
 */
function fieldSchemas(dto: object): FieldSchemas {
  let schemas = schemasByClass.get(dto);
  if (schemas) return schemas;
  schemas = new Map();
  const chain: object[] = [];
  for (let c: unknown = dto; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    chain.unshift(c);
  }
  for (const cls of chain) {
    const factory = Object.prototype.hasOwnProperty.call(cls, PLUGIN_FACTORY)
      ? (cls as Record<string, () => Record<string, FieldSchema>>)[PLUGIN_FACTORY]
      : undefined;
    for (const [key, schema] of Object.entries(factory?.() ?? {})) {
      schemas.set(key, { ...schemas.get(key), ...schema });
    }
    const prototype = (cls as { prototype?: object }).prototype;
    if (!prototype) continue;
    for (const key of Object.getOwnPropertyNames(prototype).concat(schemaKeys(prototype))) {
      const explicit = Reflect.getOwnMetadata(SWAGGER_PROPERTY, prototype, key) as FieldSchema | undefined;
      if (explicit) schemas.set(key, { ...schemas.get(key), ...explicit });
    }
  }
  schemasByClass.set(dto, schemas);
  return schemas;
}

function schemaKeys(prototype: object): string[] {
  const listed = Reflect.getOwnMetadata('swagger/apiModelPropertiesArray', prototype) as string[] | undefined;
  return (listed ?? []).map((key) => key.replace(/^:/, ''));
}

/**
 * After class-validator has passed a body: a `null` is accepted only in fields the OpenAPI document
 * declares nullable (class-validator's @IsOptional lets null through everywhere), and integers must fit the
 * database's INT unless the field is declared `format: int64` (then a safe integer).
 */
export function validatedBodyErrors(
  value: unknown,
  path: string[] = [],
  index?: number,
  out: FieldError[] = [],
): FieldError[] {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      if (typeof item === 'number') checkNumber(item, undefined, path, i, out);
      else validatedBodyErrors(item, path, i, out);
    });
    return out;
  }
  if (value === null || typeof value !== 'object') return out;
  const dto = Object.getPrototypeOf(value) as { constructor?: object } | null;
  const schemas = dto && dto !== Object.prototype && dto.constructor ? fieldSchemas(dto.constructor) : undefined;
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const schema = schemas?.get(key);
    if (child === null) {
      if (schemas && !schema?.nullable) out.push(fieldError('must not be null', [...path, key], index));
    } else if (typeof child === 'number') {
      checkNumber(child, schema, [...path, key], index, out);
    } else if (typeof child === 'object') {
      validatedBodyErrors(child, [...path, key], index, out);
    }
  }
  return out;
}

function checkNumber(
  value: number,
  schema: FieldSchema | undefined,
  path: string[],
  index: number | undefined,
  out: FieldError[],
): void {
  if (!Number.isFinite(value)) {
    out.push(fieldError('must be a finite number', path, index));
  } else if (Number.isInteger(value)) {
    const wide = schema?.format === 'int64';
    const [min, max] = wide ? [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER] : [INT32_MIN, INT32_MAX];
    if (value > max) out.push(fieldError(`must not be greater than ${max}`, path, index));
    else if (value < min) out.push(fieldError(`must not be less than ${min}`, path, index));
  }
}
