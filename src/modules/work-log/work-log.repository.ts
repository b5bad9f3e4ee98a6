import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, type SelectQueryBuilder } from 'typeorm';
import { insertReturningId, insertRows } from '../../database/insert';
import { updateRows } from '../../database/update';
import { NATIVE_ROWS } from '../../database/drivers/sqlite/rows';
import { placeholders, SqlReader } from '../../database/sql-reader';
import { WorkLogDataEntity } from './entities/work-log-data.entity';
import { WorkLogEntryEntity } from './entities/work-log-entry.entity';
import { WorkLogSignoffEntity } from './entities/work-log-signoff.entity';
import { WorkLogTimingEntity } from './entities/work-log-timing.entity';
import { Database } from '../../database/database';

export interface EntryFilter {
  guideid?: number;
  userid?: number;
  workorderid?: string;
  status?: string;
  since?: number;
  until?: number;
  offset: number;
  limit: number;
  order: 'ASC' | 'DESC';
}

/** An entry's recorded values, timings and sign-offs, loaded together. */
/** One recorded value as the CSV export writes it. */
/**
 * One recorded value as the export reads it: the row as the driver answers it, columns by their SQL names
 * (numbers may arrive as strings on MySQL; the CSV text is the same).
 */
export interface ExportDataRow {
  entryid: number | string;
  stepid: number | string;
  field_revisionid: number | string;
  field_guid: string;
  label: string;
  value: string;
  userid: number | string;
  date: number | string;
}

export interface EntryChildren {
  data: WorkLogDataEntity[];
  timings: WorkLogTimingEntity[];
  signoffs: Pick<WorkLogSignoffEntity, 'signoffid' | 'stepid' | 'teamid' | 'status'>[];
}

const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

@Injectable()
export class WorkLogRepository {
  private readonly sql: SqlReader;
  private entrySql?: string;

  private readonly database: Database;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.database = new Database(dataSource);
    this.sql = new SqlReader(dataSource);
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  insertEntry(values: Omit<WorkLogEntryEntity, 'entryid'>): Promise<number> {
    return insertReturningId(this.manager, WorkLogEntryEntity, values);
  }

  /** A live (not deleted) entry. */
  async findEntry(entryid: number): Promise<WorkLogEntryEntity | null> {
    this.entrySql ??= `SELECT ${this.sql.columns(WorkLogEntryEntity, 'e')} FROM work_log_entries e WHERE e.entryid = ? AND e.deleted = 0`;
    const [row] = await this.sql.rows(this.entrySql, [entryid]);
    return row ? this.sql.hydrator(WorkLogEntryEntity, 'e_')(row) : null;
  }

  /**
   * The conditional write every change of an entry goes through: it applies only while the entry is
   * live and in `from` (and, when given, still has `timingid`), and bumps write_count so that two writers
   * of one entry take turns on its row. False when nothing matched.
   */
  async updateEntry(
    entryid: number,
    from: string,
    changes: Partial<WorkLogEntryEntity>,
    expectTimingid?: number,
  ): Promise<boolean> {
    const where: Partial<WorkLogEntryEntity> = { entryid, status: from, deleted: false };
    if (expectTimingid !== undefined) where.timingid = expectTimingid;
    return (await updateRows(this.manager, WorkLogEntryEntity, changes, where, ['write_count = write_count + 1'])) > 0;
  }

  async softDelete(entryid: number): Promise<boolean> {
    const result = await this.manager
      .getRepository(WorkLogEntryEntity)
      .update({ entryid, deleted: false }, { deleted: true });
    return (result.affected ?? 0) > 0;
  }

  insertTiming(values: Omit<WorkLogTimingEntity, 'timingid'>): Promise<number> {
    return insertReturningId(this.manager, WorkLogTimingEntity, values);
  }

  async closeTiming(timingid: number, at: number): Promise<void> {
    await this.manager
      .createQueryBuilder()
      .update(WorkLogTimingEntity)
      .set({ dateEnd: at })
      .where('timingid = :timingid AND date_end IS NULL', { timingid })
      .execute();
  }

  async insertData(rows: Omit<WorkLogDataEntity, 'dataid'>[]): Promise<void> {
    await insertRows(this.manager, WorkLogDataEntity, rows);
  }

  private filtered(filter: Omit<EntryFilter, 'offset' | 'limit' | 'order'>): SelectQueryBuilder<WorkLogEntryEntity> {
    const query = this.manager
      .getRepository(WorkLogEntryEntity)
      .createQueryBuilder('e')
      .where('e.deleted = :deleted', { deleted: false });
    if (filter.guideid !== undefined) query.andWhere('e.guideid = :guideid', { guideid: filter.guideid });
    if (filter.userid !== undefined) query.andWhere('e.userid = :userid', { userid: filter.userid });
    if (filter.workorderid !== undefined) query.andWhere('e.workorderid = :wo', { wo: filter.workorderid });
    if (filter.status !== undefined) query.andWhere('e.status = :status', { status: filter.status });
    if (filter.since !== undefined) query.andWhere('e.starttime >= :since', { since: filter.since });
    if (filter.until !== undefined) query.andWhere('e.starttime <= :until', { until: filter.until });
    return query;
  }

  listEntries(filter: EntryFilter): Promise<WorkLogEntryEntity[]> {
    return this.filtered(filter).orderBy('e.entryid', filter.order).offset(filter.offset).limit(filter.limit).getMany();
  }

