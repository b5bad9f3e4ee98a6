import { ArgumentMetadata, Injectable, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';
import { ValidationFailedException, type FieldError } from '../http/api-errors';
import { badTextErrors, validatedBodyErrors } from './input-guards';
import { QueryValidationCache } from './query-validation-cache';
import { memoizeValidationMetadata } from './validation-metadata-cache';

memoizeValidationMetadata();

/** Flattens class-validator's tree into `errors[]`: field is the dotted path without indices, index the innermost one. */
export function toFieldErrors(errors: ValidationError[], parentPath: string[] = [], index?: number): FieldError[] {
  const out: FieldError[] = [];
  for (const error of errors) {
    const isIndex = /^\d+$/.test(error.property);
    const path = isIndex ? parentPath : [...parentPath, error.property];
    const here = isIndex ? Number(error.property) : index;
    const field = path.join('.');
    const constraints = Object.values(error.constraints ?? {});
    // A missing value fails every constraint; one "is required" says it better.
    const messages =
      error.value === undefined && constraints.length && !error.children?.length
        ? [`${field || error.property} is required`]
        : constraints;
    for (const message of messages) {
      out.push({ message, ...(field ? { field } : {}), ...(here !== undefined ? { index: here } : {}) });
    }
    if (error.children?.length) out.push(...toFieldErrors(error.children, path, here));
  }
  return out;
}

const exceptionFactory = (errors: ValidationError[]) => new ValidationFailedException(toFieldErrors(errors));

const NATIVE_TYPES: unknown[] = [String, Boolean, Number, Array, Object];

/**
 * The global pipe. Bodies reject unknown fields (422, as iFixit does); query strings ignore unknown
 * parameters (docs/api-conventions.md). Both answer 422 in the iFixit error shape. Before any of that, text with NUL or
 * unpaired surrogates is a 422 naming the field; after it, a body's nulls and integer ranges are checked
 * against the OpenAPI document (see validatedBodyErrors).
 */
@Injectable()
export class ApiValidationPipe implements PipeTransform {
  private readonly strict = new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: true },
    exceptionFactory,
  });
  private readonly lenient = new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: false,
    validationError: { target: false, value: true },
    exceptionFactory,
  });
  private readonly queries = new QueryValidationCache();

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const isDto = typeof metadata.metatype === 'function' && !NATIVE_TYPES.includes(metadata.metatype);
    if (metadata.type === 'body' || metadata.type === 'query') {
      const bad = badTextErrors(value, metadata.data ? [metadata.data] : []);
      if (bad.length) throw new ValidationFailedException(bad);
    }
    if (metadata.type === 'body' && isDto) {
      const body = value === undefined || value === null ? {} : value;
      if (typeof body !== 'object' || Array.isArray(body)) {
        throw new ValidationFailedException([{ message: 'Request body must be a JSON object' }]);
      }
      const validated: unknown = await this.strict.transform(body, metadata);
      const errors = validatedBodyErrors(validated);
      if (errors.length) throw new ValidationFailedException(errors);
      return validated;
    }
    if (metadata.type === 'query' && isDto) return this.query(value, metadata);
    return this.lenient.transform(value, metadata);
  }

  /** Query DTOs: a query seen before skips validation (see QueryValidationCache). */
  private async query(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const dto = metadata.metatype as abstract new () => object;
    const values = this.queries.keyOf(value);
    const key = values === undefined ? undefined : `${metadata.data ?? ''}\u0000${values}`;
    const cached = key === undefined ? undefined : this.queries.get(dto, key);
    if (cached) return cached;
    const validated: unknown = await this.lenient.transform(value, metadata);
    if (key !== undefined && validated !== null && typeof validated === 'object') {
      this.queries.set(dto, key, validated);
    }
    return validated;
  }
}
