import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { insertReturningId } from '../../database/insert';
import { updateRows } from '../../database/update';
import { QuizSessionEntity } from './entities/quiz-session.entity';
import { QuizSubmissionEntity } from './entities/quiz-submission.entity';
import type { SurveyJson } from './quiz-survey';
import { Database } from '../../database/database';

export interface SessionFilter {
  userid: number;
  quizid?: number;
  status?: string;
  offset: number;
  limit: number;
  order: 'ASC' | 'DESC';
}

const SESSION_COLUMNS = [
  'sessionid',
  'quizid',
  'quiz_revisionid',
  'userid',
  'course_stageid',
  'stage_key',
  'open_slot',
  'doctype',
  'docid',
  'status',
  'answers',
  'score',
  'passed',
  'passing_score',
  'guide_releaseid',
  'started_date',
  'saved_date',
  'submitted_date',
  'invalidated_by',
  'invalidated_date',
  'invalidated_reason',
];
/** JSON columns: text on SQLite and MariaDB, already parsed by the driver on MySQL 8. */
const jsonOf = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);
const intOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** A quiz_sessions row (SESSION_COLUMNS) as the entity holds it. */
function sessionOfRow(row: Record<string, unknown>): QuizSessionEntity {
  return {
    sessionid: Number(row.sessionid),
    quizid: Number(row.quizid),
    quizRevisionid: Number(row.quiz_revisionid),
    userid: Number(row.userid),
    courseStageid: intOrNull(row.course_stageid),
    stageKey: Number(row.stage_key),
    openSlot: intOrNull(row.open_slot),
    doctype: (row.doctype as string | null) ?? null,
    docid: intOrNull(row.docid),
    status: String(row.status),
    answers: jsonOf(row.answers) as Record<string, unknown>,
    score: intOrNull(row.score),
    passed: row.passed === null || row.passed === undefined ? null : Boolean(Number(row.passed)),
    passingScore: Number(row.passing_score),
    guideReleaseid: intOrNull(row.guide_releaseid),
    startedDate: Number(row.started_date),
    savedDate: intOrNull(row.saved_date),
    submittedDate: intOrNull(row.submitted_date),
    invalidatedBy: intOrNull(row.invalidated_by),
    invalidatedDate: intOrNull(row.invalidated_date),
    invalidatedReason: (row.invalidated_reason as string | null) ?? null,
  };
}

/** 6 parameters a row: well under SQLite's bound-parameter limit. */
const SUBMISSIONS_PER_INSERT = 500;

/** All SQL of quiz sessions and submissions. */
@Injectable()
export class QuizSessionsRepository {
  private readonly database: Database;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.database = new Database(dataSource);
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  insert(values: Omit<QuizSessionEntity, 'sessionid'>): Promise<number> {
    return insertReturningId(this.manager, QuizSessionEntity, values as QueryDeepPartialEntity<QuizSessionEntity>);
  }

  find(sessionid: number): Promise<QuizSessionEntity | null> {
    return this.manager.getRepository(QuizSessionEntity).findOneBy({ sessionid });
  }

  /**
   * The session and its pinned revision's survey in one statement, read by hand (save and submit need both,
   * and the entity loaders cost more CPU than the statement): the same values the entity would hold.
   */
  async findWithSurvey(sessionid: number): Promise<{ session: QuizSessionEntity; survey: SurveyJson } | null> {
    const rows = await this.manager.query<Record<string, unknown>[]>(
      `SELECT ${SESSION_COLUMNS.map((c) => `s.${c}`).join(', ')}, r.survey AS survey FROM quiz_sessions s` +
        ' INNER JOIN quiz_revisions r ON r.quiz_revisionid = s.quiz_revisionid WHERE s.sessionid = ?',
      [sessionid],
    );
    const row = rows[0];
    if (!row) return null;
    return { session: sessionOfRow(row), survey: jsonOf(row.survey) as SurveyJson };
  }

  findMany(sessionids: number[]): Promise<QuizSessionEntity[]> {
    if (!sessionids.length) return Promise.resolve([]);
    return this.manager
      .getRepository(QuizSessionEntity)
      .find({ where: { sessionid: In(sessionids) }, order: { sessionid: 'ASC' } });
  }

  /** The open (in_progress) session of a user for a quiz and course stage (0: none). */
  findOpen(userid: number, quizid: number, stageKey: number): Promise<QuizSessionEntity | null> {
    return this.manager.getRepository(QuizSessionEntity).findOneBy({ userid, quizid, stageKey, openSlot: 1 });
  }

  /** The conditional write of every move: applies only while the session is in `from`. False when nothing matched. */
  async update(sessionid: number, from: string, changes: Partial<QuizSessionEntity>) {
    return (await updateRows(this.manager, QuizSessionEntity, changes, { sessionid, status: from })) > 0;
  }

  /** A user's sessions in these states (for userInvalidateAll). */
  ofUser(userid: number, statuses: string[]): Promise<QuizSessionEntity[]> {
    return this.manager
      .getRepository(QuizSessionEntity)
      .find({ where: { userid, status: In(statuses) }, order: { sessionid: 'ASC' } });
  }

  page(filter: SessionFilter): Promise<QuizSessionEntity[]> {
    return this.manager.getRepository(QuizSessionEntity).find({
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

  /**
   * One multi-row INSERT, written by hand: the entity insert builder spent more CPU on 30 rows than the rest
   * of a submit. Stored as the entity stores them: the answer wrapped as `{"value": …}`, booleans as 1/0.
   */
  async insertSubmissions(rows: Omit<QuizSubmissionEntity, 'submissionid'>[]): Promise<void> {
    for (let i = 0; i < rows.length; i += SUBMISSIONS_PER_INSERT) {
      const chunk = rows.slice(i, i + SUBMISSIONS_PER_INSERT);
      await this.manager.query(
        'INSERT INTO quiz_submissions (sessionid, questionid, external_question_uid, answer, is_correct, points) VALUES ' +
          chunk.map(() => '(?, ?, ?, ?, ?, ?)').join(', '),
        chunk.flatMap((row) => [
          row.sessionid,
          row.questionid,
          row.externalQuestionUid,
          JSON.stringify({ value: row.answer ?? null }),
          row.isCorrect ? 1 : 0,
          row.points,
        ]),
      );
    }
  }

  submissions(sessionid: number): Promise<QuizSubmissionEntity[]> {
    return this.manager
      .getRepository(QuizSubmissionEntity)
      .find({ where: { sessionid }, order: { submissionid: 'ASC' } });
  }
}
