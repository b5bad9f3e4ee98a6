import { HttpException, HttpStatus } from '@nestjs/common';

/** One entry of a 422 body's `errors` array. */
export interface FieldError {
  message: string;
  field?: string;
  index?: number;
}

/** The iFixit error body: `{error: true, message}` plus optional details. */
export interface ErrorBody {
  error: true;
  message: string;
  errors?: FieldError[];
  requiredPrivileges?: string[];
}

export class ApiException extends HttpException {
  /** Response headers that go with this error (e.g. Retry-After). */
  headers?: Record<string, string>;

  constructor(status: number, message: string, extra: Omit<ErrorBody, 'error' | 'message'> = {}) {
    super({ error: true, message, ...extra } satisfies ErrorBody, status);
  }
}

/** 422 with the fields that failed. */
export class ValidationFailedException extends ApiException {
  constructor(errors: FieldError[], message = errors[0]?.message ?? 'Validation failed') {
    super(HttpStatus.UNPROCESSABLE_ENTITY, message, { errors });
  }
}

/** 403 naming the privileges that would have been enough. */
export class InsufficientPrivilegesException extends ApiException {
  constructor(requiredPrivileges: string[], message = 'Insufficient privileges') {
    super(HttpStatus.FORBIDDEN, message, { requiredPrivileges });
  }
}

/** 409 whose body is the current version of the resource, not an error object (docs/api-conventions.md). */
export class RevisionConflictException extends HttpException {
  constructor(readonly current: unknown) {
    super(current as Record<string, unknown>, HttpStatus.CONFLICT);
  }
}

export const notFound = (what: string) => new ApiException(HttpStatus.NOT_FOUND, `${what} not found`);
export const unauthorized = (message = 'Authentication required') => new ApiException(HttpStatus.UNAUTHORIZED, message);
export const unprocessable = (message: string, field?: string, index?: number) =>
  new ValidationFailedException([{ message, ...(field ? { field } : {}), ...(index !== undefined ? { index } : {}) }]);
