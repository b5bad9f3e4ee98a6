import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, Not } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { insertReturningId } from '../../database/insert';
import { likeContains } from '../../database/sql-reader';
import type { AccessSql } from '../../platform/documents/document-registry';
import type { QuizListSort } from './dto/quiz-query.dto';
import { QuizAssociationEntity } from './entities/quiz-association.entity';
import { QuizQuestionEntity } from './entities/quiz-question.entity';
import { QuizRevisionEntity } from './entities/quiz-revision.entity';
import { QuizEntity } from './entities/quiz.entity';
import type { SurveyQuestion } from './quiz-survey';
import { Database } from '../../database/database';

export interface QuizListRow {
  quizid: number;
  quiz_title: string;
  guideid: number;
  guide_title: string;
  guide_release_version: string | null;
  quizzes_submitted: number;
  category: string;
  quiz_last_released: number;
}

export interface QuizListFilter {
  sort: QuizListSort;
  order: 'ASC' | 'DESC';
  category?: string;
  search?: string;
  offset: number;
  limit: number;
  /** Which primary guides the caller may read (DocumentProvider.accessSql). */
  readable: AccessSql;
}

export interface QuizPageFilter {
  /** Which primary guides the caller may read (DocumentProvider.accessSql). */
  readable: AccessSql;
  offset: number;
  limit: number;
  search?: string;
  category?: string;
  status?: string;
  guideid?: number;
  sort: string;
  direction: 'ASC' | 'DESC';
}

const LIST_SORT_COLUMNS: Record<QuizListSort, string> = {
  guideid: 'q.guideid',
  category: 'q.category',
  quiz_title: 'q.title',
  guide_title: 'g.title',
  release_date: 'q.released_date',
  sessions_submitted: 'q.submitted_count',
};

const PAGE_SORT_PROPERTIES: Record<string, keyof QuizEntity> = {
  quizid: 'quizid',
  title: 'title',
  category: 'category',
  created_date: 'createdDate',
  modified_date: 'modifiedDate',
  released_date: 'releasedDate',
};

/** All SQL of quiz definitions, revisions, questions and associations. */
@Injectable()
export class QuizzesRepository {
  private readonly database: Database;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.database = new Database(dataSource);
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  insertQuiz(values: Omit<QuizEntity, 'quizid'>): Promise<number> {
    return insertReturningId(this.manager, QuizEntity, values);
  }

  insertRevision(values: Omit<QuizRevisionEntity, 'quizRevisionid'>): Promise<number> {
    return insertReturningId(this.manager, QuizRevisionEntity, values as QueryDeepPartialEntity<QuizRevisionEntity>);
  }

  /** A quiz that is not deleted (deleted quizzes answer 404 everywhere). */
  findQuiz(quizid: number): Promise<QuizEntity | null> {
    return this.manager.getRepository(QuizEntity).findOneBy({ quizid, status: Not('deleted') });
  }

  async findQuizzes(quizids: number[]): Promise<Map<number, QuizEntity>> {
    if (!quizids.length) return new Map();
    const rows = await this.manager
      .getRepository(QuizEntity)
      .findBy({ quizid: In([...new Set(quizids)]), status: Not('deleted') });
    return new Map(rows.map((row) => [row.quizid, row]));
  }

  async findRevision(quizRevisionid: number): Promise<QuizRevisionEntity | null> {
    return this.manager.getRepository(QuizRevisionEntity).findOneBy({ quizRevisionid });
  }

  /** The conditional write of a quiz: only while it is not deleted and (when given) still at `version`. */
  async updateQuiz(quizid: number, changes: Partial<QuizEntity>, version?: number): Promise<boolean> {
    const query = this.manager
      .createQueryBuilder()
      .update(QuizEntity)
      .set(changes)
      .where('quizid = :quizid AND status <> :deleted', { quizid, deleted: 'deleted' });
    if (version !== undefined) query.andWhere('version = :version', { version });
    return ((await query.execute()).affected ?? 0) > 0;
  }

