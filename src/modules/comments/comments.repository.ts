import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { placeholders, SqlReader, type SqlRow } from '../../database/sql-reader';
import { CommentEntity } from './entities/comment.entity';
import { Database } from '../../database/database';

@Injectable()
export class CommentsRepository {
  private readonly sql: SqlReader;
  private readonly toComment: (row: SqlRow) => CommentEntity;
  /** `SELECT <every column> FROM comments c WHERE c.status = 'public' AND (`: the fixed head of publicForMany. */
  private readonly publicForManyHead: string;

  private readonly database: Database;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.database = new Database(dataSource);
    this.sql = new SqlReader(dataSource);
    this.toComment = this.sql.hydrator(CommentEntity);
    const columns = dataSource
      .getMetadata(CommentEntity)
      .columns.filter((c) => c.isSelect)
      .map((c) => `c.${c.databaseName}`)
      .join(', ');
    this.publicForManyHead = `SELECT ${columns} FROM comments c WHERE c.status = 'public' AND (`;
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  private repo() {
    return this.manager.getRepository(CommentEntity);
  }

  findById(commentid: number): Promise<CommentEntity | null> {
    return this.repo().findOneBy({ commentid });
  }

  repliesTo(parentids: number[], onlyPublic: boolean): Promise<CommentEntity[]> {
    if (!parentids.length) return Promise.resolve([]);
    return this.repo().find({
      where: { parentid: In(parentids), ...(onlyPublic ? { status: 'public' } : {}) },
      order: { commentid: 'ASC' },
    });
  }

  /** Public comments (top-level and replies) of many documents of one context, in one query. */
  publicFor(context: string, contextids: number[]): Promise<CommentEntity[]> {
    if (!contextids.length) return Promise.resolve([]);
    return this.repo().find({
      where: { context, contextid: In(contextids), status: 'public' },
      order: { commentid: 'ASC' },
    });
  }

  /**
   * Whether a public comment is on the document whose id is `docidSql` in `context`, or on one of its items
   * (`items`: the rows of a table, as `FROM … WHERE …`, and their id column) in `itemContext`: a cheap test
   * another statement can carry. Two EXISTS that start from an index each: MariaDB ran `contextid IN
   * (subquery)` as a scan of the comments, and SQLite an INNER JOIN from the comments' (context) index;
   * CROSS JOIN keeps SQLite on the items first (for MySQL/MariaDB it is an INNER JOIN).
   */
  publicExistSql(
    context: string,
    docidSql: string,
    itemContext: string,
    items: { from: string; id: string; where: string },
  ): string {
    const quote = (value: string) => `'${value.replace(/'/g, "''")}'`;
    return (
      `(EXISTS (SELECT 1 FROM comments c WHERE c.context = ${quote(context)} AND c.contextid = ${docidSql} AND c.status = 'public')` +
      ` OR EXISTS (SELECT 1 FROM ${items.from} CROSS JOIN comments c ON c.context = ${quote(itemContext)} AND c.contextid = ${items.id}` +
      ` WHERE ${items.where} AND c.status = 'public'))`
    );
  }

  /**
   * Public comments of documents of several contexts, in one query. Hand-written SQL: a hot read, where
   * building the query cost more than running it; its text varies only with the number of requests and ids.
   */
  async publicForMany(requests: { context: string; contextids: number[] }[]): Promise<CommentEntity[]> {
    const wanted = requests.filter((r) => r.contextids.length);
    if (!wanted.length) return [];
    const any = wanted.map((r) => `(c.context = ? AND c.contextid IN (${placeholders(r.contextids)}))`).join(' OR ');
    const parameters = wanted.flatMap((r) => [r.context, ...r.contextids]);
    const rows = await this.sql.rows(`${this.publicForManyHead}${any}) ORDER BY c.commentid ASC`, parameters);
    return rows.map(this.toComment);
  }

  listTopLevel(filter: {
    context?: string;
    modifiedSince?: number;
    order: 'ASC' | 'DESC';
    offset: number;
    limit: number;
  }): Promise<CommentEntity[]> {
    const query = this.repo().createQueryBuilder('c').where('c.parentid IS NULL').andWhere("c.status = 'public'");
    if (filter.context) query.andWhere('c.context = :context', { context: filter.context });
    if (filter.modifiedSince !== undefined)
      query.andWhere('c.modified_date >= :since', { since: filter.modifiedSince });
    return query.orderBy('c.commentid', filter.order).offset(filter.offset).limit(filter.limit).getMany();
  }

  insert(comment: Omit<CommentEntity, 'commentid'>): Promise<CommentEntity> {
    const repo = this.repo();
    return repo.save(repo.create(comment));
  }

  async update(commentid: number, changes: Partial<CommentEntity>): Promise<void> {
    await this.repo().update({ commentid }, changes);
  }

  /** Soft-deletes a comment and its replies. */
  async markDeleted(commentid: number, now: number): Promise<void> {
    await this.repo()
      .createQueryBuilder()
      .update(CommentEntity)
      .set({ status: 'deleted', modifiedDate: now })
      .where('commentid = :commentid OR parentid = :commentid', { commentid })
      .execute();
  }
}
