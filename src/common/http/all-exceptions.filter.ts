import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { writeError } from './error-writer';
import { RouteTable } from './route-table';

/** Every error raised inside Nest ends here and is written in the iFixit shape. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(private readonly routes: RouteTable) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    writeError(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), this.routes);
  }
}