  /** Export pages: entries after `afterEntryid`, in entryid order. */
  exportPage(
    filter: Omit<EntryFilter, 'offset' | 'limit' | 'order'> & { entryid?: number },
    afterEntryid: number,
    size: number,
  ): Promise<WorkLogEntryEntity[]> {
    const query = this.filtered(filter).andWhere('e.entryid > :after', { after: afterEntryid });
    if (filter.entryid !== undefined) query.andWhere('e.entryid = :entryid', { entryid: filter.entryid });
    return query.orderBy('e.entryid', 'ASC').limit(size).getMany();
  }

  /**
   * Every recorded value of these entries, in recording order, as the driver's rows: the export streams
   * millions and writes each row straight into a CSV line. (A mapped object per row made V8 pretenure them
   * (allocation-site feedback): they went straight to the old generation, which grew by 200+ MiB of garbage
   * before its next full collection in about half of the runs. On SQLite, NATIVE_ROWS keeps them native.)
   */
  dataOf(entryids: number[]): Promise<ExportDataRow[]> {
    if (!entryids.length) return Promise.resolve([]);
    return this.manager.query<ExportDataRow[]>(
      `${NATIVE_ROWS} SELECT entryid, stepid, field_revisionid, field_guid, label, value, userid, date FROM work_log_data` +
        ` WHERE entryid IN (${placeholders(entryids)}) ORDER BY entryid, dataid`,
      entryids,
    );
  }

  /** Values, timings and sign-offs of many entries in ONE statement (a list page costs one query for all). */
  async children(entryids: number[]): Promise<Map<number, EntryChildren>> {
    const result = new Map<number, EntryChildren>(entryids.map((id) => [id, { data: [], timings: [], signoffs: [] }]));
    if (!entryids.length) return result;
    const ids = placeholders(entryids);
    const sql =
      `SELECT 'd' AS k, entryid, dataid AS id, field_revisionid AS n1, stepid AS n2, date AS n3, userid AS n4, value AS t1, label AS t2, field_guid AS t3 ` +
      `FROM work_log_data WHERE entryid IN (${ids}) ` +
      `UNION ALL SELECT 't', entryid, timingid, stepid, date_start, date_end, NULL, NULL, NULL, NULL FROM work_log_timings WHERE entryid IN (${ids}) ` +
      `UNION ALL SELECT 's', entryid, signoffid, stepid, teamid, NULL, NULL, status, NULL, NULL FROM work_log_signoffs WHERE entryid IN (${ids}) ` +
      `ORDER BY k, id`;
    const rows = await this.manager.query<Record<string, unknown>[]>(sql, [...entryids, ...entryids, ...entryids]);
    for (const row of rows) {
      const children = result.get(num(row.entryid));
      if (!children) continue;
      if (row.k === 'd') {
        children.data.push({
          dataid: num(row.id),
          entryid: num(row.entryid),
          fieldRevisionid: num(row.n1),
          stepid: num(row.n2),
          date: num(row.n3),
          userid: num(row.n4),
          value: String(row.t1),
          label: String(row.t2),
          fieldGuid: String(row.t3),
        });
      } else if (row.k === 't') {
        children.timings.push({
          timingid: num(row.id),
          entryid: num(row.entryid),
          stepid: num(row.n1),
          dateStart: num(row.n2),
          dateEnd: numOrNull(row.n3),
        });
      } else {
        children.signoffs.push({
          signoffid: num(row.id),
          stepid: num(row.n1),
          teamid: num(row.n2),
          status: String(row.t1),
        });
      }
    }
    return result;
  }

  insertSignoff(values: Omit<WorkLogSignoffEntity, 'signoffid'>): Promise<number> {
    return insertReturningId(this.manager, WorkLogSignoffEntity, values);
  }

  findSignoff(signoffid: number): Promise<WorkLogSignoffEntity | null> {
    return this.manager.getRepository(WorkLogSignoffEntity).findOneBy({ signoffid });
  }

  pendingSignoff(entryid: number, stepid?: number): Promise<WorkLogSignoffEntity | null> {
    return this.manager
      .getRepository(WorkLogSignoffEntity)
      .findOne({ where: { entryid, status: 'pending', ...(stepid ? { stepid } : {}) }, order: { signoffid: 'ASC' } });
  }

  async decideSignoff(signoffid: number, changes: Partial<WorkLogSignoffEntity>): Promise<boolean> {
    const result = await this.manager
      .getRepository(WorkLogSignoffEntity)
      .update({ signoffid, status: 'pending' }, changes);
    return (result.affected ?? 0) > 0;
  }

  /** Sign-offs of live entries; `visibleTo` limits them to the operator's and those of the user's teams. */
  listSignoffs(
    status: string,
    offset: number,
    limit: number,
    visibleTo?: { userid: number; teamids: number[] },
  ): Promise<WorkLogSignoffEntity[]> {
    const query = this.manager
      .getRepository(WorkLogSignoffEntity)
      .createQueryBuilder('s')
      .innerJoin(WorkLogEntryEntity, 'e', 'e.entryid = s.entryid AND e.deleted = :deleted', { deleted: false })
      .where('s.status = :status', { status });
    if (visibleTo) {
      query.andWhere(
        visibleTo.teamids.length ? '(e.userid = :userid OR s.teamid IN (:...teamids))' : 'e.userid = :userid',
        { userid: visibleTo.userid, teamids: visibleTo.teamids },
      );
    }
    return query.orderBy('s.signoffid', 'ASC').offset(offset).limit(limit).getMany();
  }

  entriesByIds(entryids: number[]): Promise<WorkLogEntryEntity[]> {
    if (!entryids.length) return Promise.resolve([]);
    return this.manager.getRepository(WorkLogEntryEntity).findBy({ entryid: In(entryids), deleted: false });
  }
}
