import { likeContains, placeholders, SqlReader, type SqlRow } from '../../database/sql-reader';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { isUniqueViolation } from '../../database/errors';
import { insertReturningId } from '../../database/insert';
import { updateRows } from '../../database/update';
import { tokenColumn, versionTokenSql } from '../../platform/versions/content-versions';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { GuideCompletionEntity } from './entities/guide-completion.entity';
import { GuideFavoriteEntity } from './entities/guide-favorite.entity';
import { GuideRevisionEntity } from './entities/guide-revision.entity';
import { GuideStepRevisionEntity } from './entities/guide-step-revision.entity';
import { GuideStepEntity } from './entities/guide-step.entity';
import { GuideTeamGrantEntity } from './entities/guide-team-grant.entity';
import { GuideTranslationEntity } from './entities/guide-translation.entity';
import { GuideUserGrantEntity } from './entities/guide-user-grant.entity';
import { GuideEntity } from './entities/guide.entity';
import { UserEntity, USER_LIGHT_COLUMNS } from '../users/entities/user.entity';
import type { KnownUser } from '../users/user-facts.registry';
import { parseStored, type GuideData, type StoredItem } from './guide-data';
import type { DocumentLayout } from './guide-fragments';
import { Database } from '../../database/database';

/** A guide with the revision to show, its grants and (optionally) the caller's marks, from one query. */
export interface GuideRow {
  guide: GuideEntity;
  revision: StoredRevision;
  translation: StoredRevision | null;
  grantedUserIds: number[];
  grantedTeamIds: number[];
  translatedLangids: string[];
  username: string;
  favorited: boolean;
  completed: boolean;
  /** The `releases` version token read with the row (for ReleaseDirectory.live's `checked`). */
  releasesToken: string | null;
  /** The author's light columns and team ids, when the read asked for them. */
  author?: KnownUser;
  /**
   * False when no public comment is on the guide or on any of its steps (the read's `commentsExistSql`);
   * undefined when not asked.
   */
  mayHaveComments?: boolean;
}

/** The guide columns a summary needs (author and visibility for the access check, language for live releases). */
export type ListedGuide = Pick<GuideEntity, 'guideid' | 'authorid' | 'langid' | 'public'>;
const LISTED_GUIDE_PROPERTIES: (keyof ListedGuide)[] = ['guideid', 'authorid', 'langid', 'public'];

/** A row of a list: a GuideRow whose guide carries only what a summary needs. */
export type SummaryRow = Omit<GuideRow, 'guide'> & { guide: ListedGuide };

/**
 * What a read selects of a revision: everything, its rendered document (what reads serve; the saved fields are read
 * only to render it again), only the list summary, or only its facts.
 */
export type RevisionContent = 'full' | 'document' | 'summary' | 'none';

export interface StoredRevision {
  revisionid: number;
  langid: string;
  date: number;
  patrolled: boolean;
  /** Selected with 'full' content. */
  data?: unknown;
  /** Selected with 'full' and 'document' content. */
  document?: unknown;
  layout?: unknown;
  /** Selected with 'summary' content. */
  summary?: unknown;
  renderKey: string;
}

const REVISION_COLUMNS: Record<RevisionContent, [property: string, column: string][]> = {
  none: [
    ['revisionid', 'revisionid'],
    ['langid', 'langid'],
    ['date', 'date'],
    ['patrolled', 'patrolled'],
    ['renderKey', 'render_key'],
  ],
  summary: [['summary', 'summary']],
  document: [
    ['document', 'document'],
    ['layout', 'layout'],
  ],
  full: [
    ['data', 'data'],
    ['document', 'document'],
    ['layout', 'layout'],
  ],
};

/** The revision columns of type json (guide_revisions.data, document, summary). */
const JSON_COLUMNS = new Set(['data', 'document', 'summary']);

