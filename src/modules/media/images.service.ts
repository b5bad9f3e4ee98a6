import { Inject, Injectable } from '@nestjs/common';
import { notFound, unprocessable } from '../../common/http/api-errors';
import { nowSeconds } from '../../database/columns';
import { TransactionService } from '../../database/transaction.service';
import type { ImageDetailDto } from './dto/image-detail.dto';
import type { UserImagesQueryDto } from './dto/media-query.dto';
import type { ImageEntity } from './entities/image.entity';
import { ImagesRepository } from './images.repository';
import { imageKey, newGuid, parseMediaRef, uploadKey, GUID_PATTERN } from './media-keys';
import { ImageVariantsJob } from './image-variants.job';
import { imageKeys, MediaMappers } from './media-mappers';
import { MEDIA_OPTIONS, type MediaOptions } from './media-options';
import { MediaUsageService } from './media-usage.service';
import { inspectImage, type ProcessedImage } from './processing/image-processor';
import { ORIGINAL, type CropRatio } from './processing/image-variants';
import { contentTypeOf, MediaStorage } from './storage/media-storage';
import { StoredFiles } from './storage/stored-files';

export const MAX_DELETE_IDS = 1000;

export interface NewImageOptions {
  filename: string;
  cropToRatio?: CropRatio;
  /** false for images that belong to something else (a video's thumbnail): not in any media manager. */
  inManager?: boolean;
  /** Smallest side accepted (default 50). */
  minSide?: number;
}

/** Images: upload, read, the media manager, copies. */
@Injectable()
export class ImagesService {
  constructor(
    private readonly images: ImagesRepository,
    private readonly usage: MediaUsageService,
    private readonly mappers: MediaMappers,
    private readonly storage: MediaStorage,
    private readonly transactions: TransactionService,
    private readonly variants: ImageVariantsJob,
    @Inject(MEDIA_OPTIONS) private readonly options: MediaOptions,
  ) {}

  async findEntity(idOrGuid: string): Promise<ImageEntity> {
    const image = await this.images.findByRef(parseMediaRef(idOrGuid));
    if (!image) throw notFound('Image');
    return image;
  }

  async detail(idOrGuid: string): Promise<ImageDetailDto> {
    return this.mappers.imageDetail(await this.findEntity(idOrGuid));
  }

  async listMine(userid: number, query: UserImagesQueryDto): Promise<ImageDetailDto[]> {
    const rows = await this.images.listManager({
      ownerUserid: userid,
      ratio: query.ratio === 'ALL' ? undefined : query.ratio,
      minWidth: query.minWidth,
      minHeight: query.minHeight,
      offset: query.offset,
      limit: query.limit,
    });
    return rows.map((row) => this.mappers.imageDetail(row));
  }

  /**
   * Checks the upload from its header, stores it and answers at once; the original and the size variants
   * are made by a background job (ImageVariantsJob), and their URLs answer 404 until then.
   */
  async upload(userid: number, data: Buffer, options: NewImageOptions): Promise<ImageDetailDto> {
    const image = await inspectImage(data, {
      maxPixels: this.options.maxImagePixels,
      cropToRatio: options.cropToRatio,
      minSide: options.minSide,
    });
    const guid = newGuid();
    const files = new StoredFiles(this.storage);
    await files.putAll([{ key: uploadKey(guid), data, contentType: 'application/octet-stream' }]);
    const row = await files.commitWith(() =>
      this.transactions.run(async () => {
        const inserted = await this.images.insert(
          newImageRow(guid, userid, { ...image, files: new Map([[ORIGINAL, data]]) }, options),
        );
        await this.variants.enqueue({ imageid: inserted.imageid, guid, image });
        return inserted;
      }),
    );
    return this.mappers.imageDetail(row);
  }

