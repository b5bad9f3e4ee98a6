import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { map, type Observable } from 'rxjs';
import { responseMode } from './response-mode';
import { toXml } from './xml';

/** Applies `?pretty` (indented JSON) and `type=XML` (for routes that opt in) to every successful response. */
@Injectable()
export class SerializationInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const mode = responseMode(request);
    // Plain JSON (nearly every request): Fastify serializes the value itself.
    if (!mode.xmlRoot && !mode.pretty) return next.handle();
    const reply = http.getResponse<FastifyReply>();
    return next.handle().pipe(
      map((data: unknown) => {
        if (data === undefined) return data;
        if (mode.xmlRoot) {
          void reply.type('application/xml; charset=utf-8');
          return toXml(mode.xmlRoot, data, mode.pretty);
        }
        void reply.type('application/json; charset=utf-8');
        return JSON.stringify(data, null, 2);
      }),
    );
  }
}
