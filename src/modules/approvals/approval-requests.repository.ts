import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { insertRows } from '../../database/insert';
import { updateRows } from '../../database/update';
import { SqlReader, type SqlRow } from '../../database/sql-reader';
import { SignatureEntity } from '../../platform/signatures/entities/signature.entity';
import { ReleaseEntity } from '../releases/entities/release.entity';
import { UserEntity, USER_LIGHT_COLUMNS, type UserLightColumns } from '../users/entities/user.entity';
import type { StageStatus } from './approval-request.state-machine';
import { ApprovalRequestStageEntity } from './entities/approval-request-stage.entity';
import { ApprovalRequestEntity } from './entities/approval-request.entity';
import { ApprovalStageSignatureEntity, type Decision } from './entities/approval-stage-signature.entity';
import { Database } from '../../database/database';

/** Which requests a page holds (A8), or one request (A9). */
export interface RequestFilter {
  approvalRequestid?: number;
  status?: string;
  doctype?: string;
  docid?: number;
  /** `mine`: requested by or named in; `eligible`: the caller can sign now; `all`: no restriction. */
  eligibility: 'mine' | 'eligible' | 'all';
  order: 'ASC' | 'DESC';
  offset: number;
  limit: number;
}

/** One row of the request view: a stage of a request, with one of its signatures (or none). */
export interface RequestViewRow {
  request: ApprovalRequestEntity;
  stage: ApprovalRequestStageEntity;
  requester: UserLightColumns;
  stageUser: UserLightColumns | null;
  teamName: string | null;
  release: ReleaseEntity | null;
  signature: SignatureEntity | null;
  decision: Decision | null;
  /** The caller may sign this stage now (docs/enterprise/approvals.md, Eligible). */
  callerCanSign: boolean;
}

/** All SQL of approval requests, their stages and stage signatures. */
@Injectable()
export class ApprovalRequestsRepository {
  private readonly sql: SqlReader;
  private selectList?: string;
  private lockSql?: string;
  private viewHydrators?: {
    request: (row: SqlRow) => ApprovalRequestEntity;
    stage: (row: SqlRow) => ApprovalRequestStageEntity;
    requester: (row: SqlRow) => UserEntity;
    stageUser: (row: SqlRow) => UserEntity;
    release: (row: SqlRow) => ReleaseEntity;
    signature: (row: SqlRow) => SignatureEntity;
  };

  private readonly database: Database;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.database = new Database(dataSource);
    this.sql = new SqlReader(dataSource);
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  async insertRequest(row: Omit<ApprovalRequestEntity, 'approvalRequestid'>): Promise<number> {
    const result = await this.manager.insert(ApprovalRequestEntity, row);
    return Number(result.identifiers[0].approvalRequestid);
  }

  async insertStages(rows: Omit<ApprovalRequestStageEntity, 'approvalRequestStageid'>[]): Promise<void> {
    await this.manager.insert(ApprovalRequestStageEntity, rows);
  }

  /** Locks the request row for a move (MySQL; SQLite write transactions are serialized). */
  async lockRequest(approvalRequestid: number): Promise<ApprovalRequestEntity | null> {
    this.lockSql ??= `SELECT ${this.sql.columns(ApprovalRequestEntity, 'r')} FROM approval_requests r WHERE r.approval_requestid = ?${
      this.sql.isSqlite ? '' : ' FOR UPDATE'
    }`;
    const [row] = await this.sql.rows(this.lockSql, [approvalRequestid]);
    return row ? this.sql.hydrator(ApprovalRequestEntity, 'r_')(row) : null;
  }

  /** `UPDATE … WHERE status = :from AND current_stage = :stage`: false when a concurrent move won. */
  async moveRequest(
    approvalRequestid: number,
    from: { status: string; currentStage: number | null },
    changes: Partial<ApprovalRequestEntity>,
  ): Promise<boolean> {
    const changed = await updateRows(this.manager, ApprovalRequestEntity, changes, {
      approvalRequestid,
      status: from.status as ApprovalRequestEntity['status'],
      currentStage: from.currentStage ?? undefined,
    });
    return changed === 1;
  }

  async moveStage(
    approvalRequestid: number,
    orderby: number,
    from: StageStatus,
    changes: Partial<ApprovalRequestStageEntity>,
  ): Promise<boolean> {
    return (
      (await updateRows(this.manager, ApprovalRequestStageEntity, changes, {
        approvalRequestid,
        orderby,
        status: from,
      })) === 1
    );
  }

  async insertStageSignature(row: ApprovalStageSignatureEntity): Promise<void> {
    await insertRows(this.manager, ApprovalStageSignatureEntity, [row]);
  }

  /** Who may sign a stage: its user, or its team's enabled, unbanned members; with their e-mail. */
  async signersOf(
    stage: Pick<ApprovalRequestStageEntity, 'userid' | 'teamid'>,
  ): Promise<{ userid: number; email: string | null }[]> {
    const rows = await this.sql.rows<{ userid: number; email: string | null }>(
      stage.userid !== null
        ? 'SELECT u.userid, u.email FROM users u WHERE u.userid = ?'
        : `SELECT u.userid, u.email FROM team_members m JOIN users u ON u.userid = m.userid
           WHERE m.teamid = ? AND u.enabled = 1 AND u.banned = 0 ORDER BY u.userid`,
      [stage.userid ?? stage.teamid],
    );
    return rows.map((r) => ({ userid: Number(r.userid), email: r.email }));
  }

  async emailOf(userid: number): Promise<string | null> {
    const [row] = await this.sql.rows<{ email: string | null }>('SELECT email FROM users WHERE userid = ?', [userid]);
    return row?.email ?? null;
  }