export interface GuideListFilter {
  guideids?: number[];
  types?: string[];
  modifiedSince?: number;
  includePrivate: boolean;
  featuredFlags?: readonly string[];
  order: 'ASC' | 'DESC';
  offset: number;
  limit: number;
}

const ids = (value: unknown): number[] =>
  typeof value === 'string' && value !== '' ? value.split(',').map(Number) : typeof value === 'number' ? [value] : [];

const stored = (raw: Record<string, unknown>, prefix: string): StoredRevision | null =>
  raw[`${prefix}_revisionid`] === null || raw[`${prefix}_revisionid`] === undefined
    ? null
    : {
        revisionid: Number(raw[`${prefix}_revisionid`]),
        langid: String(raw[`${prefix}_langid`]),
        date: Number(raw[`${prefix}_date`]),
        patrolled: Boolean(Number(raw[`${prefix}_patrolled`])),
        data: raw[`${prefix}_data`],
        document: raw[`${prefix}_document`],
        layout: raw[`${prefix}_layout`],
        summary: raw[`${prefix}_summary`],
        renderKey: typeof raw[`${prefix}_render_key`] === 'string' ? (raw[`${prefix}_render_key`] as string) : '',
      };

/** The guide's user and team grants, comma-separated (`g` is the guide). */
const GRANT_COLUMNS =
  '(SELECT GROUP_CONCAT(ug.userid) FROM guide_user_grants ug WHERE ug.guideid = g.guideid) AS grant_users, ' +
  '(SELECT GROUP_CONCAT(tg.teamid) FROM guide_team_grants tg WHERE tg.guideid = g.guideid) AS grant_teams';

/** How a hand-written guide-row read is built (see GuidesRepository.rowSelect). */
interface RowSelect {
  /** Column of `guides` naming the revision shown: the patrolled one or the newest. */
  pointer: 'revisionid' | 'head_revisionid';
  content: RevisionContent;
  /** Join the translation in a language (a parameter) and its revision under this pointer. */
  translation?: 'revisionid' | 'head_revisionid';
  /** Add the translated languages and the caller's favorite and completion marks (a parameter each). */
  languages?: boolean;
  viewer?: boolean;
  /** Leave out the grant columns (lists for callers whom grants cannot concern). */
  noGrants?: boolean;
  /** Select only the guide columns of ListedGuide (lists: every further column is a value per row to build). */
  listed?: boolean;
  /** Add the author's light columns and this subquery of its team ids (of `g.authorid`). */
  authorTeamIdsSql?: string;
  /** Add this test of comments (of `g.guideid` and GUIDE_STEPS) as `may_have_comments`. */
  commentsExistSql?: string;
}

/** Every step of the guide `g` (deleted ones and those of older revisions included), for CommentsService.publicExistSql. */
export const GUIDE_STEPS = { from: 'guide_steps s', id: 's.stepid', where: 's.guideid = g.guideid' };

@Injectable()
export class GuidesRepository {
  private readonly sql: SqlReader;
  private readonly hydrateGuide: (row: SqlRow) => GuideEntity;
  private readonly hydrateUser: (row: SqlRow) => UserEntity;
  private readonly guideColumns: string;
  private readonly listedGuideColumns: string;
  private readonly hydrateTranslation: (row: SqlRow) => GuideTranslationEntity;
  private readonly translationColumns: string;
  private readonly rowSelects = new Map<string, { columns: string; joins: string }>();

