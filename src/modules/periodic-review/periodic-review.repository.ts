import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { insertReturningId } from '../../database/insert';
import { SqlReader, type SqlRow } from '../../database/sql-reader';
import type { DocType, LabelSql } from '../../platform/documents/document-registry';
import { UserEntity, USER_LIGHT_COLUMNS } from '../users/entities/user.entity';
import type { KnownUser } from '../users/user-facts.registry';
import { SignatureEntity } from '../../platform/signatures/entities/signature.entity';
import { ChangeRequestEntity } from './entities/change-request.entity';
import { ReviewDocumentEntity } from './entities/review-document.entity';
import { ReviewEntity } from './entities/review.entity';
import { ReviewScheduleEntity } from './entities/review-schedule.entity';
import { Database } from '../../database/database';

/** A review document with its schedule, its document's label values and its effective reviewer's columns. */
export interface LabelledDocumentRow {
  document: ReviewDocumentEntity;
  schedule: ReviewScheduleEntity;
  label: { title: unknown; authorid: unknown; urlKey: unknown };
  /** With its team ids when the read was given `teamIdsSql`. */
  reviewer: KnownUser | null;
}

/**
 * Documents (d, with their schedule s) `?` reviews (parameters: userid twice): as the effective reviewer (the
 * document's, else the schedule's default, else the document's author) or as a member of the schedule's
 * default team.
 */
const REVIEWED_BY =
  'd.member_slot = 1 AND (COALESCE(d.reviewer_userid, s.default_reviewer_userid, ' +
  "CASE d.doctype WHEN 'GUIDE' THEN (SELECT g.authorid FROM guides g WHERE g.guideid = d.docid)" +
  ' ELSE (SELECT w.authorid FROM wikis w WHERE w.wikiid = d.docid) END) = ?' +
  ' OR EXISTS (SELECT 1 FROM team_members tm WHERE tm.teamid = s.default_teamid AND tm.userid = ?))';

/** When the review window of document d (with its schedule s) opens. */
const WINDOW_OPENS = 'd.next_due_date - s.completion_window_days * 86400';

/** All SQL of periodic review. Writes join the open transaction (Database). */
@Injectable()
export class PeriodicReviewRepository {
  private readonly sql: SqlReader;

  private readonly database: Database;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.database = new Database(dataSource);
    this.sql = new SqlReader(dataSource);
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  insertSchedule(values: Omit<ReviewScheduleEntity, 'prsid'>): Promise<number> {
    return insertReturningId(this.manager, ReviewScheduleEntity, values);
  }

  /** A schedule that is not deleted, or null. */
  liveSchedule(prsid: number): Promise<ReviewScheduleEntity | null> {
    return this.manager.getRepository(ReviewScheduleEntity).findOneBy({ prsid, deletedDate: IsNull() });
  }

  async schedulesByIds(prsids: number[]): Promise<ReviewScheduleEntity[]> {
    if (!prsids.length) return [];
    return this.manager
      .createQueryBuilder(ReviewScheduleEntity, 's')
      .where('s.prsid IN (:...prsids)', { prsids: [...new Set(prsids)] })
      .getMany();
  }

  pageSchedules(offset: number, limit: number, order: 'ASC' | 'DESC'): Promise<ReviewScheduleEntity[]> {
    return this.manager
      .createQueryBuilder(ReviewScheduleEntity, 's')
      .where('s.deletedDate IS NULL')
      .orderBy('s.prsid', order)
      .offset(offset)
      .limit(limit)
      .getMany();
  }

  /** prsid → number of documents in the schedule, in one statement. */
  async documentCounts(prsids: number[]): Promise<Map<number, number>> {
    if (!prsids.length) return new Map();
    const rows = await this.manager
      .createQueryBuilder(ReviewDocumentEntity, 'd')
      .select('d.prsid', 'prsid')
      .addSelect('COUNT(*)', 'n')
      .where('d.prsid IN (:...prsids)', { prsids })
      .andWhere('d.memberSlot = 1')
      .groupBy('d.prsid')
      .getRawMany<{ prsid: number | string; n: number | string }>();
    return new Map(rows.map((r) => [Number(r.prsid), Number(r.n)]));
  }

