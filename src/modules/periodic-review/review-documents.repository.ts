import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { Database } from '../../database/database';
import { SqlReader, type SqlRow } from '../../database/sql-reader';
import type { DocType, LabelSql } from '../../platform/documents/document-registry';
import { UserEntity, USER_LIGHT_COLUMNS } from '../users/entities/user.entity';
import type { KnownUser } from '../users/user-facts.registry';
import { ReviewDocumentEntity } from './entities/review-document.entity';
import { ReviewScheduleEntity } from './entities/review-schedule.entity';

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

/**
 * The documents a reviewer reviews and the states they are in (scheduled, open, overdue): the reviewer's
 * lists (P6) and the scheduled task that tells reviewers when a document changes state.
 */
@Injectable()
export class ReviewDocumentsRepository {
  private readonly sql: SqlReader;
  private readonly database: Database;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.database = new Database(dataSource);
    this.sql = new SqlReader(dataSource);
  }

  private get manager(): EntityManager {
    return this.database.manager;
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
}
