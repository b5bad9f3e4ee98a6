import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { notFound, unprocessable } from '../../common/http/api-errors';
import { nowSeconds } from '../../database/columns';
import { TransactionService } from '../../database/transaction.service';
import type { OrderedPageQueryDto } from './dto/media-query.dto';
import type { VideoDetailDto, VideoMetaDto } from './dto/video-detail.dto';
import type { VideoEntity } from './entities/video.entity';
import { imageFilesOf, newImageRow } from './images.service';
import { ImagesRepository } from './images.repository';
import { newGuid, parseMediaRef, videoKey } from './media-keys';
import { MediaMappers } from './media-mappers';
import { MEDIA_OPTIONS, type MediaOptions } from './media-options';
import { MediaUsageService } from './media-usage.service';
import { sniffVideo } from './processing/file-types';
import { processImage, type ProcessedImage } from './processing/image-processor';
import { extractFrame, probeVideo, type ProbeOutcome } from './processing/video-probe';
import { MediaStorage } from './storage/media-storage';
import { VideosRepository } from './videos.repository';
import { StoredFiles } from './storage/stored-files';

const NO_FFPROBE = 'ffprobe is not installed on this server: codecs, dimensions and duration are unknown';

/**
 * Videos: the upload is stored as is (listed as the ORIGINAL encoding), probed with ffprobe when it is
 * installed, and given a thumbnail Image (a frame taken with ffmpeg, or a placeholder without it).
 */
@Injectable()
export class VideosService {
  private readonly logger = new Logger('Videos');

  constructor(
    private readonly videos: VideosRepository,
    private readonly images: ImagesRepository,
    private readonly usage: MediaUsageService,
    private readonly mappers: MediaMappers,
    private readonly storage: MediaStorage,
    private readonly transactions: TransactionService,
    @Inject(MEDIA_OPTIONS) private readonly options: MediaOptions,
  ) {}

  async detail(idOrGuid: string): Promise<VideoDetailDto> {
    const video = await this.videos.findByRef(parseMediaRef(idOrGuid));
    if (!video) throw notFound('Video');
    return (await this.toDetails([video]))[0];
  }

  async listMine(userid: number, query: OrderedPageQueryDto): Promise<VideoDetailDto[]> {
    return this.toDetails(await this.videos.listManager(userid, query.offset, query.limit, query.order));
  }

  /** Thumbnails of a page in one query. */
  private async toDetails(videos: VideoEntity[]): Promise<VideoDetailDto[]> {
    const thumbIds = videos.map((v) => v.thumbnailImageid).filter((id): id is number => id !== null);
    const thumbs = new Map((await this.images.findByIds(thumbIds)).map((image) => [image.imageid, image]));
    return videos.map((video) =>
      this.mappers.videoDetail(video, video.thumbnailImageid ? (thumbs.get(video.thumbnailImageid) ?? null) : null),
    );
  }

  async upload(userid: number, data: Buffer, filename: string): Promise<VideoDetailDto> {
    const type = sniffVideo(data);
    if (!type)
      throw unprocessable('Unsupported video type: expected MP4, QuickTime, WebM, Matroska, Ogg or AVI', 'file');
    const { outcome, frame } = await this.inspect(data);
    if (outcome.kind === 'unavailable') this.logger.warn(NO_FFPROBE);
    const probe = outcome.kind === 'probed' ? outcome.probe : undefined;
    const meta: Omit<VideoMetaDto, 'id' | 'state'> = {
      format: probe?.format || type.ext,
      file_size_in_bytes: data.length,
      md5_checksum: createHash('md5').update(data).digest('hex'),
      duration_in_ms: probe?.durationMs ?? 0,
      width: probe?.width ?? 0,
      height: probe?.height ?? 0,
      video_codec: probe?.videoCodec ?? '',
      audio_codec: probe?.audioCodec ?? '',
      frame_rate: probe?.frameRate ?? 0,
      video_bitrate_in_kbps: probe?.videoBitrateKbps ?? 0,
      audio_bitrate_in_kbps: probe?.audioBitrateKbps ?? 0,
      total_bitrate_in_kbps: probe?.totalBitrateKbps ?? 0,
      audio_sample_rate: probe?.audioSampleRate ?? 0,
      channels: probe?.channels ?? '',
      ...(outcome.kind === 'unavailable' ? { note: NO_FFPROBE } : {}),
      ...(outcome.kind === 'unreadable' ? { note: outcome.message } : {}),
    };
    const thumbnail = await this.thumbnail(frame);
    const guid = newGuid();
    const thumbGuid = newGuid();
    const files = new StoredFiles(this.storage);
    await files.putAll([
      { key: videoKey(guid, type.ext), data, contentType: type.mime },
      ...imageFilesOf(thumbGuid, thumbnail),
    ]);
    const video = await files.commitWith(() =>
      this.transactions.run(async () => {
        const image = await this.images.insert(
          newImageRow(thumbGuid, userid, thumbnail, { filename: `${filename.slice(0, 240)}.png`, inManager: false }),
        );
        const row = await this.videos.insert({
          guid,
          ownerUserid: userid,
          inManager: true,
          filename: filename.slice(0, 255),
          mime: type.mime,
          ext: type.ext,
          fileSize: data.length,
          width: meta.width,
          height: meta.height,
          durationMs: meta.duration_in_ms,
          thumbnailImageid: image.imageid,
          state: outcome.kind === 'unreadable' ? 'failed' : 'finished',
          meta: JSON.stringify(meta),
          createdDate: nowSeconds(),
        });
        await this.usage.setUsage('video', row.videoid, [image.imageid]);
        return row;
      }),
    );
    return this.detail(String(video.videoid));
  }

  /** ffprobe and ffmpeg need a file they can seek in: the upload goes to a temporary file for them. */
  private async inspect(data: Buffer): Promise<{ outcome: ProbeOutcome; frame?: Buffer }> {
    const dir = await mkdtemp(join(tmpdir(), 'rgcs-video-'));
    try {
      const path = join(dir, 'upload');
      await writeFile(path, data);
      const outcome = await probeVideo(this.options.ffprobePath, path);
      const frame =
        outcome.kind === 'probed'
          ? await extractFrame(this.options.ffmpegPath, path, outcome.probe.durationMs)
          : undefined;
      return { outcome, frame };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async thumbnail(frame: Buffer | undefined): Promise<ProcessedImage> {
    const options = { maxPixels: this.options.maxImagePixels, minSide: 1 };
    if (frame) {
      try {
        return await processImage(frame, options);
      } catch {
        // fall back to the placeholder
      }
    }
    const placeholder = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#3a3f44' } })
      .png()
      .toBuffer();
    return processImage(placeholder, options);
  }
}
