import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { VideoEntity } from './entities/video.entity';
import type { MediaRef } from './media-keys';
import { Database } from '../../database/database';

@Injectable()
export class VideosRepository {
  private readonly database: Database;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.database = new Database(dataSource);
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  private repo() {
    return this.manager.getRepository(VideoEntity);
  }

  findByRef(ref: MediaRef): Promise<VideoEntity | null> {
    if (!ref) return Promise.resolve(null);
    return this.repo().findOneBy('id' in ref ? { videoid: ref.id } : { guid: ref.guid });
  }

  listManager(ownerUserid: number, offset: number, limit: number, order: 'ASC' | 'DESC'): Promise<VideoEntity[]> {
    return this.repo().find({
      where: { ownerUserid, inManager: true },
      order: { videoid: order },
      skip: offset,
      take: limit,
    });
  }

  insert(video: Omit<VideoEntity, 'videoid' | 'owner' | 'thumbnail'>): Promise<VideoEntity> {
    const repository = this.repo();
    return repository.save(repository.create(video));
  }
}
