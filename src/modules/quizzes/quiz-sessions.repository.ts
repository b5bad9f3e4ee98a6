import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { insertReturningId } from '../../database/insert';
import { QuizSessionEntity } from './entities/quiz-session.entity';
import { QuizSubmissionEntity } from './entities/quiz-submission.entity';

export interface SessionFilter {
  userid: number;
  quizid?: number;
  status?: string;
  offset: number;
  limit: number;
  order: 'ASC' | 'DESC';
}

/** All SQL of quiz sessions and submissions. */
@Injectable()
export class QuizSessionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private manager(tx?: EntityManager): EntityManager {
    return tx ?? this.dataSource.manager;
  }

  insert(values: Omit<QuizSessionEntity, 'sessionid'>, tx: EntityManager): Promise<number> {
    return insertReturningId(tx, QuizSessionEntity, values as QueryDeepPartialEntity<QuizSessionEntity>);
  }

  find(sessionid: number, tx?: EntityManager): Promise<QuizSessionEntity | null> {
    return this.manager(tx).getRepository(QuizSessionEntity).findOneBy({ sessionid });
  }

  findMany(sessionids: number[], tx?: EntityManager): Promise<QuizSessionEntity[]> {
    if (!sessionids.length) return Promise.resolve([]);
    return this.manager(tx)
      .getRepository(QuizSessionEntity)
      .find({ where: { sessionid: In(sessionids) }, order: { sessionid: 'ASC' } });
  }

  /** The open (in_progress) session of a user for a quiz and course stage (0: none). */
  findOpen(userid: number, quizid: number, stageKey: number, tx?: EntityManager): Promise<QuizSessionEntity | null> {
    return this.manager(tx).getRepository(QuizSessionEntity).findOneBy({ userid, quizid, stageKey, openSlot: 1 });
  }

  /** The conditional write of every move: applies only while the session is in `from`. False when nothing matched. */
  async update(sessionid: number, from: string, changes: Partial<QuizSessionEntity>, tx: EntityManager) {
    const result = await tx
      .createQueryBuilder()
      .update(QuizSessionEntity)
      .set(changes as QueryDeepPartialEntity<QuizSessionEntity>)
      .where('sessionid = :sessionid AND status = :from', { sessionid, from })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** A user's sessions in these states (for userInvalidateAll). */
  ofUser(userid: number, statuses: string[], tx: EntityManager): Promise<QuizSessionEntity[]> {
    return tx
      .getRepository(QuizSessionEntity)
      .find({ where: { userid, status: In(statuses) }, order: { sessionid: 'ASC' } });
  }

  page(filter: SessionFilter): Promise<QuizSessionEntity[]> {
    return this.manager()
      .getRepository(QuizSessionEntity)
      .find({
        where: {
          userid: filter.userid,
          ...(filter.quizid !== undefined ? { quizid: filter.quizid } : {}),
          ...(filter.status ? { status: filter.status } : {}),
        },
        order: { sessionid: filter.order },
        skip: filter.offset,
        take: filter.limit,
      });
  }

  async insertSubmissions(rows: Omit<QuizSubmissionEntity, 'submissionid'>[], tx: EntityManager): Promise<void> {
    if (rows.length)
      await tx.getRepository(QuizSubmissionEntity).insert(rows as QueryDeepPartialEntity<QuizSubmissionEntity>[]);
  }

  submissions(sessionid: number): Promise<QuizSubmissionEntity[]> {
    return this.manager()
      .getRepository(QuizSubmissionEntity)
      .find({ where: { sessionid }, order: { submissionid: 'ASC' } });
  }
}
