import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager, In } from 'typeorm';
import { CommentEntity } from './entities/comment.entity';

@Injectable()
export class CommentsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private repo(tx?: EntityManager) {
    return (tx ?? this.dataSource.manager).getRepository(CommentEntity);
  }

  findById(commentid: number, tx?: EntityManager): Promise<CommentEntity | null> {
    return this.repo(tx).findOneBy({ commentid });
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

  /** Public comments of documents of several contexts, in one query. */
  publicForMany(requests: { context: string; contextids: number[] }[]): Promise<CommentEntity[]> {
    const wanted = requests.filter((r) => r.contextids.length);
    if (!wanted.length) return Promise.resolve([]);
    const query = this.repo().createQueryBuilder('c').where("c.status = 'public'");
    query.andWhere(
      new Brackets((any) => {
        wanted.forEach((r, i) =>
          any.orWhere(`(c.context = :context${i} AND c.contextid IN (:...ids${i}))`, {
            [`context${i}`]: r.context,
            [`ids${i}`]: r.contextids,
          }),
        );
      }),
    );
    return query.orderBy('c.commentid', 'ASC').getMany();
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

  insert(comment: Omit<CommentEntity, 'commentid'>, tx: EntityManager): Promise<CommentEntity> {
    const repo = this.repo(tx);
    return repo.save(repo.create(comment));
  }

  async update(commentid: number, changes: Partial<CommentEntity>, tx?: EntityManager): Promise<void> {
    await this.repo(tx).update({ commentid }, changes);
  }

  /** Soft-deletes a comment and its replies. */
  async markDeleted(commentid: number, now: number, tx: EntityManager): Promise<void> {
    await this.repo(tx)
      .createQueryBuilder()
      .update(CommentEntity)
      .set({ status: 'deleted', modifiedDate: now })
      .where('commentid = :commentid OR parentid = :commentid', { commentid })
      .execute();
  }
}