  /** The documents currently in a schedule, by prdid. */
  documentsOf(prsid: number): Promise<ReviewDocumentEntity[]> {
    return this.manager.getRepository(ReviewDocumentEntity).find({
      where: { prsid, memberSlot: 1 },
      order: { prdid: 'ASC' },
    });
  }

  /** Memberships of these documents of one doctype (any schedule). */
  async membershipsOf(doctype: DocType, docids: number[]): Promise<ReviewDocumentEntity[]> {
    if (!docids.length) return [];
    return this.manager
      .createQueryBuilder(ReviewDocumentEntity, 'd')
      .where('d.doctype = :doctype', { doctype })
      .andWhere('d.docid IN (:...docids)', { docids })
      .andWhere('d.memberSlot = 1')
      .getMany();
  }

  /** Current memberships by prdid (removed ones are absent). */
  async liveDocuments(prdids: number[]): Promise<ReviewDocumentEntity[]> {
    if (!prdids.length) return [];
    return this.manager
      .createQueryBuilder(ReviewDocumentEntity, 'd')
      .where('d.prdid IN (:...prdids)', { prdids: [...new Set(prdids)] })
      .andWhere('d.memberSlot = 1')
      .getMany();
  }

  insertDocument(values: Omit<ReviewDocumentEntity, 'prdid'>): Promise<number> {
    return insertReturningId(this.manager, ReviewDocumentEntity, values);
  }

  /** Soft-removes memberships; answers how many rows changed. */
  async removeDocuments(prdids: number[], now: number): Promise<number> {
    if (!prdids.length) return 0;
    const result = await this.manager
      .createQueryBuilder()
      .update(ReviewDocumentEntity)
      .set({ memberSlot: null, removedDate: now })
      .where('prdid IN (:...prdids)', { prdids })
      .andWhere('member_slot = 1')
      .execute();
    return result.affected ?? 0;
  }

