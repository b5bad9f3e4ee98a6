import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { catchError, from, mergeMap, type Observable } from 'rxjs';
import { requestContext } from '../context/request-context';
import { RevisionConflictException, unprocessable } from '../http/api-errors';
import { INT32_MAX } from '../validation/input-guards';
import { StaleRevisionError } from './stale-revision.error';
import { VERSIONED, type VersionedOptions } from './versioned.metadata';

/** The HTTP side of optimistic concurrency, done once for every @Versioned() route. */
@Injectable()
export class RevisionInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const options = this.reflector.get<Required<VersionedOptions> | undefined>(VERSIONED, context.getHandler());
    if (!options) return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest & { revisionid?: number }>();
    const raw = (request.query as Record<string, unknown> | undefined)?.revisionid;
    if (raw === undefined || raw === '') {
      if (options.required) throw unprocessable('revisionid is required', 'revisionid');
    } else if (typeof raw !== 'string' || !/^\d{1,10}$/.test(raw) || Number(raw) < 1 || Number(raw) > INT32_MAX) {
      throw unprocessable(`revisionid must be an integer from 1 to ${INT32_MAX}`, 'revisionid');
    } else {
      request.revisionid = Number(raw);
    }
    return next.handle().pipe(
      catchError((error: unknown) => {
        if (!(error instanceof StaleRevisionError)) throw error;
        // The version that won may be in a group commit still in progress: read where it is already visible.
        return from(requestContext.readingLatest(() => error.loadCurrent())).pipe(
          mergeMap((current) => {
            throw new RevisionConflictException(current);
          }),
        );
      }),
    );
  }
}
