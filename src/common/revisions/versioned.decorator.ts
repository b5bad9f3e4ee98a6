import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiConflictResponse, ApiQuery } from '@nestjs/swagger';
import { RevisionInterceptor } from './revision.interceptor';
import { VERSIONED, type VersionedOptions } from './versioned.metadata';
import { ApiErrors } from '../openapi/api-error-responses';

export { VERSIONED, type VersionedOptions } from './versioned.metadata';

/**
 * Marks a write to a versioned resource (docs/api-conventions.md): `?revisionid=` is parsed (and by default required)
 * once by the RevisionInterceptor, and a StaleRevisionError from the service becomes a 409 whose body
 * is the current resource.
 */
export function Versioned(options: VersionedOptions = {}) {
  const required = options.required ?? true;
  return applyDecorators(
    SetMetadata(VERSIONED, { required }),
    // Only on these routes: an interceptor puts its requests through rxjs.
    UseInterceptors(RevisionInterceptor),
    ApiQuery({
      name: 'revisionid',
      required,
      type: 'integer',
      description: 'The revisionid the change is based on; a stale one answers 409 with the current version.',
    }),
    ApiConflictResponse({ description: 'The revisionid is stale; the body is the current version of the resource.' }),
    ApiErrors(422),
  );
}

/** The parsed `revisionid` of a @Versioned() route (undefined when optional and absent). */
export const RevisionId = createParamDecorator(
  (_data: unknown, context: ExecutionContext): number | undefined =>
    context.switchToHttp().getRequest<{ revisionid?: number }>().revisionid,
);