  /** Soft-deletes a live schedule and frees its documents; false when it was already gone. */
  async deleteSchedule(prsid: number, now: number): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(ReviewScheduleEntity)
      .set({ deletedDate: now })
      .where('prsid = :prsid AND deleted_date IS NULL', { prsid })
      .execute();
    if (!result.affected) return false;
    await this.manager
      .createQueryBuilder()
      .update(ReviewDocumentEntity)
      .set({ memberSlot: null, removedDate: now })
      .where('prsid = :prsid AND member_slot = 1', { prsid })
      .execute();
    return true;
  }

  /** Of these user ids, those that exist. */
  async existingUsers(userids: number[]): Promise<Set<number>> {
    if (!userids.length) return new Set();
    const rows = await this.manager.query<{ userid: number | string }[]>(
      `SELECT userid FROM users WHERE userid IN (${userids.map(() => '?').join(', ')})`,
      userids,
    );
    return new Set(rows.map((r) => Number(r.userid)));
  }

  /** teamid → name, in one statement. */
  async teamNames(teamids: number[]): Promise<Map<number, string>> {
    if (!teamids.length) return new Map();
    const ids = [...new Set(teamids)];
    const rows = await this.manager.query<{ teamid: number | string; name: string }[]>(
      `SELECT teamid, name FROM teams WHERE teamid IN (${ids.map(() => '?').join(', ')})`,
      ids,
    );
    return new Map(rows.map((r) => [Number(r.teamid), r.name]));
  }

  /** Whether `userid` is a member of `teamid`. */
  async isTeamMember(teamid: number, userid: number): Promise<boolean> {
    const rows = await this.manager.query<unknown[]>(
      'SELECT 1 AS one FROM team_members WHERE teamid = ? AND userid = ?',
      [teamid, userid],
    );
    return rows.length > 0;
  }

  /**
   * Marks a document reviewed if its due date is still `expectedDue` (a concurrent review moves it first);
   * answers whether this call won.
   */
  async markReviewed(prdid: number, expectedDue: number, reviewedAt: number, nextDue: number): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(ReviewDocumentEntity)
      .set({ lastReviewedDate: reviewedAt, nextDueDate: nextDue, notifiedState: 'scheduled' })
      .where('prdid = :prdid AND member_slot = 1 AND next_due_date = :expectedDue', { prdid, expectedDue })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  insertReview(values: Omit<ReviewEntity, 'reviewid'>): Promise<number> {
    return insertReturningId(this.manager, ReviewEntity, values);
  }

  insertChangeRequest(values: Omit<ChangeRequestEntity, 'requestid'>): Promise<number> {
    return insertReturningId(this.manager, ChangeRequestEntity, values);
  }

  openRequestsOf(doctype: DocType, docid: number): Promise<ChangeRequestEntity[]> {
    return this.manager.getRepository(ChangeRequestEntity).find({
      where: { doctype, docid, status: 'open' },
      order: { requestid: 'ASC' },
    });
  }

  /** Resolves open change requests (by a release, or by a later `no_changes` review when releaseid is null). */
  async resolveRequests(requestids: number[], releaseid: number | null, now: number): Promise<void> {
    if (!requestids.length) return;
    await this.manager
      .createQueryBuilder()
      .update(ChangeRequestEntity)
      .set({ status: 'resolved', resolvedByReleaseid: releaseid, resolvedDate: now })
      .where('requestid IN (:...requestids)', { requestids })
      .andWhere("status = 'open'")
      .execute();
  }

  async reviewsByIds(reviewids: number[]): Promise<ReviewEntity[]> {
    if (!reviewids.length) return [];
    return this.manager
      .createQueryBuilder(ReviewEntity, 'r')
      .where('r.reviewid IN (:...reviewids)', { reviewids })
      .orderBy('r.reviewid', 'ASC')
      .getMany();
  }

  /** Change requests opened by these reviews. */
  async requestsOfReviews(reviewids: number[]): Promise<ChangeRequestEntity[]> {
    if (!reviewids.length) return [];
    return this.manager
      .createQueryBuilder(ChangeRequestEntity, 'c')
      .where('c.reviewid IN (:...reviewids)', { reviewids })
      .getMany();
  }

  async requestsByIds(requestids: number[]): Promise<ChangeRequestEntity[]> {
    if (!requestids.length) return [];
    return this.manager
      .createQueryBuilder(ChangeRequestEntity, 'c')
      .where('c.requestid IN (:...requestids)', { requestids })
      .orderBy('c.requestid', 'ASC')
      .getMany();
  }

  async signaturesByIds(signatureids: number[]): Promise<SignatureEntity[]> {
    if (!signatureids.length) return [];
    return this.manager
      .createQueryBuilder(SignatureEntity, 's')
      .where('s.signatureid IN (:...signatureids)', { signatureids })
      .getMany();
  }

  async pageReviewsBy(userid: number, offset: number, limit: number, order: 'ASC' | 'DESC'): Promise<ReviewEntity[]> {
    return this.manager
      .createQueryBuilder(ReviewEntity, 'r')
      .where('r.userid = :userid', { userid })
      .orderBy('r.reviewid', order)
      .offset(offset)
      .limit(limit)
      .getMany();
  }

  async pageRequestsOf(
    userid: number,
    status: 'open' | 'resolved' | undefined,
    offset: number,
    limit: number,
  ): Promise<ChangeRequestEntity[]> {
    const query = this.manager
      .createQueryBuilder(ChangeRequestEntity, 'c')
      .where('c.assigneeUserid = :userid', { userid });
    if (status) query.andWhere('c.status = :status', { status });
    return query.orderBy('c.requestid', 'ASC').offset(offset).limit(limit).getMany();
  }

  /**
   * Documents `userid` reviews: as the effective reviewer (the document's, else the schedule's default,
   * else the document's author) or as a member of the schedule's default team; optionally in one state
   * at `now`. One statement.
   */
  async pageDocumentsReviewedBy(
    userid: number,
    state: 'scheduled' | 'open' | 'overdue' | undefined,
    now: number,
    offset: number,
    limit: number,
  ): Promise<ReviewDocumentEntity[]> {
    const author =
      "CASE d.doctype WHEN 'GUIDE' THEN (SELECT g.authorid FROM guides g WHERE g.guideid = d.docid)" +
      ' ELSE (SELECT w.authorid FROM wikis w WHERE w.wikiid = d.docid) END';
    const query = this.manager
      .createQueryBuilder(ReviewDocumentEntity, 'd')
      .innerJoin(ReviewScheduleEntity, 's', 's.prsid = d.prsid')
      .where('d.memberSlot = 1')
      .andWhere(
        `(COALESCE(d.reviewer_userid, s.default_reviewer_userid, ${author}) = :userid` +
          ' OR EXISTS (SELECT 1 FROM team_members tm WHERE tm.teamid = s.default_teamid AND tm.userid = :userid))',
        { userid },
      );
    if (state === 'scheduled') query.andWhere(`:now < ${WINDOW_OPENS}`, { now });
    if (state === 'open') query.andWhere(`:now >= ${WINDOW_OPENS} AND :now < d.next_due_date`, { now });
    if (state === 'overdue') query.andWhere(':now >= d.next_due_date', { now });
    return query.orderBy('d.prdid', 'ASC').offset(offset).limit(limit).getMany();
  }

  /**
   * P6 in ONE statement: the page of documents `userid` reviews (effective reviewer, or a member of the
   * schedule's default team) in `state` at `now`, each with its schedule, its document's label values
   * (`labels`: the document providers' SQL per doctype) and its effective reviewer's user columns.
   */
  async pageLabelledDocumentsReviewedBy(
    userid: number,
    state: 'scheduled' | 'open' | 'overdue' | undefined,
    now: number,
    offset: number,
    limit: number,
    labels: Map<DocType, LabelSql>,
    teamIdsSql?: string,
  ): Promise<LabelledDocumentRow[]> {
    const pick = (field: keyof LabelSql) =>
      `CASE d.doctype ${[...labels].map(([doctype, sql]) => `WHEN '${doctype}' THEN ${sql[field]}`).join(' ')} END`;
    const states = {
      scheduled: { sql: ` AND ? < ${WINDOW_OPENS}`, params: [now] },
      open: { sql: ` AND ? >= ${WINDOW_OPENS} AND ? < d.next_due_date`, params: [now, now] },
      overdue: { sql: ' AND ? >= d.next_due_date', params: [now] },
    };
    const teams = teamIdsSql ? `, ${teamIdsSql} AS u_team_ids` : '';
    const text = `SELECT page.*, ${this.sql.columns(UserEntity, 'u', USER_LIGHT_COLUMNS)}${teams}
      FROM (SELECT ${this.sql.columns(ReviewDocumentEntity, 'd')}, ${this.sql.columns(ReviewScheduleEntity, 's')},
              ${pick('title')} AS lbl_title, ${pick('authorid')} AS lbl_authorid, ${pick('urlKey')} AS lbl_url_key
            FROM periodic_review_documents d JOIN periodic_review_schedules s ON s.prsid = d.prsid
            WHERE ${REVIEWED_BY} ${state ? states[state].sql : ''}
            ORDER BY d.prdid LIMIT ${Number(limit)} OFFSET ${Number(offset)}) page
      LEFT JOIN users u ON u.userid = COALESCE(page.d_reviewer_userid, page.s_default_reviewer_userid, page.lbl_authorid)
      ORDER BY page.d_prdid`;
    const rows = await this.sql.rows(text, [userid, userid, ...(state ? states[state].params : [])]);
    const document = this.sql.hydrator(ReviewDocumentEntity, 'd_');
    const schedule = this.sql.hydrator(ReviewScheduleEntity, 's_');
    const user = this.sql.hydrator(UserEntity, 'u_');
    return rows.map((row: SqlRow) => ({
      document: document(row),
      schedule: schedule(row),
      label: { title: row.lbl_title, authorid: row.lbl_authorid, urlKey: row.lbl_url_key },
      reviewer:
        row.u_userid === null || row.u_userid === undefined ? null : { user: user(row), teamIds: row.u_team_ids },
    }));
  }

  /**
   * When the next of the documents `userid` reviews (as in pageLabelledDocumentsReviewedBy) changes state after
   * `now` (its window opens or it falls due), in seconds; null when none will. One statement.
   */
  async nextStateChangeReviewedBy(userid: number, now: number): Promise<number | null> {
    const [row] = await this.sql.rows(
      `SELECT MIN(CASE WHEN ? < ${WINDOW_OPENS} THEN ${WINDOW_OPENS} WHEN ? < d.next_due_date THEN d.next_due_date END) AS next_change
         FROM periodic_review_documents d JOIN periodic_review_schedules s ON s.prsid = d.prsid
        WHERE ${REVIEWED_BY}`,
      [now, now, userid, userid],
    );
    return row?.next_change === null || row?.next_change === undefined ? null : Number(row.next_change);
  }

  /**
   * The next batch (by prdid, after `afterPrdid`) of scheduled documents whose state at `now` differs from
   * their stored `notified_state`, with the state they are in now. One statement.
   */
  async changedStates(
    now: number,
    afterPrdid: number,
    limit: number,
  ): Promise<{ row: ReviewDocumentEntity; state: 'scheduled' | 'open' | 'overdue' }[]> {
    // Hand-written: the query builder's entity hydration cost more CPU than the statement (500 rows a page).
    const state =
      "CASE WHEN ? >= d.next_due_date THEN 'overdue'" + ` WHEN ? >= ${WINDOW_OPENS} THEN 'open' ELSE 'scheduled' END`;
    const rows = await this.sql.rows(
      `SELECT ${this.sql.columns(ReviewDocumentEntity, 'd')}, ${state} AS computed_state` +
        ' FROM periodic_review_documents d INNER JOIN periodic_review_schedules s ON s.prsid = d.prsid' +
        ` WHERE d.member_slot = 1 AND d.prdid > ? AND ${state} <> d.notified_state` +
        ` ORDER BY d.prdid LIMIT ${Number(limit)}`,
      [now, now, afterPrdid, now, now],
    );
    const document = this.sql.hydrator(ReviewDocumentEntity, 'd_');
    return rows.map((row) => ({
      row: document(row),
      state: row.computed_state as 'scheduled' | 'open' | 'overdue',
    }));
  }

  /**
   * Stores each document's notified state unless another run changed it first (its stored state is no
   * longer `from`); answers the prdids this call changed. Inside the caller's transaction: the rows are
   * read under lock (MySQL; SQLite write transactions run one at a time), then one UPDATE per new state.
   */
  async markNotifiedMany(changes: { prdid: number; from: string; to: string }[]): Promise<Set<number>> {
    if (!changes.length) return new Set();
    const ids = changes.map((c) => c.prdid);
    const lock = this.dataSource.options.type !== 'better-sqlite3' ? ' FOR UPDATE' : '';
    const rows = await this.manager.query<{ prdid: number | string; notified_state: string }[]>(
      `SELECT prdid, notified_state FROM periodic_review_documents WHERE prdid IN (${ids.map(() => '?').join(', ')})` +
        ` AND member_slot = 1${lock}`,
      ids,
    );
    const stored = new Map(rows.map((r) => [Number(r.prdid), r.notified_state]));
    const moving = changes.filter((c) => stored.get(c.prdid) === c.from);
    const byState = new Map<string, number[]>();
    for (const c of moving) byState.set(c.to, [...(byState.get(c.to) ?? []), c.prdid]);
    for (const [to, prdids] of byState) {
      await this.manager.query(
        `UPDATE periodic_review_documents SET notified_state = ? WHERE prdid IN (${prdids.map(() => '?').join(', ')})`,
        [to, ...prdids],
      );
    }
    return new Set(moving.map((c) => c.prdid));
  }

  /** Stores the notified state unless another run did first; answers whether this call changed it. */
  async markNotified(prdid: number, from: string, to: string): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(ReviewDocumentEntity)
      .set({ notifiedState: to as ReviewDocumentEntity['notifiedState'] })
      .where('prdid = :prdid AND notified_state = :from AND member_slot = 1', { prdid, from })
      .execute();
    return (result.affected ?? 0) > 0;
  }
}
