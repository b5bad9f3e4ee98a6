import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** The field of the request's line that the pretty format does not repeat. */
export const REQUEST_LOG_FIELD = 'request';

/**
 * One log line per request, when it is answered (method, URL, status, time), instead of Fastify's two (one
 * when the request arrives, one when it is answered).
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const ms = Math.round(reply.elapsedTime);
    // Under one key, which the pretty format leaves out (the message says it all).
    const fields = {
      request: { method: request.method, url: request.url, ip: request.ip, statusCode: reply.statusCode, ms },
    };
    const line = `${request.method} ${request.url} ${reply.statusCode} ${ms} ms`;
    if (error) reply.log.error({ ...fields, err: error }, `${line} (errored)`);
    else reply.log.info(fields, line);
  }
}
