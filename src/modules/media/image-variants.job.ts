import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { JobRunner } from '../../platform/jobs/job-runner';
import { ImagesRepository } from './images.repository';
import { imageFilesOf } from './images.service';
import { uploadKey } from './media-keys';
import { MEDIA_OPTIONS, type MediaOptions } from './media-options';
import { renderImage, type InspectedImage } from './processing/image-processor';
import { MediaStorage } from './storage/media-storage';

export const RENDER_IMAGE = 'media.render-image';

export interface RenderImagePayload {
  imageid: number;
  guid: string;
  image: InspectedImage;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * Makes an uploaded image's original and size variants off the request path, at most
 * MEDIA_RESIZE_CONCURRENCY at once per instance, so large uploads cannot exhaust memory or CPU
 * (each render holds at most one decoded image, bounded by MEDIA_MAX_PIXELS).
 */
@Injectable()
export class ImageVariantsJob implements OnModuleInit {
  constructor(
    private readonly jobs: JobRunner,
    private readonly images: ImagesRepository,
    private readonly storage: MediaStorage,
    @Inject(MEDIA_OPTIONS) private readonly options: MediaOptions,
  ) {}

  onModuleInit(): void {
    this.jobs.register<RenderImagePayload>(RENDER_IMAGE, (payload) => this.render(payload), {
      concurrency: this.options.resizeConcurrency,
      maxAttempts: 3,
    });
  }

  enqueue(payload: RenderImagePayload): Promise<void> {
    return this.jobs.enqueue(RENDER_IMAGE, payload, { uniqueKey: `${RENDER_IMAGE}:${payload.guid}` });
  }

  private async render({ imageid, guid, image }: RenderImagePayload): Promise<void> {
    const source = await this.storage.get(uploadKey(guid));
    if (!source) return; // rendered already (a retry after the source was removed)
    const data = await readAll(source.body);
    if (!(await this.images.findByIds([imageid])).length) {
      await this.storage.delete([uploadKey(guid)]);
      return;
    }
    const files = await renderImage(data, image, this.options.maxImagePixels);
    const { mime, originalExt, variantExt, width, height, ratio, exif } = image;
    const written = imageFilesOf(guid, { mime, originalExt, variantExt, width, height, ratio, exif, files });
    await Promise.all(written.map((file) => this.storage.put(file.key, file.data, file.contentType)));
    await this.images.setFileSize(imageid, files.get('original')?.length ?? data.length);
    await this.storage.delete([uploadKey(guid)]);
  }
}