  async countSubmitted(quizid: number): Promise<void> {
    await this.manager.query('UPDATE quizzes SET submitted_count = submitted_count + 1 WHERE quizid = ?', [quizid]);
  }

  /** The current questions of a quiz, in survey order. */
  questions(quizid: number): Promise<QuizQuestionEntity[]> {
    return this.manager
      .getRepository(QuizQuestionEntity)
      .find({ where: { quizid, removed: false }, order: { orderby: 'ASC', questionid: 'ASC' } });
  }

  /** Makes the question rows match a revision: same ids for the same names, removed ones marked. */
  async syncQuestions(quizid: number, current: SurveyQuestion[]): Promise<void> {
    const repository = this.manager.getRepository(QuizQuestionEntity);
    const existing = new Map((await repository.findBy({ quizid })).map((row) => [row.externalQuestionUid, row]));
    for (const [orderby, question] of current.entries()) {
      const row = existing.get(question.name);
      const values = { title: question.title, type: question.type, orderby, removed: false };
      if (!row) {
        await insertReturningId(this.manager, QuizQuestionEntity, {
          quizid,
          externalQuestionUid: question.name,
          ...values,
        });
      } else if (row.title !== values.title || row.type !== values.type || row.orderby !== orderby || row.removed) {
        await repository.update({ questionid: row.questionid }, values);
      }
      existing.delete(question.name);
    }
    const gone = [...existing.values()].filter((row) => !row.removed).map((row) => row.questionid);
    if (gone.length) await repository.update({ questionid: In(gone) }, { removed: true });
  }

  /** Question ids by name (removed ones included: a pinned older revision may still have them). */
  async questionIdsByName(quizid: number): Promise<Map<string, number>> {
    const rows = await this.manager.query<{ questionid: number | string; external_question_uid: string }[]>(
      'SELECT questionid, external_question_uid FROM quiz_questions WHERE quizid = ?',
      [quizid],
    );
    return new Map(rows.map((row) => [row.external_question_uid, Number(row.questionid)]));
  }

  /** Q3: a page of quizzes that are not deleted and whose primary guide the caller may read, and how many match. */
  async page(filter: QuizPageFilter): Promise<[QuizEntity[], number]> {
    const query = this.manager
      .getRepository(QuizEntity)
      .createQueryBuilder('q')
      .where('q.status <> :deleted', { deleted: 'deleted' })
      .andWhere(filter.readable.readable, filter.readable.params);
    if (filter.status) query.andWhere('q.status = :status', { status: filter.status });
    if (filter.category !== undefined) query.andWhere('q.category = :category', { category: filter.category });
    if (filter.guideid !== undefined) query.andWhere('q.guideid = :guideid', { guideid: filter.guideid });
    if (filter.search) {
      query.andWhere("LOWER(q.title) LIKE :search ESCAPE '!'", { search: likeContains(filter.search.toLowerCase()) });
    }
    const property = PAGE_SORT_PROPERTIES[filter.sort] ?? 'quizid';
    query.orderBy(`q.${property}`, filter.direction);
    if (property !== 'quizid') query.addOrderBy('q.quizid', filter.direction);
    return query.skip(filter.offset).take(filter.limit).getManyAndCount();
  }

