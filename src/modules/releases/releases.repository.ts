import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { insertReturningId } from '../../database/insert';
import { placeholders, SqlReader } from '../../database/sql-reader';
import type { DocType } from '../../platform/documents/document-registry';
import { ContentVersions, tokenColumn, versionTokenSql } from '../../platform/versions/content-versions';
import { UserEntity, type UserLightColumns } from '../users/entities/user.entity';
import { ReleaseEntity, type ReleaseStatus, type ReleaseType } from './entities/release.entity';
import { Database } from '../../database/database';

/** A release with its creator's columns, as lists load them in one statement. */
export interface ReleaseRow {
  release: ReleaseEntity;
  user: UserLightColumns | null;
}

export interface ReleasePageFilter {
  doctype: DocType;
  docid?: number;
  status?: ReleaseStatus;
  type?: ReleaseType;
  /**
   * Only releases the caller may see: an SQL condition on `r` (see DocumentProvider.accessSql). With `split`, the
   * same set as the releases of `editableIds` and the released ones that are `readable` (see page).
   */
  visible?: {
    sql: string;
    params: Record<string, unknown>;
    split?: { editableIds: string; readable: string };
  };
  order: 'ASC' | 'DESC';
  offset: number;
  limit: number;
}

const USER_COLUMNS: [property: keyof UserLightColumns, alias: string][] = [
  ['userid', 'u_userid'],
  ['username', 'u_username'],
  ['uniqueUsername', 'u_unique_username'],
  ['joinDate', 'u_join_date'],
  ['imageid', 'u_imageid'],
  ['reputation', 'u_reputation'],
];

/** What `live` reads of a release. */
export type LiveReleaseRow = Pick<
  ReleaseEntity,
  'releaseid' | 'docid' | 'langid' | 'revisionid' | 'versionMajor' | 'versionMinor'
>;

/** All SQL of releases. Writes join the open transaction (Database). */
@Injectable()
export class ReleasesRepository {
  private readonly sql: SqlReader;
  /** `SELECT <what a live release is> FROM releases r WHERE … AND r.docid IN (`: the fixed head of live. */
  private readonly liveHead: string;
  /** The select list of splitPage: the release's columns and its creator's (USER_COLUMNS' aliases). */
  private pageColumns?: string;

