import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { UserEntity } from '../users/entities/user.entity';
import { ViewHistoryEntity } from './entities/view-history.entity';
import { Database } from '../../database/database';

export interface ViewRow {
  userid: number;
  docType: string;
  docid: number;
  date: number;
}

export interface ViewFilter {
  userid?: number;
  docType?: string;
  docid?: number;
  startDate?: number;
  endDate?: number;
  offset: number;
  limit: number;
}

export interface ViewWithUser extends ViewRow {
  username: string;
}

@Injectable()
export class ViewHistoryRepository {
  private readonly database: Database;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.database = new Database(dataSource);
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  /** One multi-row INSERT. */
  async insertMany(rows: ViewRow[]): Promise<void> {
    if (!rows.length) return;
    await this.manager.createQueryBuilder().insert().into(ViewHistoryEntity).values(rows).execute();
  }

  /** Newest first (date, then insertion), with the viewer's username, in one query. */
  async find(filter: ViewFilter): Promise<ViewWithUser[]> {
    const query = this.dataSource
      .getRepository(ViewHistoryEntity)
      .createQueryBuilder('h')
      .innerJoin(UserEntity, 'u', 'u.userid = h.userid')
      .select(['h.userid AS userid', 'u.username AS username', 'h.doc_type AS doc_type', 'h.docid AS docid'])
      .addSelect('h.date', 'date')
      .orderBy('h.date', 'DESC')
      .addOrderBy('h.historyid', 'DESC')
      .offset(filter.offset)
      .limit(filter.limit);
    if (filter.userid !== undefined) query.andWhere('h.userid = :userid', { userid: filter.userid });
    if (filter.docType !== undefined) query.andWhere('h.doc_type = :docType', { docType: filter.docType });
    if (filter.docid !== undefined) query.andWhere('h.docid = :docid', { docid: filter.docid });
    if (filter.startDate !== undefined) query.andWhere('h.date >= :startDate', { startDate: filter.startDate });
    if (filter.endDate !== undefined) query.andWhere('h.date <= :endDate', { endDate: filter.endDate });
    const rows = await query.getRawMany<{
      userid: number | string;
      username: string;
      doc_type: string;
      docid: number | string;
      date: number | string;
    }>();
    return rows.map((row) => ({
      userid: Number(row.userid),
      username: row.username,
      docType: row.doc_type,
      docid: Number(row.docid),
      date: Number(row.date),
    }));
  }

  async userExists(userid: number): Promise<boolean> {
    return (await this.dataSource.getRepository(UserEntity).countBy({ userid })) > 0;
  }
}