  private readonly database: Database;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.database = new Database(dataSource);
    this.sql = new SqlReader(dataSource);
    this.hydrateGuide = this.sql.hydrator(GuideEntity, 'g_');
    this.hydrateUser = this.sql.hydrator(UserEntity, 'u_');
    this.guideColumns = this.sql.columns(GuideEntity, 'g');
    this.listedGuideColumns = this.sql.columns(GuideEntity, 'g', LISTED_GUIDE_PROPERTIES);
    this.hydrateTranslation = this.sql.hydrator(GuideTranslationEntity);
    this.translationColumns = dataSource
      .getMetadata(GuideTranslationEntity)
      .columns.map((c) => `t.${c.databaseName}`)
      .join(', ');
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  /**
   * The select list of a revision aliased `alias`: its facts and the given content, each column as
   * `<alias>_<column>`, json columns as text on MySQL/MariaDB too, as SQLite gives them (mysql2 parses json
   * columns itself, which would leave reads nothing to compare their cached pieces with).
   */
  private revisionSelect(alias: string, contents: Exclude<RevisionContent, 'none'>[]): string {
    return [...REVISION_COLUMNS.none, ...contents.flatMap((content) => REVISION_COLUMNS[content])]
      .map(([, column]) => {
        const value =
          this.isMysql && JSON_COLUMNS.has(column) ? `CAST(${alias}.${column} AS CHAR)` : `${alias}.${column}`;
        return `${value} AS ${alias}_${column}`;
      })
      .join(', ');
  }

