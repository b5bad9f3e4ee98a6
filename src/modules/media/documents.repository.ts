import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { DocumentEntity } from './entities/document.entity';
import type { MediaRef } from './media-keys';
import { Database } from '../../database/database';

@Injectable()
export class DocumentsRepository {
  private readonly database: Database;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.database = new Database(dataSource);
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  private repo() {
    return this.manager.getRepository(DocumentEntity);
  }

  findByRef(ref: MediaRef): Promise<DocumentEntity | null> {
    if (!ref) return Promise.resolve(null);
    return this.repo().findOneBy('id' in ref ? { documentid: ref.id } : { guid: ref.guid });
  }

  findByIds(ids: number[]): Promise<DocumentEntity[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.repo().findBy({ documentid: In(ids) });
  }

  listManager(ownerUserid: number, offset: number, limit: number, order: 'ASC' | 'DESC'): Promise<DocumentEntity[]> {
    return this.repo().find({
      where: { ownerUserid, inManager: true },
      order: { documentid: order },
      skip: offset,
      take: limit,
    });
  }

  insert(document: Omit<DocumentEntity, 'documentid' | 'owner'>): Promise<DocumentEntity> {
    const repository = this.repo();
    return repository.save(repository.create(document));
  }
}
