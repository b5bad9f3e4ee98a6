import {
  applyDecorators,
  Injectable,
  SetMetadata,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { from, lastValueFrom, type Observable } from 'rxjs';
import type { RequestWithUser } from '../../common/auth/auth-rule.decorators';
import { JSON_CONTENT_TYPE, wantsPlainJson } from '../../common/http/response-mode';
import { registerAnswerSources } from '../../database/answer-sources';
import type { AnswerToken } from '../versions/content-versions';
import { callerKey, ResponseCache, type CacheScope } from './response-cache';

export interface CachedResponseOptions {
  /** The token the answers are kept under: a write to any of `sources` replaces it, on every instance. */
  family: AnswerToken;
  /** Every table the answer is read from (a test per route checks the list against the statements it runs). */
  sources: readonly string[];
  /** `anonymous`: only callers without a token are served cached answers; the others' are built each time. */
  callers?: 'each' | 'anonymous';
  /**
   * The answer is one document's, the one route parameter `param` names; `tables` are the sources whose rows each
   * belong to one document. A write of those tables by a transaction that declared the documents it changes
   * (changesDocument in answer-sources.ts) keeps the other documents' answers. An answer that shows other documents
   * too (ResponseCache.showsOtherDocuments) is kept under `othersFamily`, which a write of any source replaces.
   */
  document?: { param: string; tables: readonly string[]; othersFamily: AnswerToken };
}

const CACHED_RESPONSE = 'cachedResponse';

/**
 * The answer of this GET route is kept whole (ResponseCache) as its plain JSON text, per caller (their id and
 * privileges) and URL, until a write changes one of `sources`. `?pretty` and XML answers are built each time.
 * The handler returns its DTO as any route does: the text is kept here, after the guard and before the pipes.
 */
export function CachedResponse(options: CachedResponseOptions): MethodDecorator {
  registerAnswerSources(options.sources, options.family, options.document?.tables);
  if (options.document) registerAnswerSources(options.sources, options.document.othersFamily);
  return applyDecorators(SetMetadata(CACHED_RESPONSE, options), UseInterceptors(ResponseCacheInterceptor));
}

/** The answer's scope; none (not kept) when the document's id is not written as writers name it (`007`). */
function scopeOf(options: CachedResponseOptions, request: RequestWithUser): CacheScope | undefined {
  const { family, document } = options;
  if (!document) return { family };
  const id = (request.params as Record<string, string | undefined>)[document.param];
  if (id === undefined || !/^[1-9][0-9]{0,14}$/.test(id)) return undefined;
  return { family, document: { id, othersFamily: document.othersFamily } };
}

@Injectable()
export class ResponseCacheInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly answers: ResponseCache,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const options = this.reflector.get<CachedResponseOptions | undefined>(CACHED_RESPONSE, context.getHandler());
    const http = context.switchToHttp();
    const request = http.getRequest<RequestWithUser>();
    const caller = request.user;
    if (!options || !wantsPlainJson(request) || (caller && options.callers === 'anonymous')) return next.handle();
    const scope = scopeOf(options, request);
    if (!scope) return next.handle();
    const key = `${caller ? callerKey(caller) : ''}|${request.url}`;
    const answer = this.answers.keep(key, scope, () => lastValueFrom(next.handle()));
    return from(
      answer.then(({ json, etag }) => {
        const reply = http.getResponse<FastifyReply>().type(JSON_CONTENT_TYPE);
        if (etag) void reply.header('etag', etag);
        return json;
      }),
    );
  }
}