  /** findRevisions' select list, built once. */
  private allRevisionColumns?: string;

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
    return {
      guide: this.hydrateGuide(row),
      grantedUserIds: ids(row.grant_users),
      grantedTeamIds: ids(row.grant_teams),
    };
  }

  async insertGuide(guide: Omit<GuideEntity, 'guideid'>): Promise<GuideEntity> {
    const guideid = await insertReturningId(this.manager, GuideEntity, guide);
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

  // ---- revisions ----

  insertRevision(revision: Omit<GuideRevisionEntity, 'revisionid'>): Promise<number> {
    return insertReturningId(
      this.manager,
      GuideRevisionEntity,
      revision as QueryDeepPartialEntity<GuideRevisionEntity>,
    );
  }

  /**
   * Revisions by id, in one statement, with everything a read shows and stored text as stored (as the guide
   * rows carry it: the documents' JSON unparsed, so that reads can keep their cut pieces by revision).
   */
  async findRevisions(revisionids: number[]): Promise<Map<number, StoredRevision>> {
    if (!revisionids.length) return new Map();
    const ids = [...new Set(revisionids)];
    this.allRevisionColumns ??= this.revisionSelect('r', ['summary', 'full']);
    const rows = await this.sql.rows(
      `SELECT ${this.allRevisionColumns} FROM guide_revisions r WHERE r.revisionid IN (${placeholders(ids)})`,
      ids,
    );
    return new Map(rows.map((raw) => [Number(raw.r_revisionid), stored(raw, 'r') as StoredRevision]));
  }

  findRevision(revisionid: number): Promise<GuideRevisionEntity | null> {
    return this.manager.getRepository(GuideRevisionEntity).findOneBy({ revisionid });
  }

  async saveDocument(
    revisionid: number,
    rendered: { document: unknown; summary: unknown; layout: string | null },
    renderKey: string,
  ): Promise<void> {
    await this.manager.getRepository(GuideRevisionEntity).update(
      { revisionid },
      {
        document: rendered.document as object,
        summary: (rendered.summary ?? null) as object,
        layout: rendered.layout,
        renderKey,
      },
    );
  }

  async saveLayout(revisionid: number, layout: DocumentLayout): Promise<void> {
    await this.manager.getRepository(GuideRevisionEntity).update({ revisionid }, { layout: JSON.stringify(layout) });
  }

  // ---- translations ----

  /** Every translation row of a guide, by langid. */
  async translationsOf(guideid: number): Promise<GuideTranslationEntity[]> {
    const rows = await this.sql.rows(
      `SELECT ${this.translationColumns} FROM guide_translations t WHERE t.guideid = ? ORDER BY t.langid ASC`,
      [guideid],
    );
    return rows.map(this.hydrateTranslation);
  }

  findTranslation(guideid: number, langid: string): Promise<GuideTranslationEntity | null> {
    return this.manager.getRepository(GuideTranslationEntity).findOneBy({ guideid, langid });
  }

  async insertTranslation(row: GuideTranslationEntity): Promise<void> {
    await this.manager.getRepository(GuideTranslationEntity).insert(row);
  }

  async advanceTranslation(
    guideid: number,
    langid: string,
    expectedHead: number,
    changes: Partial<GuideTranslationEntity>,
  ): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(GuideTranslationEntity)
      .set(changes)
      .where('guideid = :guideid AND langid = :langid AND head_revisionid = :expectedHead', {
        guideid,
        langid,
        expectedHead,
      })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  // ---- steps ----

  insertStep(guideid: number): Promise<number> {
    return insertReturningId(this.manager, GuideStepEntity, { guideid, revisionid: 0, deleted: false });
  }

  /** The guide's steps that are not deleted. */
  async liveStepIds(guideid: number): Promise<number[]> {
    const rows = await this.manager
      .getRepository(GuideStepEntity)
      .find({ select: { stepid: true }, where: { guideid, deleted: false }, order: { stepid: 'ASC' } });
    return rows.map((r) => r.stepid);
  }

  findStep(stepid: number): Promise<GuideStepEntity | null> {
    return this.manager.getRepository(GuideStepEntity).findOneBy({ stepid });
  }

  findSteps(stepids: number[]): Promise<GuideStepEntity[]> {
    if (!stepids.length) return Promise.resolve([]);
    return this.manager.getRepository(GuideStepEntity).findBy({ stepid: In(stepids) });
  }

  /** Conditional update of a step's head revision (0 rows: stale). */
  async advanceStep(stepid: number, expected: number, changes: Partial<GuideStepEntity>): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(GuideStepEntity)
      .set(changes)
      .where('stepid = :stepid AND revisionid = :expected', { stepid, expected })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  insertStepRevision(row: Omit<GuideStepRevisionEntity, 'revisionid'>): Promise<number> {
    return insertReturningId(
      this.manager,
      GuideStepRevisionEntity,
      row as QueryDeepPartialEntity<GuideStepRevisionEntity>,
    );
  }

  findStepRevisions(revisionids: number[]): Promise<GuideStepRevisionEntity[]> {
    if (!revisionids.length) return Promise.resolve([]);
    return this.manager.getRepository(GuideStepRevisionEntity).findBy({ revisionid: In(revisionids) });
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
    const revision = (alias: string) => this.revisionSelect(alias, shape.content === 'none' ? [] : [shape.content]);
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
      revision: stored(raw, 'r') as StoredRevision,
      translation: stored(raw, 'tr'),
      grantedUserIds: ids(raw.grant_users),
      grantedTeamIds: ids(raw.grant_teams),
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

  /** The parts and tools of revisions (from their saved state), by revisionid: one statement. */
  async revisionItems(revisionids: number[]): Promise<Map<number, { parts: StoredItem[]; tools: StoredItem[] }>> {
    if (!revisionids.length) return new Map();
    const ids = [...new Set(revisionids)];
    const rows = await this.sql.rows(
      `SELECT revisionid, data FROM guide_revisions WHERE revisionid IN (${placeholders(ids)})`,
      ids,
    );
    return new Map(
      rows.map((raw) => {
        const data = parseStored<Partial<GuideData> | null>(raw.data) ?? {};
        return [Number(raw.revisionid), { parts: data.parts ?? [], tools: data.tools ?? [] }];
      }),
    );
  }

  /** guideid -> modified_date, for prereq_modified_date. */
  async modifiedDates(guideids: number[]): Promise<Map<number, number>> {
    if (!guideids.length) return new Map();
    const rows = await this.manager
      .getRepository(GuideEntity)
      .find({ select: { guideid: true, modifiedDate: true }, where: { guideid: In(guideids) } });
    return new Map(rows.map((row) => [row.guideid, row.modifiedDate]));
  }

  /** Guide ids of steps. */
  async guideIdsOfSteps(stepids: number[]): Promise<Map<number, number>> {
    const steps = await this.findSteps(stepids);
    return new Map(steps.map((step) => [step.stepid, step.guideid]));
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

  // ---- grants ----

  async grantedUserIds(guideid: number): Promise<number[]> {
    const rows = await this.manager
      .getRepository(GuideUserGrantEntity)
      .find({ where: { guideid }, order: { userid: 'ASC' } });
    return rows.map((row) => row.userid);
  }

  async grantedTeamIds(guideid: number): Promise<number[]> {
    const rows = await this.manager
      .getRepository(GuideTeamGrantEntity)
      .find({ where: { guideid }, order: { teamid: 'ASC' } });
    return rows.map((row) => row.teamid);
  }

  /** True when the grant is new. */
  async grant(kind: 'user' | 'team', guideid: number, id: number, date: number): Promise<boolean> {
    const entity = kind === 'user' ? GuideUserGrantEntity : GuideTeamGrantEntity;
    const key = kind === 'user' ? 'userid' : 'teamid';
    if (await this.manager.getRepository(entity).existsBy({ guideid, [key]: id })) return false;
    await this.manager
      .createQueryBuilder()
      .insert()
      .into(entity)
      .values({ guideid, [key]: id, date })
      .orIgnore()
      .execute();
    return true;
  }

  /** True when there was a grant to remove. */
  async revoke(kind: 'user' | 'team', guideid: number, id: number): Promise<boolean> {
    const result =
      kind === 'user'
        ? await this.manager.getRepository(GuideUserGrantEntity).delete({ guideid, userid: id })
        : await this.manager.getRepository(GuideTeamGrantEntity).delete({ guideid, teamid: id });
    return Boolean(result.affected);
  }

  // ---- completions and favorites ----

  /** Inserts the mark unless it exists; true when it was new. */
  async mark(
    kind: 'completion' | 'favorite',
    row: { guideid: number; userid: number; langid: string; date: number },
  ): Promise<boolean> {
    const repo =
      kind === 'completion'
        ? this.manager.getRepository(GuideCompletionEntity)
        : this.manager.getRepository(GuideFavoriteEntity);
    if (await repo.existsBy({ guideid: row.guideid, userid: row.userid })) return false;
    try {
      await repo.insert(row);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async unmark(kind: 'completion' | 'favorite', guideid: number, userid: number): Promise<void> {
    const entity = kind === 'completion' ? GuideCompletionEntity : GuideFavoriteEntity;
    await this.manager.getRepository(entity).delete({ guideid, userid });
  }

  /** Guide ids a user marked, completions by guideid ascending, favorites newest first. */
  async markedGuideIds(
    kind: 'completion' | 'favorite',
    userid: number,
    offset: number,
    limit: number,
  ): Promise<number[]> {
    const rows =
      kind === 'completion'
        ? await this.manager.getRepository(GuideCompletionEntity).find({
            select: { guideid: true },
            where: { userid },
            order: { guideid: 'ASC' },
            skip: offset,
            take: limit,
          })
        : await this.manager.getRepository(GuideFavoriteEntity).find({
            select: { guideid: true },
            where: { userid },
            order: { date: 'DESC', guideid: 'DESC' },
            skip: offset,
            take: limit,
          });
    return rows.map((row) => row.guideid);
  }

  /** Guides a user authored or saved a revision of, by guideid. */
  async contributedGuideIds(userid: number, order: 'ASC' | 'DESC', offset: number, limit: number): Promise<number[]> {
    const rows = await this.manager
      .createQueryBuilder(GuideEntity, 'g')
      .select('g.guideid', 'guideid')
      .where('g.authorid = :userid', { userid })
      .orWhere('g.guideid IN (SELECT gr.guideid FROM guide_revisions gr WHERE gr.userid = :userid)')
      .orderBy('g.guideid', order)
      .offset(offset)
      .limit(limit)
      .getRawMany<{ guideid: number }>();
    return rows.map((row) => Number(row.guideid));
  }
}
