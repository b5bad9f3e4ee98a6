import { HttpStatus, Injectable } from '@nestjs/common';
import { ApiException, notFound } from '../../common/http/api-errors';
import type { DocumentObjectDto } from './dto/document-object.dto';
import type { ImageObjectDto } from './dto/image-object.dto';
import { DocumentsRepository } from './documents.repository';
import { ImagesRepository } from './images.repository';
import { MediaMappers } from './media-mappers';
import { MediaUsageService } from './media-usage.service';

const uniqueIds = (ids: number[]) => [...new Set(ids.filter((id) => Number.isInteger(id) && id > 0))];

/**
 * What other modules need from media: Image and Document objects for their responses, the checks for
 * images and documents a user attaches, and the usage registry that keeps used images alive.
 */
@Injectable()
export class MediaService {
  constructor(
    private readonly images: ImagesRepository,
    private readonly documents: DocumentsRepository,
    private readonly mappers: MediaMappers,
    private readonly usage: MediaUsageService,
  ) {}

  /** id -> Image object, in one query; unknown ids are absent. */
  async imageObjects(ids: number[]): Promise<Map<number, ImageObjectDto>> {
    const rows = await this.images.findByIds(uniqueIds(ids));
    return new Map(rows.map((row) => [row.imageid, this.mappers.imageObject(row)]));
  }

  /** The Image object of users without an avatar: id 0, guid `defaultavatar000`, the default-avatar PNG. */
  defaultAvatar(): ImageObjectDto {
    return this.mappers.defaultAvatar();
  }

  /** The URL of the "no image" PNG at one size (`standard`, `thumbnail`…). */
  noImageUrl(variant = 'standard'): string {
    return this.mappers.placeholderUrl('no-image', variant);
  }

  /**
   * For images a user attaches to content: 404 when one does not exist, 403 when one is not in that
   * user's media manager. Check only newly attached ids: images already on the content stay usable.
   */
  async assertImagesUsableBy(userid: number, ids: number[]): Promise<void> {
    const wanted = uniqueIds(ids);
    const rows = new Map((await this.images.findByIds(wanted)).map((row) => [row.imageid, row]));
    for (const id of wanted) {
      const row = rows.get(id);
      if (!row) throw notFound(`Image ${id}`);
      if (row.ownerUserid !== userid || !row.inManager) {
        throw new ApiException(HttpStatus.FORBIDDEN, `Image ${id} is not in your media manager`);
      }
    }
  }

  /** id -> Document object, in one query; unknown ids are absent. */
  async documentObjects(ids: number[]): Promise<Map<number, DocumentObjectDto>> {
    const rows = await this.documents.findByIds(uniqueIds(ids));
    return new Map(rows.map((row) => [row.documentid, this.mappers.documentObject(row)]));
  }

  /** As assertImagesUsableBy, for documents. */
  async assertDocumentsUsableBy(userid: number, ids: number[]): Promise<void> {
    const wanted = uniqueIds(ids);
    const rows = new Map((await this.documents.findByIds(wanted)).map((row) => [row.documentid, row]));
    for (const id of wanted) {
      const row = rows.get(id);
      if (!row) throw notFound(`Document ${id}`);
      if (row.ownerUserid !== userid || !row.inManager) {
        throw new ApiException(HttpStatus.FORBIDDEN, `Document ${id} is not in your media manager`);
      }
    }
  }

  /**
   * Replaces the set of images an owner uses (`ownerKind` e.g. guide, step, wiki, user; lower-case, at
   * most 16 characters). Called inside the caller's transaction, the usage commits with the content. Images
   * that lose their last use and are in no media manager are deleted shortly after.
   */
  setUsage(ownerKind: string, ownerId: number, imageIds: number[]): Promise<void> {
    return this.usage.setUsage(ownerKind, ownerId, imageIds);
  }

  /** Ids of the images in a user's media manager, newest first (demo seeds of other modules). */
  imageIdsOf(userid: number, limit = 20): Promise<number[]> {
    return this.images.managerIds(userid, limit);
  }
}
