import type { AppConfig } from '../../config/app-config';
import { API_PREFIX } from '../../openapi/openapi';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Prepended to every object key ('' or ending in '/'). */
  prefix: string;
}

export interface MediaOptions {
  storage: { kind: 'local'; dir: string } | ({ kind: 's3' } & S3StorageOptions);
  /** Base of file URLs in responses, without a trailing slash. */
  filesBaseUrl: string;
  /** PUBLIC_URL, without a trailing slash. */
  publicUrl: string;
  /** Base of the service's own placeholder images. */
  placeholderBaseUrl: string;
  uploadLimit: number;
  /** Decompression-bomb guard: largest width × height of an image accepted. */
  maxImagePixels: number;
  /** Image renders (original and size variants) running at once per instance. */
  resizeConcurrency: number;
  ffprobePath: string;
  ffmpegPath: string;
}

export const MEDIA_OPTIONS = Symbol('MEDIA_OPTIONS');

/** Media settings derived from the validated AppConfig (see MEDIA_* in .env.example). */
export function loadMediaOptions(config: AppConfig): MediaOptions {
  const media = config.media;
  const rawPrefix = (media.s3.prefix ?? '').replace(/^\/+/, '');
  const serviceBase = `${config.publicUrl}/${API_PREFIX}/media`;
  return {
    storage:
      media.storage === 's3'
        ? {
            kind: 's3',
            bucket: media.s3.bucket ?? '',
            region: media.s3.region,
            endpoint: media.s3.endpoint,
            forcePathStyle: media.s3.forcePathStyle,
            accessKeyId: media.s3.accessKeyId,
            secretAccessKey: media.s3.secretAccessKey,
            prefix: rawPrefix && !rawPrefix.endsWith('/') ? `${rawPrefix}/` : rawPrefix,
          }
        : { kind: 'local', dir: config.mediaDir },
    filesBaseUrl: media.publicUrl ?? `${serviceBase}/files`,
    publicUrl: config.publicUrl,
    placeholderBaseUrl: `${serviceBase}/placeholders`,
    uploadLimit: config.uploadLimit,
    maxImagePixels: media.maxImagePixels,
    resizeConcurrency: media.resizeConcurrency,
    ffprobePath: media.ffprobePath,
    ffmpegPath: media.ffmpegPath,
  };
}
