import { likeContains, placeholders, SqlReader, type SqlRow } from '../../database/sql-reader';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { changesDocument } from '../../database/answer-sources';
import { insertReturningId } from '../../database/insert';
import { updateRows } from '../../database/update';
import { tokenColumn, versionTokenSql } from '../../platform/versions/content-versions';
import { GuideEntity } from './entities/guide.entity';
import { UserEntity, USER_LIGHT_COLUMNS } from '../users/entities/user.entity';
import { Database } from '../../database/database';
import {
  commaSeparatedIds,
  GRANT_COLUMNS,
  LISTED_GUIDE_PROPERTIES,
  revisionColumns,
  storedRevision,
  type GuideListFilter,
  type GuideRow,
  type RevisionContent,
  type RowSelect,
  type StoredRevision,
  type SummaryRow,
} from './guide-rows';

/** Guides, and the rows guide reads give (detail, lists, prerequisites, the search index): one statement each. */
@Injectable()
export class GuidesRepository {
  private readonly sql: SqlReader;
  private readonly hydrateGuide: (row: SqlRow) => GuideEntity;
  private readonly hydrateUser: (row: SqlRow) => UserEntity;
  private readonly guideColumns: string;
  private readonly listedGuideColumns: string;
  private readonly rowSelects = new Map<string, { columns: string; joins: string }>();

  private readonly database: Database;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.database = new Database(dataSource);
    this.sql = new SqlReader(dataSource);
    this.hydrateGuide = this.sql.hydrator(GuideEntity, 'g_');
    this.hydrateUser = this.sql.hydrator(UserEntity, 'u_');
    this.guideColumns = this.sql.columns(GuideEntity, 'g');
    this.listedGuideColumns = this.sql.columns(GuideEntity, 'g', LISTED_GUIDE_PROPERTIES);
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  private get isMysql(): boolean {
    return this.dataSource.options.type !== 'better-sqlite3';
  }

  // ---- guides ----

  findGuide(guideid: number): Promise<GuideEntity | null> {
    return this.manager.createQueryBuilder(GuideEntity, 'g').where('g.guideid = :guideid', { guideid }).getOne();
  }

  /** Guides (not deleted) whose title contains `term`, case-insensitively; newest first. */
  async searchTitles(term: string, limit: number): Promise<number[]> {
    const rows = await this.manager
      .createQueryBuilder(GuideEntity, 'g')
      .select('g.guideid', 'guideid')
      .where('g.deleted = :deleted', { deleted: false })
      .andWhere("LOWER(g.title) LIKE :term ESCAPE '!'", { term: likeContains(term.toLowerCase()) })
      .orderBy('g.guideid', 'DESC')
      .limit(limit)
      .getRawMany<{ guideid: number }>();
    return rows.map((r) => Number(r.guideid));
  }

  /** The guide row for a write, with its grants, in one statement (locked for the transaction on MySQL). */
  async findGuideForWrite(
    guideid: number,
  ): Promise<{ guide: GuideEntity; grantedUserIds: number[]; grantedTeamIds: number[] } | null> {
    const [row] = await this.sql.rows(
      `SELECT ${this.guideColumns}, ${GRANT_COLUMNS} FROM guides g WHERE g.guideid = ?${this.isMysql ? ' FOR UPDATE' : ''}`,
      [guideid],
    );
    if (!row) return null;
    changesDocument('answers-guide', guideid);
    return {
      guide: this.hydrateGuide(row),
      grantedUserIds: commaSeparatedIds(row.grant_users),
      grantedTeamIds: commaSeparatedIds(row.grant_teams),
    };
  }

  async insertGuide(guide: Omit<GuideEntity, 'guideid'>): Promise<GuideEntity> {
    const guideid = await insertReturningId(this.manager, GuideEntity, guide);
    changesDocument('answers-guide', guideid);
    return Object.assign(new GuideEntity(), guide, { guideid });
  }

  /** The optimistic-concurrency check: changes the row only if its head is still `expectedHead`. */
  async advanceGuide(
    guideid: number,
    expectedHead: number,
    changes: Partial<Omit<GuideEntity, 'guideid'>>,
  ): Promise<boolean> {
    return (await updateRows(this.manager, GuideEntity, changes, { guideid, headRevisionid: expectedHead })) > 0;
  }

  async updateGuide(guideid: number, changes: Partial<Omit<GuideEntity, 'guideid'>>): Promise<void> {
    await this.manager.getRepository(GuideEntity).update({ guideid }, changes);
  }

  // ---- reads ----

  /**
   * `SELECT … FROM guides g …` up to its WHERE, for guide detail and summaries: the guide, its author's name,
   * the revision shown, grants, and optionally a translation, languages and the caller's marks. Hand-written
   * and built once per shape: these reads run on every guide detail and write, where building them with the
   * query builder cost more than running them. Parameters, in order: viewer, viewer (with `viewer`), langid
   * (with `translation`).
   */
  private rowSelect(shape: RowSelect): string {
    const { columns, joins } = this.rowParts(shape);
    return `SELECT ${columns} FROM guides g ${joins}`;
  }

