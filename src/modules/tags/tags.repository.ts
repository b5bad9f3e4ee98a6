import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { nowSeconds } from '../../database/columns';
import { placeholders, SqlReader } from '../../database/sql-reader';
import { DocumentTagEntity } from './entities/document-tag.entity';
import { TagEntity } from './entities/tag.entity';
import { Database } from '../../database/database';

@Injectable()
export class TagsRepository {
  private readonly sql: SqlReader;

  private readonly database: Database;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.database = new Database(dataSource);
    this.sql = new SqlReader(dataSource);
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  /** Tag names ordered by tagid. */
  async list(offset: number, limit: number, order: 'ASC' | 'DESC'): Promise<string[]> {
    const rows = await this.manager
      .getRepository(TagEntity)
      .find({ select: { tagid: true, name: true }, order: { tagid: order }, skip: offset, take: limit });
    return rows.map((row) => row.name);
  }

  /**
   * (docid, tag name) pairs of one kind for many documents, in one query. Hand-written SQL: it runs on every
   * guide and wiki detail, where building it with the query builder cost twice what SQLite took to run it.
   */
  async namesOf(kind: string, docids: number[]): Promise<{ docid: number; name: string }[]> {
    if (!docids.length) return [];
    const rows = await this.sql.rows<{ docid: number | string; name: string }>(
      `SELECT dt.docid AS docid, t.name AS name FROM document_tags dt INNER JOIN tags t ON t.tagid = dt.tagid
       WHERE dt.doc_kind = ? AND dt.docid IN (${placeholders(docids)})`,
      [kind, ...docids],
    );
    return rows.map((row) => ({ docid: Number(row.docid), name: row.name }));
  }

  /** The tag's id, creating it when new (INSERT OR IGNORE, so concurrent first uses do not collide). */
  async ensureTag(name: string, nameKey: string): Promise<number> {
    const repository = this.manager.getRepository(TagEntity);
    const existing = await repository.findOne({ select: { tagid: true }, where: { nameKey } });
    if (existing) return existing.tagid;
    await repository
      .createQueryBuilder()
      .insert()
      .into(TagEntity)
      .values({ name, nameKey, createdDate: nowSeconds() })
      .orIgnore()
      .execute();
    const created = await repository.findOneOrFail({ select: { tagid: true }, where: { nameKey } });
    return created.tagid;
  }

  findTagId(nameKey: string): Promise<TagEntity | null> {
    return this.manager.getRepository(TagEntity).findOne({ select: { tagid: true }, where: { nameKey } });
  }

  async link(kind: string, docid: number, tagid: number): Promise<void> {
    await this.manager
      .createQueryBuilder()
      .insert()
      .into(DocumentTagEntity)
      .values({ docKind: kind, docid, tagid, createdDate: nowSeconds() })
      .orIgnore()
      .execute();
  }

  async unlink(kind: string, docid: number, tagid: number): Promise<void> {
    await this.manager.getRepository(DocumentTagEntity).delete({ docKind: kind, docid, tagid });
  }

  /** Removes every tag of the given documents (when a document is purged). */
  async unlinkAll(kind: string, docids: number[]): Promise<void> {
    if (!docids.length) return;
    await this.manager.getRepository(DocumentTagEntity).delete({ docKind: kind, docid: In(docids) });
  }
}
