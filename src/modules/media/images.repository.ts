import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager, In } from 'typeorm';
import { ImageEntity } from './entities/image.entity';
import { MediaUsageEntity } from './entities/media-usage.entity';
import type { MediaRef } from './media-keys';
import { Database } from '../../database/database';

export interface ImageListFilter {
  ownerUserid: number;
  ratio?: string;
  minWidth: number;
  minHeight: number;
  offset: number;
  limit: number;
}

@Injectable()
export class ImagesRepository {
  private readonly database: Database;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.database = new Database(dataSource);
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  private repo() {
    return this.manager.getRepository(ImageEntity);
  }

  findByRef(ref: MediaRef): Promise<ImageEntity | null> {
    if (!ref) return Promise.resolve(null);
    return this.repo().findOneBy('id' in ref ? { imageid: ref.id } : { guid: ref.guid });
  }

  findByIds(ids: number[]): Promise<ImageEntity[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.repo().findBy({ imageid: In(ids) });
  }

  /** Ids and guids of many images, in one query. */
  findByIdsOrGuids(ids: number[], guids: string[]): Promise<ImageEntity[]> {
    if (!ids.length && !guids.length) return Promise.resolve([]);
    return this.repo().find({
      where: [...(ids.length ? [{ imageid: In(ids) }] : []), ...(guids.length ? [{ guid: In(guids) }] : [])],
    });
  }

  /** The owner's media manager, newest first. */
  listManager(filter: ImageListFilter): Promise<ImageEntity[]> {
    const query = this.repo()
      .createQueryBuilder('i')
      .where('i.owner_userid = :owner', { owner: filter.ownerUserid })
      .andWhere('i.in_manager = :yes', { yes: true })
      .andWhere('i.width >= :minWidth', { minWidth: filter.minWidth })
      .andWhere('i.height >= :minHeight', { minHeight: filter.minHeight })
      .orderBy('i.imageid', 'DESC')
      .offset(filter.offset)
      .limit(filter.limit);
    if (filter.ratio) query.andWhere('i.ratio = :ratio', { ratio: filter.ratio });
    return query.getMany();
  }

  /** Ids in the owner's media manager, newest first. */
  async managerIds(ownerUserid: number, limit: number): Promise<number[]> {
    const rows = await this.repo().find({
      select: { imageid: true },
      where: { ownerUserid, inManager: true },
      order: { imageid: 'DESC' },
      take: limit,
    });
    return rows.map((row) => row.imageid);
  }

  insert(image: Omit<ImageEntity, 'imageid' | 'owner'>): Promise<ImageEntity> {
    const repository = this.repo();
    return repository.save(repository.create(image));
  }

  /** Takes the owner's images among `ids` out of their media manager; answers the ids it changed. */
  async removeFromManager(ownerUserid: number, ids: number[]): Promise<number[]> {
    const rows = await this.repo().find({
      select: { imageid: true },
      where: { ownerUserid, inManager: true, imageid: In(ids) },
    });
    const owned = rows.map((row) => row.imageid);
    if (owned.length) await this.repo().update({ imageid: In(owned) }, { inManager: false });
    return owned;
  }

  // ---- usage registry ----

  async usageOf(ownerKind: string, ownerId: number): Promise<number[]> {
    const rows = await this.manager
      .getRepository(MediaUsageEntity)
      .find({ select: { imageid: true }, where: { ownerKind, ownerId } });
    return rows.map((row) => row.imageid);
  }

  async existingIds(ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await this.repo().find({ select: { imageid: true }, where: { imageid: In(ids) } });
    return rows.map((row) => row.imageid);
  }

  async addUsage(ownerKind: string, ownerId: number, ids: number[]): Promise<void> {
    if (!ids.length) return;
    await this.manager
      .createQueryBuilder()
      .insert()
      .into(MediaUsageEntity)
      .values(ids.map((imageid) => ({ ownerKind, ownerId, imageid })))
      .orIgnore()
      .execute();
  }

  async removeUsage(ownerKind: string, ownerId: number, ids: number[]): Promise<void> {
    if (!ids.length) return;
    await this.manager.getRepository(MediaUsageEntity).delete({ ownerKind, ownerId, imageid: In(ids) });
  }

  /** Images in no media manager and used by nothing: among `ids`, or any (up to `limit`). */
  async orphans(ids: number[] | undefined, limit: number): Promise<ImageEntity[]> {
    if (ids && !ids.length) return [];
    const query = this.repo()
      .createQueryBuilder('i')
      .where('i.in_manager = :no', { no: false })
      .andWhere(
        new Brackets((q) => {
          q.where(
            `NOT EXISTS (${this.repo()
              .manager.createQueryBuilder()
              .select('1')
              .from(MediaUsageEntity, 'u')
              .where('u.imageid = i.imageid')
              .getQuery()})`,
          );
        }),
      )
      .orderBy('i.imageid', 'ASC')
      .limit(limit);
    if (ids) query.andWhere('i.imageid IN (:...ids)', { ids });
    return query.getMany();
  }

  /** Deletes the images among `ids` that are still orphans; answers the ids it deleted. */
  async deleteOrphans(ids: number[]): Promise<number[]> {
    const still = (await this.orphans(ids, ids.length)).map((image) => image.imageid);
    if (still.length) await this.repo().delete({ imageid: In(still) });
    return still;
  }

  async setFileSize(imageid: number, fileSize: number): Promise<void> {
    await this.manager.update(ImageEntity, { imageid }, { fileSize });
  }
}
