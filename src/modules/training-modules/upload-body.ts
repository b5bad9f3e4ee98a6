import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { closeAfterResponse } from '../../common/http/request-hooks';

/**
 * Stops reading an upload that is refused (not created, too large, not a ZIP, cancelled while it arrives):
 * the answer is sent with `Connection: close` and the connection then closes, instead of reading the rest of
 * the body for as long as the client sends it.
 */
export function refuseBody(request: FastifyRequest, body?: Readable): void {
  body?.unpipe();
  body?.pause();
  request.raw.pause();
  closeAfterResponse(request);
}

/** Reads until at least 4 bytes arrived (or the stream ended); the rest of the stream follows. */
export async function readMagic(stream: Readable): Promise<{ head: Buffer; rest: Readable }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const chunk = await new Promise<Buffer | null>((resolve, reject) => {
      const onReadable = () => {
        cleanup();
        resolve((stream.read() as Buffer | null) ?? null);
      };
      const onEnd = () => {
        cleanup();
        resolve(null);
      };
      const onError = (error: Error) => {
        cleanup();
        reject(error);
      };
      const cleanup = () => {
        stream.off('readable', onReadable);
        stream.off('end', onEnd);
        stream.off('error', onError);
      };
      const ready = stream.read() as Buffer | null;
      if (ready !== null) return resolve(ready);
      if (stream.readableEnded) return resolve(null);
      stream.on('readable', onReadable);
      stream.on('end', onEnd);
      stream.on('error', onError);
    });
    if (chunk === null) break;
    chunks.push(Buffer.from(chunk));
    size += chunk.length;
    if (size >= 4) break;
  }
  return { head: Buffer.concat(chunks), rest: stream };
}

export async function* prefixed(head: Buffer, rest: Readable): AsyncGenerator<Buffer> {
  if (head.length) yield head;
  // Stopping early must not destroy the request: the rest of its body is dropped and the answer still sent.
  for await (const chunk of rest.iterator({ destroyOnReturn: false })) yield chunk as Buffer;
}
