import { Inject, Injectable } from '@nestjs/common';
import type { DocumentObjectDto } from './dto/document-object.dto';
import type { ImageDetailDto } from './dto/image-detail.dto';
import type { ImageObjectDto } from './dto/image-object.dto';
import type { VideoDetailDto, VideoMetaDto } from './dto/video-detail.dto';
import type { DocumentEntity } from './entities/document.entity';
import type { ImageEntity } from './entities/image.entity';
import type { VideoEntity } from './entities/video.entity';
import { imageKey, videoKey } from './media-keys';
import { MEDIA_OPTIONS, type MediaOptions } from './media-options';
import { IMAGE_VARIANTS, ORIGINAL, VARIANT_NAMES } from './processing/image-variants';

/** The image of users and teams without one of their own. */
export const DEFAULT_AVATAR_GUID = 'defaultavatar000';

export type ImageFiles = Pick<ImageEntity, 'guid' | 'originalExt' | 'variantExt'>;

/** Every storage key of an image (its original and each variant). */
export function imageKeys(image: ImageFiles): string[] {
  return [
    imageKey(image.guid, ORIGINAL, image.originalExt),
    ...IMAGE_VARIANTS.map((v) => imageKey(image.guid, v.name, image.variantExt)),
  ];
}

/** Pictures served for what has none of its own, as PNG at URLs ending in `.png` (placeholder-images.ts). */
export const PLACEHOLDER_KINDS = ['no-image', 'avatar'] as const;
export type PlaceholderKind = (typeof PLACEHOLDER_KINDS)[number];

/** Entity -> response DTO mappers; the only place that builds media URLs. */
@Injectable()
export class MediaMappers {
  constructor(@Inject(MEDIA_OPTIONS) private readonly options: MediaOptions) {}

  fileUrl(key: string): string {
    return `${this.options.filesBaseUrl}/${key}`;
  }

  placeholderUrl(kind: PlaceholderKind, variant: string): string {
    return `${this.options.placeholderBaseUrl}/${kind}.${variant}.png`;
  }

  imageObject(image: ImageFiles & Pick<ImageEntity, 'imageid'>): ImageObjectDto {
    const object: Record<string, string | number> = { id: image.imageid, guid: image.guid };
    for (const v of IMAGE_VARIANTS) object[v.name] = this.fileUrl(imageKey(image.guid, v.name, image.variantExt));
    object[ORIGINAL] = this.fileUrl(imageKey(image.guid, ORIGINAL, image.originalExt));
    return object as unknown as ImageObjectDto;
  }

  /** The Image object of users without an avatar: id 0, the default-avatar PNG at each size. */
  defaultAvatar(): ImageObjectDto {
    const object: Record<string, string | number> = { id: 0, guid: DEFAULT_AVATAR_GUID };
    for (const name of VARIANT_NAMES) object[name] = this.placeholderUrl('avatar', name);
    return object as unknown as ImageObjectDto;
  }

  imageDetail(image: ImageEntity): ImageDetailDto {
    const exif = JSON.parse(image.exif || '{}') as Record<string, string | number>;
    return {
      image: this.imageObject(image),
      srcid: image.srcid,
      width: image.width,
      height: image.height,
      ratio: image.ratio,
      markup: image.markup,
      exif: Object.keys(exif).length ? exif : [],
    };
  }

  documentObject(document: DocumentEntity): DocumentObjectDto {
    const url = this.fileUrl(document.storageKey);
    return {
      documentid: document.documentid,
      guid: document.guid,
      filename: document.filename,
      title: document.title || document.filename,
      size: document.fileSize,
      mime: document.mime,
      thumbnailid: null,
      imageid: null,
      document_type: document.mime,
      document_extension: document.ext,
      document_group: document.docGroup,
      standard: this.placeholderUrl('no-image', 'standard'),
      thumbnail: this.placeholderUrl('no-image', 'thumbnail'),
      mini: this.placeholderUrl('no-image', 'mini'),
      download_url: url,
      url,
      date: document.createdDate,
      summary: null,
      type: 'Document',
    };
  }

  videoDetail(video: VideoEntity, thumbnail: ImageEntity | null): VideoDetailDto {
    const meta = {
      ...(JSON.parse(video.meta || '{}') as Partial<VideoMetaDto>),
      id: video.videoid,
      state: video.state,
    };
    return {
      videoid: video.videoid,
      guid: video.guid,
      srcid: null,
      filename: video.filename,
      duration: video.durationMs,
      width: video.width,
      height: video.height,
      image: thumbnail ? this.imageDetail(thumbnail) : null,
      meta: meta as VideoMetaDto,
      encodings: [
        {
          column: 'ORIGINAL',
          label: 'Original',
          width: video.width,
          height: video.height,
          codecs: [meta.video_codec, meta.audio_codec].filter(Boolean).join(', '),
          mime: video.mime,
          format: video.ext,
          url: this.fileUrl(videoKey(video.guid, video.ext)),
          always_generate: true,
        },
      ],
    };
  }
}
