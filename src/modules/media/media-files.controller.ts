import { Controller, Get, HttpStatus, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../common/auth/auth-rule.decorators';
import { notFound } from '../../common/http/api-errors';
import { PlaceholderImages } from './placeholder-images';
import { contentTypeOf, isServedMediaKey, MediaStorage } from './storage/media-storage';
import { IMMUTABLE_CACHE } from './storage/media-storage';
import { ApiErrors } from '../../common/openapi/api-error-responses';

/** `bytes=start-` or `bytes=start-end`; other forms (suffix, multiple ranges) are answered with the whole file. */
export function parseRange(header: string | undefined): { start: number; end?: number } | undefined {
  const match = /^bytes=(\d{1,15})-(\d{0,15})$/.exec(header?.trim() ?? '');
  if (!match) return undefined;
  const start = Number(match[1]);
  const end = match[2] === '' ? undefined : Number(match[2]);
  return end !== undefined && end < start ? undefined : { start, end };
}

/**
 * Serves stored media files when they live on local disk (or in a bucket without MEDIA_PUBLIC_URL).
 * Keys are checked against a strict pattern before anything touches the storage, so no path can leave
 * MEDIA_DIR. Files never change once written (new content gets a new guid): they are cached for a year.
 */
@ApiTags('Media')
@Controller('media')
export class MediaFilesController {
  constructor(
    private readonly storage: MediaStorage,
    private readonly placeholders: PlaceholderImages,
  ) {}

  @Get('files/*')
  @ApiErrors(404)
  @Public()
  @ApiOperation({
    summary: 'A stored media file',
    description:
      'The URLs in Image, Video and Document objects point here when files are stored locally. Long-lived cache ' +
      'headers; `Range: bytes=start-[end]` is honoured (video seeking). The size variants of a newly uploaded ' +
      'image (and its `original`) are made by a background job: until it has run (usually well under a second), ' +
      'their URLs answer 404 without cache headers, so clients retry.',
  })
  @ApiParam({ name: 'path', description: 'The file key, e.g. `images/Ab/AbCd…16.medium.jpg`.' })
  @ApiResponse({ status: 200, description: 'The file.' })
  @ApiResponse({ status: 206, description: 'The requested byte range of the file (`Range`).' })
  @ApiResponse({ status: 304, description: 'Not modified (`If-None-Match` matches the ETag).' })
  async file(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const key = (request.params as Record<string, string>)['*'] ?? '';
    if (!isServedMediaKey(key)) throw notFound('File');
    const etag = `"${key.split('/').pop()}"`;
    if (request.headers['if-none-match'] === etag) {
      await reply.status(HttpStatus.NOT_MODIFIED).header('etag', etag).header('cache-control', IMMUTABLE_CACHE).send();
      return;
    }
    const object = await this.storage.get(key, parseRange(request.headers.range));
    if (!object) throw notFound('File');
    void reply
      .header('content-type', contentTypeOf(key))
      .header('content-length', String(object.length))
      .header('cache-control', IMMUTABLE_CACHE)
      .header('accept-ranges', 'bytes')
      .header('etag', etag)
      .header('x-content-type-options', 'nosniff');
    if (object.range) {
      void reply
        .status(HttpStatus.PARTIAL_CONTENT)
        .header('content-range', `bytes ${object.range.start}-${object.range.end}/${object.totalSize}`);
    }
    await reply.send(object.body);
  }

  @Get('placeholders/:name')
  @ApiErrors(404)
  @Public()
  @ApiExcludeEndpoint()
  async placeholder(@Param('name') name: string, @Res() reply: FastifyReply): Promise<void> {
    const png = await this.placeholders.render(name);
    if (!png) throw notFound('File');
    await reply
      .header('content-type', 'image/png')
      .header('cache-control', 'public, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .send(png);
  }
}