  /**
   * The page of requests with everything their bodies need, in ONE statement: the page of ids in a
   * derived table, joined to stages, stage signatures, signatures, team names, stage users, the
   * requester and the release; `can_sign` says per stage whether `callerid` may sign it now.
   */
  async view(filter: RequestFilter, callerid: number): Promise<RequestViewRow[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const myTeams = 'SELECT tm.teamid FROM team_members tm WHERE tm.userid = ?';
    if (filter.approvalRequestid !== undefined) {
      where.push('p.approval_requestid = ?');
      params.push(filter.approvalRequestid);
    }
    if (filter.status !== undefined) {
      where.push('p.status = ?');
      params.push(filter.status);
    }
    if (filter.doctype !== undefined) {
      where.push('p.doctype = ?');
      params.push(filter.doctype);
    }
    if (filter.docid !== undefined) {
      where.push('p.docid = ?');
      params.push(filter.docid);
    }
    if (filter.eligibility === 'mine') {
      where.push(`(p.requested_by = ? OR EXISTS (SELECT 1 FROM approval_request_stages ms
        WHERE ms.approval_requestid = p.approval_requestid AND (ms.userid = ? OR ms.teamid IN (${myTeams}))))`);
      params.push(callerid, callerid, callerid);
    } else if (filter.eligibility === 'eligible') {
      where.push(`p.status = 'pending' AND p.requested_by <> ? AND EXISTS (SELECT 1 FROM approval_request_stages es
        WHERE es.approval_requestid = p.approval_requestid AND es.orderby = p.current_stage AND es.status = 'pending'
          AND (es.userid = ? OR es.teamid IN (${myTeams}))
          AND NOT EXISTS (SELECT 1 FROM approval_stage_signatures x
            WHERE x.approval_requestid = es.approval_requestid AND x.orderby = es.orderby AND x.userid = ?))`);
      params.push(callerid, callerid, callerid, callerid);
    }
    const order = filter.order === 'DESC' ? 'DESC' : 'ASC';
    const canSign = `CASE WHEN ar.status = 'pending' AND s.orderby = ar.current_stage AND s.status = 'pending'
        AND ar.requested_by <> ? AND (s.userid = ? OR s.teamid IN (${myTeams}))
        AND NOT EXISTS (SELECT 1 FROM approval_stage_signatures y
          WHERE y.approval_requestid = s.approval_requestid AND y.orderby = s.orderby AND y.userid = ?)
      THEN 1 ELSE 0 END`;
    const text = `SELECT ${this.viewColumns()}, ss.decision AS ss_decision, t.name AS t_name, ${canSign} AS can_sign
      FROM (SELECT p.approval_requestid FROM approval_requests p
            ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
            ORDER BY p.approval_requestid ${order} LIMIT ${Number(filter.limit)} OFFSET ${Number(filter.offset)}) page
      JOIN approval_requests ar ON ar.approval_requestid = page.approval_requestid
      JOIN approval_request_stages s ON s.approval_requestid = ar.approval_requestid
      LEFT JOIN approval_stage_signatures ss ON ss.approval_requestid = s.approval_requestid AND ss.orderby = s.orderby
      LEFT JOIN signatures sig ON sig.signatureid = ss.signatureid
      LEFT JOIN teams t ON t.teamid = s.teamid
      LEFT JOIN users su ON su.userid = s.userid
      LEFT JOIN users ru ON ru.userid = ar.requested_by
      LEFT JOIN releases rel ON rel.releaseid = ar.releaseid
      ORDER BY ar.approval_requestid ${order}, s.orderby, sig.signatureid`;
    const rows = await this.sql.rows(text, [callerid, callerid, callerid, callerid, ...params]);
    return rows.map((row) => this.toViewRow(row));
  }

  /** The select list of `view` (it never changes). */
  private viewColumns(): string {
    this.selectList ??= [
      this.sql.columns(ApprovalRequestEntity, 'ar'),
      this.sql.columns(ApprovalRequestStageEntity, 's'),
      this.sql.columns(SignatureEntity, 'sig'),
      this.sql.columns(ReleaseEntity, 'rel'),
      this.sql.columns(UserEntity, 'ru', USER_LIGHT_COLUMNS),
      this.sql.columns(UserEntity, 'su', USER_LIGHT_COLUMNS),
    ].join(', ');
    return this.selectList;
  }

  private toViewRow(row: SqlRow): RequestViewRow {
    const h = (this.viewHydrators ??= {
      request: this.sql.hydrator(ApprovalRequestEntity, 'ar_'),
      stage: this.sql.hydrator(ApprovalRequestStageEntity, 's_'),
      requester: this.sql.hydrator(UserEntity, 'ru_'),
      stageUser: this.sql.hydrator(UserEntity, 'su_'),
      release: this.sql.hydrator(ReleaseEntity, 'rel_'),
      signature: this.sql.hydrator(SignatureEntity, 'sig_'),
    });
    return {
      request: h.request(row),
      stage: h.stage(row),
      requester: present(row.ru_userid) ? h.requester(row) : unknownUser(Number(row.ar_requested_by)),
      stageUser: present(row.su_userid) ? h.stageUser(row) : null,
      teamName: typeof row.t_name === 'string' ? row.t_name : null,
      release: present(row.rel_releaseid) ? h.release(row) : null,
      signature: present(row.sig_signatureid) ? h.signature(row) : null,
      decision: (row.ss_decision as Decision | null) ?? null,
      callerCanSign: Number(row.can_sign) === 1,
    };
  }
}

const present = (value: unknown): boolean => value !== null && value !== undefined;

/** A requester whose account row is gone still shows as a user object. */
const unknownUser = (userid: number): UserLightColumns => ({
  userid,
  username: 'Unknown',
  uniqueUsername: null,
  joinDate: 0,
  imageid: null,
  reputation: 0,
});