  private readonly database: Database;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly versions: ContentVersions,
  ) {
    this.database = new Database(dataSource);
    this.sql = new SqlReader(dataSource);
    const columns =
      'v.token, r.releaseid, r.docid, r.langid, r.revisionid, r.version_major AS versionMajor, r.version_minor AS versionMinor';
    // SQLite plans without statistics and took idx_releases_doctype (doctype, status) for this, walking every
    // released document of the type (0.55 ms a guide detail with 10,000 released guides); MySQL has statistics.
    const index = dataSource.options.type === 'better-sqlite3' ? ' INDEXED BY idx_releases_document' : '';
    // From the one-row token: the `releases` version token comes back even when no document has a release.
    this.liveHead =
      `SELECT ${columns} FROM (SELECT ${versionTokenSql('releases')} AS token) v` +
      ` LEFT JOIN releases r${index} ON r.doctype = ? AND r.status = 'released' AND r.docid IN (`;
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  private get isMysql(): boolean {
    return this.dataSource.options.type !== 'better-sqlite3';
  }

  /**
   * Serializes the release decisions of one document and language until the transaction ends: MySQL
   * takes the lock row's exclusive lock (the upsert creates it the first time); SQLite write transactions
   * run one at a time already.
   */
  async lockDocument(doctype: DocType, docid: number, langid: string): Promise<void> {
    const conflict = this.isMysql ? 'ON DUPLICATE KEY UPDATE docid = docid' : 'ON CONFLICT DO NOTHING';
    await this.manager.query(`INSERT INTO release_locks (doctype, docid, langid) VALUES (?, ?, ?) ${conflict}`, [
      doctype,
      docid,
      langid,
    ]);
  }

  /** Whether conditions hold (each an SQL boolean with named parameters), in one statement. */
  async evaluate(conditions: string[], params: Record<string, unknown>): Promise<boolean[]> {
    const select = conditions.map((c, i) => `CASE WHEN ${c} THEN 1 ELSE 0 END AS c${i}`).join(', ');
    const [sql, values] = this.dataSource.driver.escapeQueryWithParameters(`SELECT ${select}`, params);
    const [row] = await this.manager.query<Record<string, unknown>[]>(sql, values);
    return conditions.map((_, i) => Number(row[`c${i}`]) === 1);
  }

  findById(releaseid: number): Promise<ReleaseEntity | null> {
    return this.manager.getRepository(ReleaseEntity).findOneBy({ releaseid });
  }

  async findByIds(releaseids: number[]): Promise<ReleaseEntity[]> {
    if (!releaseids.length) return [];
    return this.manager
      .createQueryBuilder(ReleaseEntity, 'r')
      .where('r.releaseid IN (:...releaseids)', { releaseids: [...new Set(releaseids)] })
      .getMany();
  }

  /** The pending releases of these documents in one language (at most one each). */
  async pendingOf(doctype: DocType, docids: number[], langid: string): Promise<Map<number, ReleaseEntity>> {
    if (!docids.length) return new Map();
    const rows = await this.manager
      .createQueryBuilder(ReleaseEntity, 'r')
      .where('r.doctype = :doctype AND r.langid = :langid AND r.status = :status', {
        doctype,
        langid,
        status: 'pending',
      })
      .andWhere('r.docid IN (:...docids)', { docids })
      .getMany();
    return new Map(rows.map((r) => [r.docid, r]));
  }

  /** The highest version ever released (released or removed) of a document in a language, or null. */
  async highestVersion(doctype: DocType, docid: number, langid: string): Promise<[number, number] | null> {
    const row = await this.manager
      .createQueryBuilder(ReleaseEntity, 'r')
      .where('r.doctype = :doctype AND r.docid = :docid AND r.langid = :langid', { doctype, docid, langid })
      .andWhere('r.status IN (:...statuses)', { statuses: ['released', 'removed'] })
      .orderBy('r.versionMajor', 'DESC')
      .addOrderBy('r.versionMinor', 'DESC')
      .limit(1)
      .getOne();
    return row ? [row.versionMajor, row.versionMinor] : null;
  }

  /** Every write of releases sets a new `releases` version token after it, in its transaction (see liveChecked). */
  async insert(values: Omit<ReleaseEntity, 'releaseid'>): Promise<number> {
    const releaseid = await insertReturningId(this.manager, ReleaseEntity, values);
    await this.versions.bump('releases');
    return releaseid;
  }

  /**
   * A state move: `UPDATE … WHERE releaseid = :id AND status = :from`. False when no row changed (another
   * move won the race).
   */
  async move(releaseid: number, from: ReleaseStatus, changes: Partial<ReleaseEntity>): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(ReleaseEntity)
      .set(changes)
      .where('releaseid = :releaseid AND status = :from', { releaseid, from })
      .execute();
    if (!result.affected) return false;
    await this.versions.bump('releases');
    return true;
  }

  async setApprovalRequest(releaseid: number, approvalRequestid: number): Promise<void> {
    await this.manager.update(ReleaseEntity, { releaseid }, { approvalRequestid });
  }

  async setReviewConfirmed(releaseid: number): Promise<void> {
    await this.manager.update(ReleaseEntity, { releaseid }, { periodicReviewConfirmed: true });
  }

  /**
   * Per document, its newest `released` release in the given language (the live one): the columns a reader
   * needs, not the whole row (a list of 200 guides reads up to a few hundred of them). Hand-written SQL: a
   * hot read, where building the query cost more than running it. Like `this.manager`, SqlReader runs it in
   * the open transaction when there is one.
   */
  async live(
    doctype: DocType,
    docids: number[],
    langidOf: (docid: number) => string,
  ): Promise<Map<number, LiveReleaseRow>> {
    return (await this.liveChecked(doctype, docids, langidOf)).live;
  }

  /**
   * live, with the `releases` version token read in the same statement (null when there is none): the rows
   * are the live releases as of that token, so a reader may keep them under it.
   */
  async liveChecked(
    doctype: DocType,
    docids: number[],
    langidOf: (docid: number) => string,
  ): Promise<{ live: Map<number, LiveReleaseRow>; token: string | null }> {
    const live = new Map<number, LiveReleaseRow>();
    if (!docids.length) return { live, token: null };
    const unique = [...new Set(docids)];
    const sql = `${this.liveHead}${placeholders(unique)})`;
    const rows = await this.sql.rows<LiveReleaseRow & { token: unknown }>(sql, [doctype, ...unique]);
    // The newest wins: a few rows per document, and ORDER BY releaseid would cost SQLite a temporary B-tree.
    for (const { token: _token, ...row } of rows) {
      if (row.releaseid === null || row.langid !== langidOf(row.docid)) continue;
      const seen = live.get(row.docid);
      if (!seen || seen.releaseid < row.releaseid) live.set(row.docid, row);
    }
    return { live, token: tokenColumn(rows[0]?.token) };
  }

  /** A page of releases with their creators' columns: one statement whatever the page size. */
  async page(filter: ReleasePageFilter): Promise<ReleaseRow[]> {
    if (filter.visible?.split) return this.splitPage(filter, filter.visible.split, filter.visible.params);
    const query = this.withUser(this.manager.createQueryBuilder(ReleaseEntity, 'r')).where('r.doctype = :doctype', {
      doctype: filter.doctype,
    });
    if (filter.docid !== undefined) query.andWhere('r.docid = :docid', { docid: filter.docid });
    if (filter.status) query.andWhere('r.status = :status', { status: filter.status });
    if (filter.type) query.andWhere('r.type = :type', { type: filter.type });
    if (filter.visible) query.andWhere(`(${filter.visible.sql})`, filter.visible.params);
    query.orderBy('r.releaseid', filter.order).offset(filter.offset).limit(filter.limit);
    return this.toRows(await query.getRawAndEntities());
  }

  /**
   * page() for a caller who edits a few documents and reads the released releases of many: testing "may edit or
   * may read" on every release in id order walked all releases before the first visible one (a plain user's list
   * with 8,000 pending releases of other people's guides in front: 6 ms on SQLite). Here the page is the union of
   * two index-driven parts, each cut to offset + limit rows: the releases of the documents they edit (looked up by
   * docid) and the released releases they may read (in id order along (doctype, status, releaseid)). Same rows,
   * same order, one statement.
   */
  private async splitPage(
    filter: ReleasePageFilter,
    split: { editableIds: string; readable: string },
    named: Record<string, unknown>,
  ): Promise<ReleaseRow[]> {
    const where = (status: string | null): string =>
      [
        'r.doctype = :page_doctype',
        ...(filter.docid !== undefined ? ['r.docid = :page_docid'] : []),
        ...(status ? [`r.status = :${status}`] : []),
        ...(filter.type ? ['r.type = :page_type'] : []),
      ].join(' AND ');
    const order = filter.order === 'DESC' ? 'DESC' : 'ASC';
    const edited = `SELECT r.releaseid FROM (${split.editableIds}) e JOIN releases r ON r.docid = e.docid WHERE ${where(filter.status ? 'page_status' : null)} ORDER BY r.releaseid ${order} LIMIT :page_reach`;
    const released =
      filter.status && filter.status !== 'released'
        ? null
        : `SELECT r.releaseid FROM releases r WHERE ${where('page_released')} AND ${split.readable} ORDER BY r.releaseid ${order} LIMIT :page_reach`;
    const ids = released
      ? `SELECT a.releaseid FROM (${edited}) a UNION SELECT b.releaseid FROM (${released}) b`
      : `SELECT a.releaseid FROM (${edited}) a`;
    this.pageColumns ??= `${this.sql.columns(ReleaseEntity, 'r')}, ${this.sql.columns(
      UserEntity,
      'u',
      USER_COLUMNS.map(([property]) => property),
    )}`;
    const [sql, parameters] = this.dataSource.driver.escapeQueryWithParameters(
      `SELECT ${this.pageColumns} FROM (SELECT v.releaseid FROM (${ids}) v` +
        ` ORDER BY v.releaseid ${order} LIMIT :page_limit OFFSET :page_offset) page` +
        ` JOIN releases r ON r.releaseid = page.releaseid LEFT JOIN users u ON u.userid = r.userid ORDER BY r.releaseid ${order}`,
      {
        ...named,
        page_doctype: filter.doctype,
        page_docid: filter.docid,
        page_status: filter.status,
        page_released: 'released',
        page_type: filter.type,
        page_reach: filter.offset + filter.limit,
        page_limit: filter.limit,
        page_offset: filter.offset,
      },
    );
    const raw = await this.sql.rows(sql, parameters);
    const hydrate = this.sql.hydrator(ReleaseEntity, 'r_');
    return this.toRows({ entities: raw.map(hydrate), raw });
  }

  /** Releases by id with their creators' columns, in one statement. */
  async rowsByIds(releaseids: number[]): Promise<ReleaseRow[]> {
    if (!releaseids.length) return [];
    const query = this.withUser(this.manager.createQueryBuilder(ReleaseEntity, 'r')).where(
      'r.releaseid IN (:...releaseids)',
      { releaseids: [...new Set(releaseids)] },
    );
    const rows = this.toRows(await query.getRawAndEntities());
    const byId = new Map(rows.map((row) => [row.release.releaseid, row]));
    return releaseids.map((id) => byId.get(id)).filter((row): row is ReleaseRow => row !== undefined);
  }

  private withUser(query: SelectQueryBuilder<ReleaseEntity>): SelectQueryBuilder<ReleaseEntity> {
    query.leftJoin(UserEntity, 'u', 'u.userid = r.userid');
    for (const [property, alias] of USER_COLUMNS) query.addSelect(`u.${property}`, alias);
    return query;
  }

  private toRows(result: { entities: ReleaseEntity[]; raw: Record<string, unknown>[] }): ReleaseRow[] {
    const rawById = new Map(result.raw.map((raw) => [Number(raw.r_releaseid), raw]));
    return result.entities.map((release) => {
      const raw = rawById.get(release.releaseid);
      if (!raw || raw.u_userid === null || raw.u_userid === undefined) return { release, user: null };
      return {
        release,
        user: {
          userid: Number(raw.u_userid),
          username: String(raw.u_username),
          uniqueUsername: typeof raw.u_unique_username === 'string' ? raw.u_unique_username : null,
          joinDate: Number(raw.u_join_date),
          imageid: raw.u_imageid === null ? null : Number(raw.u_imageid),
          reputation: Number(raw.u_reputation),
        },
      };
    });
  }
}
