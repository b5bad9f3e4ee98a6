import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { VideoEntity } from './entities/video.entity';
import type { MediaRef } from './media-keys';

@Injectable()
export class VideosRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private repo(tx?: EntityManager) {
    return (tx ?? this.dataSource.manager).getRepository(VideoEntity);
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

  insert(video: Omit<VideoEntity, 'videoid' | 'owner' | 'thumbnail'>, tx: EntityManager): Promise<VideoEntity> {
    const repository = this.repo(tx);
    return repository.save(repository.create(video));
  }
}