  /** The select list and the joins of rowSelect, built once per shape. */
  private rowParts(shape: RowSelect): { columns: string; joins: string } {
    const key = `${shape.pointer}|${shape.content}|${shape.translation ?? ''}|${!!shape.languages}|${!!shape.viewer}|${!!shape.noGrants}|${!!shape.listed}|${shape.authorTeamIdsSql ?? ''}|${shape.commentsExistSql ?? ''}`;
    let parts = this.rowSelects.get(key);
    if (parts) return parts;
    const revision = (alias: string) =>
      revisionColumns(alias, shape.content === 'none' ? [] : [shape.content], this.isMysql);
    const select = [
      shape.listed ? this.listedGuideColumns : this.guideColumns,
      'u.username AS username',
      revision('r'),
      `${versionTokenSql('releases')} AS releases_token`,
    ];
    if (!shape.noGrants) select.push(GRANT_COLUMNS);
    if (shape.languages)
      select.push(
        '(SELECT GROUP_CONCAT(t2.langid) FROM guide_translations t2 WHERE t2.guideid = g.guideid AND t2.revisionid IS NOT NULL) AS langs',
      );
    if (shape.translation) select.push(revision('tr'));
    if (shape.authorTeamIdsSql)
      select.push(
        this.sql.columns(UserEntity, 'u', USER_LIGHT_COLUMNS),
        `${shape.authorTeamIdsSql} AS author_team_ids`,
      );
    if (shape.commentsExistSql) select.push(`${shape.commentsExistSql} AS may_have_comments`);
    if (shape.viewer)
      select.push(
        '(SELECT COUNT(*) FROM guide_favorites fv WHERE fv.guideid = g.guideid AND fv.userid = ?) AS favorited',
        '(SELECT COUNT(*) FROM guide_completions cp WHERE cp.guideid = g.guideid AND cp.userid = ?) AS completed',
      );
    const joins = [
      'LEFT JOIN users u ON u.userid = g.authorid',
      `INNER JOIN guide_revisions r ON r.revisionid = g.${shape.pointer}`,
    ];
    if (shape.translation)
      joins.push(
        'LEFT JOIN guide_translations t ON t.guideid = g.guideid AND t.langid = ?',
        `LEFT JOIN guide_revisions tr ON tr.revisionid = t.${shape.translation}`,
      );
    parts = { columns: select.join(', '), joins: joins.join(' ') };
    this.rowSelects.set(key, parts);
    return parts;
  }

  private async guideRows(sql: string, parameters: unknown[]): Promise<GuideRow[]> {
    const rows = await this.sql.rows(sql, parameters);
    return rows.map((raw) => ({
      guide: this.hydrateGuide(raw),
      revision: storedRevision(raw, 'r') as StoredRevision,
      translation: storedRevision(raw, 'tr'),
      grantedUserIds: commaSeparatedIds(raw.grant_users),
      grantedTeamIds: commaSeparatedIds(raw.grant_teams),
      translatedLangids: typeof raw.langs === 'string' && raw.langs ? raw.langs.split(',') : [],
      username: typeof raw.username === 'string' ? raw.username : '',
      favorited: Number(raw.favorited ?? 0) > 0,
      completed: Number(raw.completed ?? 0) > 0,
      releasesToken: tokenColumn(raw.releases_token),
      ...(raw.u_userid === undefined || raw.u_userid === null
        ? {}
        : { author: { user: this.hydrateUser(raw), teamIds: raw.author_team_ids } }),
      ...(raw.may_have_comments === undefined ? {} : { mayHaveComments: Number(raw.may_have_comments) > 0 }),
    }));
  }

  /**
   * Everything guide detail needs about the guide itself, in one statement: the guide, the revision
   * shown (newest patrolled, or newest with `unpatrolled`), the translation's revision when `langid`
   * is not the source language, grants, languages, the author's name and the caller's marks.
   */
  async detailRow(
    guideid: number,
    options: {
      unpatrolled: boolean;
      langid?: string;
      userid?: number;
      authorTeamIdsSql?: string;
      commentsExistSql?: string;
    },
  ): Promise<GuideRow | undefined> {
    const pointer = options.unpatrolled ? 'head_revisionid' : 'revisionid';
    const viewer = options.userid !== undefined;
    const select = this.rowSelect({
      pointer,
      content: 'document',
      translation: options.langid ? pointer : undefined,
      languages: true,
      viewer,
      authorTeamIdsSql: options.authorTeamIdsSql,
      commentsExistSql: options.commentsExistSql,
    });
    const parameters: unknown[] = viewer ? [options.userid, options.userid] : [];
    if (options.langid) parameters.push(options.langid);
    parameters.push(guideid);
    const [row] = await this.guideRows(`${select} WHERE g.guideid = ?`, parameters);
    return row;
  }