  /** Writes the files, then the row; the files are removed again if the row cannot be committed. */
  async store(userid: number, processed: ProcessedImage, options: NewImageOptions): Promise<ImageEntity> {
    const guid = newGuid();
    const files = new StoredFiles(this.storage);
    await files.putAll(imageFilesOf(guid, processed));
    return files.commitWith(() =>
      this.transactions.run(() => this.images.insert(newImageRow(guid, userid, processed, options))),
    );
  }

  /** A copy of any image (its files too) in the caller's media manager; `srcid` names the source. */
  async copyToManager(userid: number, idOrGuid: string): Promise<ImageDetailDto> {
    const source = await this.findEntity(idOrGuid);
    const guid = newGuid();
    const copy = { guid, originalExt: source.originalExt, variantExt: source.variantExt };
    const files = new StoredFiles(this.storage);
    const sourceKeys = imageKeys(source);
    await files.copyAll(imageKeys(copy).map((key, index) => ({ from: sourceKeys[index], to: key })));
    const row = await files.commitWith(() =>
      this.transactions.run(() =>
        this.images.insert({
          ...copy,
          ownerUserid: userid,
          inManager: true,
          srcid: source.imageid,
          filename: source.filename,
          mime: source.mime,
          width: source.width,
          height: source.height,
          ratio: source.ratio,
          fileSize: source.fileSize,
          exif: source.exif,
          markup: source.markup,
          createdDate: nowSeconds(),
        }),
      ),
    );
    return this.mappers.imageDetail(row);
  }

  /**
   * Takes images out of the caller's media manager. Ids that do not exist or are not in the caller's
   * manager are skipped. An image nothing uses any more is deleted with its files.
   */
  async removeFromManager(userid: number, list: string): Promise<void> {
    const tokens = list
      .split(',')
      .map((token) => token.trim())
      .filter(Boolean);
    if (!tokens.length) throw unprocessable('Give one or more image ids, comma-separated', 'imageids');
    if (tokens.length > MAX_DELETE_IDS) {
      throw unprocessable(`At most ${MAX_DELETE_IDS} image ids per request`, 'imageids');
    }
    const ids: number[] = [];
    const guids: string[] = [];
    tokens.forEach((token, index) => {
      const ref = parseMediaRef(token);
      if (!ref && !GUID_PATTERN.test(token) && !/^\d+$/.test(token)) {
        throw unprocessable(`"${token}" is not an image id`, 'imageids', index);
      }
      if (ref && 'id' in ref) ids.push(ref.id);
      else if (ref) guids.push(ref.guid);
    });
    const found = await this.images.findByIdsOrGuids(ids, guids);
    const targetIds = found.map((image) => image.imageid);
    if (!targetIds.length) return;
    const deleted = await this.transactions.run(async () => {
      const removed = await this.images.removeFromManager(userid, targetIds);
      return this.images.deleteOrphans(removed);
    });
    await this.usage.removeFiles(found.filter((image) => deleted.includes(image.imageid)));
  }
}

/** The files of a processed image under a guid. */
export function imageFilesOf(
  guid: string,
  processed: ProcessedImage,
): { key: string; data: Buffer; contentType: string }[] {
  return [...processed.files].map(([variant, data]) => {
    const key = imageKey(guid, variant, variant === ORIGINAL ? processed.originalExt : processed.variantExt);
    return { key, data, contentType: contentTypeOf(key) };
  });
}

export function newImageRow(
  guid: string,
  userid: number,
  processed: ProcessedImage,
  options: NewImageOptions,
): Omit<ImageEntity, 'imageid' | 'owner'> {
  const filename = options.filename.slice(0, 255);
  return {
    guid,
    ownerUserid: userid,
    inManager: options.inManager ?? true,
    srcid: null,
    filename,
    mime: processed.mime,
    originalExt: processed.originalExt,
    variantExt: processed.variantExt,
    width: processed.width,
    height: processed.height,
    ratio: processed.ratio,
    fileSize: processed.files.get(ORIGINAL)?.length ?? 0,
    exif: JSON.stringify({ FileName: filename, ...processed.exif }),
    markup: null,
    createdDate: nowSeconds(),
  };
}
