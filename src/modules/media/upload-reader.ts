import { HttpStatus } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import '@fastify/multipart';
import { ApiException, unprocessable } from '../../common/http/api-errors';

export interface Upload {
  data: Buffer;
  filename: string;
}

const tooLarge = (limit: number) =>
  new ApiException(HttpStatus.PAYLOAD_TOO_LARGE, `The file is larger than the limit of ${limit} bytes`);

/**
 * The uploaded file of a media route (marked rawBody): a multipart form's `file` field, or the raw body
 * with its name in the `file` query parameter. 422 when there is no file or no name; 413 beyond the limit.
 */
export async function readUpload(
  request: FastifyRequest,
  queryName: string | undefined,
  limit: number,
): Promise<Upload> {
  if (request.isMultipart?.()) {
    let part;
    try {
      part = await request.file({ limits: { fileSize: limit, files: 1 } });
    } catch (error) {
      throw unprocessable(`The multipart body could not be read: ${(error as Error).message}`, 'file');
    }
    if (!part) throw unprocessable('The form has no file: send it in the field "file"', 'file');
    if (part.fieldname !== 'file') {
      part.file.resume();
      throw unprocessable('The form has no file: send it in the field "file"', 'file');
    }
    let data: Buffer;
    try {
      data = await part.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(limit);
      throw unprocessable(`The multipart body could not be read: ${(error as Error).message}`, 'file');
    }
    const filename = (queryName ?? part.filename ?? '').trim();
    if (!filename) throw unprocessable('file (the file name) is required', 'file');
    if (!data.length) throw unprocessable('The uploaded file is empty', 'file');
    return { data, filename: filename.slice(0, 255) };
  }
  const body = request.body;
  const data = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
  if (data.length > limit) throw tooLarge(limit);
  if (!queryName?.trim()) throw unprocessable('file (the file name) is required', 'file');
  if (!data.length) throw unprocessable('The request body is empty', 'file');
  return { data, filename: queryName.trim() };
}
