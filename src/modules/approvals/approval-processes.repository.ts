import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, Not, type EntityManager } from 'typeorm';
import { likeContains, placeholders } from '../../database/sql-reader';
import { ApprovalAssignmentEntity, type ApprovalSlot } from './entities/approval-assignment.entity';
import { ApprovalProcessRevisionEntity } from './entities/approval-process-revision.entity';
import { ApprovalProcessStageEntity } from './entities/approval-process-stage.entity';
import { ApprovalProcessEntity } from './entities/approval-process.entity';
import { Database } from '../../database/database';

export type NewStage = Pick<ApprovalProcessStageEntity, 'orderby' | 'userid' | 'teamid' | 'requiredSignatures'>;

/** All SQL of approval processes, their revisions and stages, and document slots. */
@Injectable()
export class ApprovalProcessesRepository {
  private readonly database: Database;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.database = new Database(dataSource);
  }

  /** The open transaction's manager when there is one (the getter joins it). */
  private get manager(): EntityManager {
    return this.database.manager;
  }

  private get isMysql(): boolean {
    return this.dataSource.options.type !== 'better-sqlite3';
  }

  async insertProcess(row: Omit<ApprovalProcessEntity, 'approvalProcessid'>): Promise<number> {
    const result = await this.manager.insert(ApprovalProcessEntity, row);
    return Number(result.identifiers[0].approvalProcessid);
  }

  async insertRevision(approvalProcessid: number, name: string, now: number, stages: NewStage[]): Promise<number> {
    const result = await this.manager.insert(ApprovalProcessRevisionEntity, {
      approvalProcessid,
      name,
      createdDate: now,
    });
    const revisionid = Number(result.identifiers[0].approvalProcessRevisionid);
    await this.manager.insert(
      ApprovalProcessStageEntity,
      stages.map((stage) => ({ ...stage, approvalProcessRevisionid: revisionid })),
    );
    return revisionid;
  }

  /** Moves the process to a new current revision unless it moved meanwhile (false then). */
  async advance(
    approvalProcessid: number,
    fromRevisionid: number,
    changes: Partial<ApprovalProcessEntity>,
  ): Promise<boolean> {
    const result = await this.manager.update(
      ApprovalProcessEntity,
      { approvalProcessid, currentRevisionid: fromRevisionid },
      changes,
    );
    return result.affected === 1;
  }

  /** Clears the site default everywhere but on `except`. */
  async clearSiteDefault(except: number): Promise<number[]> {
    const cleared = await this.manager.find(ApprovalProcessEntity, {
      select: { approvalProcessid: true },
      where: { siteDefault: true, approvalProcessid: Not(except) },
    });
    if (cleared.length) {
      await this.manager.update(
        ApprovalProcessEntity,
        { approvalProcessid: In(cleared.map((p) => p.approvalProcessid)) },
        { siteDefault: false },
      );
    }
    return cleared.map((p) => p.approvalProcessid);
  }

  findProcess(approvalProcessid: number): Promise<ApprovalProcessEntity | null> {
    return this.manager.findOneBy(ApprovalProcessEntity, { approvalProcessid });
  }

  /** Locks the process row for a write (MySQL; SQLite transactions are serialized). */
  findProcessForWrite(approvalProcessid: number): Promise<ApprovalProcessEntity | null> {
    const query = this.manager
      .createQueryBuilder(ApprovalProcessEntity, 'p')
      .where('p.approval_processid = :approvalProcessid', { approvalProcessid });
    if (this.isMysql) query.setLock('pessimistic_write');
    return query.getOne();
  }

  findProcesses(ids: number[]): Promise<ApprovalProcessEntity[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.manager.findBy(ApprovalProcessEntity, { approvalProcessid: In(ids) });
  }

  siteDefault(): Promise<ApprovalProcessEntity | null> {
    return this.manager.findOne(ApprovalProcessEntity, {
      where: { siteDefault: true },
      order: { approvalProcessid: 'ASC' },
    });
  }

  listProcesses(offset: number, limit: number, order: 'ASC' | 'DESC'): Promise<ApprovalProcessEntity[]> {
    return this.manager.find(ApprovalProcessEntity, {
      order: { approvalProcessid: order },
      skip: offset,
      take: limit,
    });
  }

  searchProcesses(term: string, limit: number): Promise<ApprovalProcessEntity[]> {
    return this.manager
      .createQueryBuilder(ApprovalProcessEntity, 'p')
      .where("LOWER(p.name) LIKE LOWER(:term) ESCAPE '!'", { term: likeContains(term) })
      .orderBy('p.approval_processid', 'ASC')
      .limit(limit)
      .getMany();
  }

  findRevision(approvalProcessRevisionid: number): Promise<ApprovalProcessRevisionEntity | null> {
    return this.manager.findOneBy(ApprovalProcessRevisionEntity, { approvalProcessRevisionid });
  }

  findRevisions(ids: number[]): Promise<ApprovalProcessRevisionEntity[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.manager.findBy(ApprovalProcessRevisionEntity, { approvalProcessRevisionid: In(ids) });
  }

  /** Stages of these revisions, by revision then orderby: one query. */
  async stagesOf(revisionids: number[]): Promise<Map<number, ApprovalProcessStageEntity[]>> {
    const result = new Map<number, ApprovalProcessStageEntity[]>(revisionids.map((id) => [id, []]));
    if (!revisionids.length) return result;
    const rows = await this.manager.find(ApprovalProcessStageEntity, {
      where: { approvalProcessRevisionid: In(revisionids) },
      order: { approvalProcessRevisionid: 'ASC', orderby: 'ASC' },
    });
    for (const row of rows) result.get(row.approvalProcessRevisionid)?.push(row);
    return result;
  }

  /** Distinct documents whose slots name each process. */
  async documentCounts(processids: number[]): Promise<Map<number, number>> {
    const result = new Map<number, number>(processids.map((id) => [id, 0]));
    if (!processids.length) return result;
    const rows = await this.manager.query<{ approval_processid: number; documents: number }[]>(
      `SELECT d.approval_processid, COUNT(*) AS documents FROM (
         SELECT DISTINCT approval_processid, doctype, docid FROM approval_assignments
         WHERE approval_processid IN (${placeholders(processids)})) d
       GROUP BY d.approval_processid`,
      processids,
    );
    for (const row of rows) result.set(Number(row.approval_processid), Number(row.documents));
    return result;
  }

  /** Team names and their enabled, unbanned member counts (the teams a stage may name). */
  async teams(teamids: number[]): Promise<Map<number, { name: string; members: number }>> {
    const result = new Map<number, { name: string; members: number }>();
    if (!teamids.length) return result;
    const rows = await this.manager.query<{ teamid: number; name: string; members: number }[]>(
      `SELECT t.teamid, t.name,
         (SELECT COUNT(*) FROM team_members m JOIN users u ON u.userid = m.userid
          WHERE m.teamid = t.teamid AND u.enabled = 1 AND u.banned = 0) AS members
       FROM teams t WHERE t.teamid IN (${placeholders(teamids)})`,
      teamids,
    );
    for (const row of rows) result.set(Number(row.teamid), { name: row.name, members: Number(row.members) });
    return result;
  }

  slotsOf(doctype: string, docid: number): Promise<ApprovalAssignmentEntity[]> {
    return this.manager.findBy(ApprovalAssignmentEntity, { doctype, docid });
  }

  async setSlot(doctype: string, docid: number, slot: ApprovalSlot, approvalProcessid: number): Promise<void> {
    await this.manager.delete(ApprovalAssignmentEntity, { doctype, docid, slot });
    await this.manager.insert(ApprovalAssignmentEntity, { doctype, docid, slot, approvalProcessid });
  }

  async clearSlots(doctype: string, docid: number, slots: ApprovalSlot[]): Promise<void> {
    await this.manager.delete(ApprovalAssignmentEntity, { doctype, docid, slot: In(slots) });
  }
}