  /** Several guides with their patrolled source revision, grants and author name (prerequisites, lists). */
  async summaryRows(guideids: number[], content: RevisionContent): Promise<GuideRow[]> {
    if (!guideids.length) return [];
    const select = this.rowSelect({ pointer: 'revisionid', content });
    return this.guideRows(`${select} WHERE g.guideid IN (${placeholders(guideids)})`, guideids);
  }

  /** What the search index is built from: summaryRows' 'full' rows with the languages translated (`langs`). */
  async indexRows(guideids: number[]): Promise<GuideRow[]> {
    if (!guideids.length) return [];
    const select = this.rowSelect({ pointer: 'revisionid', content: 'full', languages: true, noGrants: true });
    return this.guideRows(`${select} WHERE g.guideid IN (${placeholders(guideids)})`, guideids);
  }

  /**
   * A page of guides (public, non-deleted unless includePrivate) with what their summaries need. The page
   * of ids is chosen from the guides table alone (a derived table) before revisions and authors are joined,
   * so a deep offset skips index entries rather than joined rows. Hand-written (rowSelect): with the query
   * builder, building and hydrating took about as long as SQLite took to run it. `grants`: add the grant
   * columns, which only matter to a signed-in caller below Moderator (whether they may edit a guide).
   */
  async listRows(filter: GuideListFilter, options: { grants: boolean } = { grants: true }): Promise<SummaryRow[]> {
    const shape: RowSelect = { pointer: 'revisionid', content: 'summary', noGrants: !options.grants, listed: true };
    const order = filter.order === 'DESC' ? 'DESC' : 'ASC';
    if (filter.guideids) {
      const where = this.listedWhere('g', filter);
      return this.guideRows(
        `${this.rowSelect(shape)} WHERE ${where.sql} ORDER BY g.guideid ${order}`,
        where.parameters,
      );
    }
    // The page first, joined in its order (CROSS JOIN fixes SQLite's join order; MySQL reads it as JOIN): SQLite
    // then streams it as a co-routine instead of materializing it and sorting the joined rows again.
    const where = this.listedWhere('p', filter);
    const page = `SELECT p.guideid FROM guides p WHERE ${where.sql} ORDER BY p.guideid ${order} LIMIT ? OFFSET ?`;
    const { columns, joins } = this.rowParts(shape);
    return this.guideRows(
      `SELECT ${columns} FROM (${page}) page CROSS JOIN guides g ON g.guideid = page.guideid ${joins} ORDER BY page.guideid ${order}`,
      [...where.parameters, filter.limit, filter.offset],
    );
  }

  /** The WHERE of a list over `guides` aliased `alias`, with its parameters in order. */
  private listedWhere(alias: string, filter: GuideListFilter): { sql: string; parameters: unknown[] } {
    const conditions = [`${alias}.deleted = 0`];
    const parameters: unknown[] = [];
    if (!filter.includePrivate) conditions.push(`${alias}.public = 1`);
    if (filter.guideids) {
      const guideids = filter.guideids.length ? filter.guideids : [0];
      conditions.push(`${alias}.guideid IN (${placeholders(guideids)})`);
      return { sql: conditions.join(' AND '), parameters: guideids };
    }
    if (filter.types) {
      const types = filter.types.length ? filter.types : [''];
      conditions.push(`${alias}.type IN (${placeholders(types)})`);
      parameters.push(...types);
    }
    if (filter.modifiedSince !== undefined) {
      conditions.push(`${alias}.modified_date >= ?`);
      parameters.push(filter.modifiedSince);
    }
    if (filter.featuredFlags?.length) {
      const wrapped = this.isMysql ? `CONCAT(',', ${alias}.flags, ',')` : `(',' || ${alias}.flags || ',')`;
      conditions.push(`(${filter.featuredFlags.map(() => `${wrapped} LIKE ?`).join(' OR ')})`);
      parameters.push(...filter.featuredFlags.map((flag) => `%,${flag},%`));
    }
    return { sql: conditions.join(' AND '), parameters };
  }

  /** guideid -> modified_date, for prereq_modified_date. */
  async modifiedDates(guideids: number[]): Promise<Map<number, number>> {
    if (!guideids.length) return new Map();
    const rows = await this.manager
      .getRepository(GuideEntity)
      .find({ select: { guideid: true, modifiedDate: true }, where: { guideid: In(guideids) } });
    return new Map(rows.map((row) => [row.guideid, row.modifiedDate]));
  }

  /** Public, non-deleted guides among ids (wiki-text references). */
  async publicGuides(guideids: number[]): Promise<GuideEntity[]> {
    if (!guideids.length) return [];
    const rows = await this.sql.rows(
      `SELECT ${this.guideColumns} FROM guides g WHERE g.guideid IN (${placeholders(guideids)}) AND g.public = ? AND g.deleted = ?`,
      [...guideids, 1, 0],
    );
    return rows.map(this.hydrateGuide);
  }
}