  /**
   * Q1 (v2): one statement whatever the page size: quizzes that are not deleted and whose primary guide
   * the caller may read, with the guide's title and the version of its newest `released` release.
   */
  async list(filter: QuizListFilter): Promise<QuizListRow[]> {
    const query = this.manager
      .createQueryBuilder()
      .select('q.quizid', 'quizid')
      .addSelect('q.title', 'quiz_title')
      .addSelect('q.guideid', 'guideid')
      .addSelect('g.title', 'guide_title')
      // MAX rather than ORDER BY … LIMIT 1: MariaDB ran the latter as a scan of every GUIDE release per quiz.
      .addSelect(
        '(SELECT r.released_version FROM releases r WHERE r.releaseid = (SELECT MAX(r2.releaseid) FROM releases r2' +
          " WHERE r2.doctype = 'GUIDE' AND r2.docid = q.guideid AND r2.langid = g.langid AND r2.status = 'released'))",
        'guide_release_version',
      )
      .addSelect('q.submitted_count', 'quizzes_submitted')
      .addSelect('q.category', 'category')
      .addSelect('q.released_date', 'quiz_last_released')
      .from('quizzes', 'q')
      .innerJoin('guides', 'g', 'g.guideid = q.guideid')
      .where("q.status <> 'deleted'")
      .andWhere(filter.readable.readable, filter.readable.params);
    if (filter.category !== undefined) query.andWhere('q.category = :category', { category: filter.category });
    if (filter.search) {
      query.andWhere("(LOWER(q.title) LIKE :search ESCAPE '!' OR LOWER(g.title) LIKE :search ESCAPE '!')", {
        search: likeContains(filter.search.toLowerCase()),
      });
    }
    const rows = await query
      .orderBy(LIST_SORT_COLUMNS[filter.sort], filter.order)
      .addOrderBy('q.quizid', filter.order)
      .offset(filter.offset)
      .limit(filter.limit)
      .getRawMany<Record<string, unknown>>();
    return rows.map((row) => ({
      quizid: Number(row.quizid),
      quiz_title: String(row.quiz_title),
      guideid: Number(row.guideid),
      guide_title: String(row.guide_title),
      guide_release_version: (row.guide_release_version as string | null) ?? null,
      quizzes_submitted: Number(row.quizzes_submitted),
      category: String(row.category),
      quiz_last_released: Number(row.quiz_last_released),
    }));
  }

  /** Q2: distinct non-empty categories of all quizzes, disabled and deleted ones included. */
  async categories(): Promise<string[]> {
    const rows = await this.manager
      .createQueryBuilder()
      .select('DISTINCT q.category', 'name')
      .from('quizzes', 'q')
      .where("q.category <> ''")
      .orderBy('q.category', 'ASC')
      .getRawMany<{ name: string }>();
    return rows.map((row) => row.name);
  }

  /** A guide's category ('' when the guide has none). */
  async guideCategory(guideid: number): Promise<string> {
    const rows = await this.manager
      .createQueryBuilder()
      .select('g.category', 'category')
      .from('guides', 'g')
      .where('g.guideid = :guideid', { guideid })
      .getRawMany<{ category: string | null }>();
    return rows[0]?.category ?? '';
  }

  /** Associations of a document with quizzes that are not deleted, with their titles, by quizid. */
  async associationsOf(
    doctype: string,
    docid: number,
  ): Promise<{ association: QuizAssociationEntity; title: string }[]> {
    const rows = await this.manager
      .createQueryBuilder(QuizAssociationEntity, 'a')
      .innerJoin(QuizEntity, 'q', 'q.quizid = a.quizid')
      .addSelect('q.title', 'quiz_title')
      .where('a.doctype = :doctype AND a.docid = :docid', { doctype, docid })
      .andWhere('q.status <> :deleted', { deleted: 'deleted' })
      .orderBy('a.quizid', 'ASC')
      .getRawAndEntities();
    return rows.entities.map((association, i) => ({
      association,
      title: String((rows.raw[i] as Record<string, unknown>).quiz_title),
    }));
  }

  async findAssociation(quizid: number, doctype: string, docid: number) {
    return this.manager.getRepository(QuizAssociationEntity).findOneBy({ quizid, doctype, docid });
  }

  insertAssociation(values: Omit<QuizAssociationEntity, 'associationid'>): Promise<number> {
    return insertReturningId(this.manager, QuizAssociationEntity, values);
  }

  async deleteAssociations(doctype: string, docid: number, quizids: number[]): Promise<number> {
    const result = await this.manager
      .getRepository(QuizAssociationEntity)
      .delete({ doctype, docid, quizid: In(quizids) });
    return result.affected ?? 0;
  }

  /** The lowest guide still associated with the quiz (the next primary guide), or null. */
  async lowestGuide(quizid: number): Promise<number | null> {
    const row = await this.manager
      .getRepository(QuizAssociationEntity)
      .findOne({ where: { quizid, doctype: 'GUIDE' }, order: { docid: 'ASC' } });
    return row?.docid ?? null;
  }
}
