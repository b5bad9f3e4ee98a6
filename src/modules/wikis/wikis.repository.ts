import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { likeContains, placeholders, SqlReader, type SqlRow } from '../../database/sql-reader';
import { tokenColumn, versionTokenSql } from '../../platform/versions/content-versions';
import { WikiLanguageEntity } from './entities/wiki-language.entity';
import { WikiRevisionEntity } from './entities/wiki-revision.entity';
import { WikiEntity } from './entities/wiki.entity';
import { titleHash, titleKey, wikiKey } from './wiki-namespaces';
import type { VersionSource } from './wiki-version';
import { Database } from '../../database/database';

/** What list items, children, ancestors and links show: one row per wiki, the chosen language's patrolled text. */
export interface LightWikiRow {
  wikiid: number;
  namespace: string;
  title: string;
  parentWikiid: number | null;
  modifiedDate: number;
  /** Language of the text shown: the requested translation when one is patrolled and live, else the source. */
  langid: string;
  displayTitle: string;
  summary: string;
  imageid: number | null;
  flags: string;
}

/** Light rows of a category's surroundings. */
export interface CategoryFamily {
  /** Closest parent first. */
  ancestors: LightWikiRow[];
  /** By title. */
  children: LightWikiRow[];
}

export interface ListFilter {
  namespace: string;
  offset: number;
  limit: number;
  modifiedSince?: number;
}

/**
 * A wiki with every language version (and whether its patrolled revision is live), plus the revision the
 * read points at (`revisionid`: patrolled, `head_revisionid`: newest) in the source language and in the
 * language bound to the first parameter. No ORDER BY: MariaDB would sort through an on-disk temporary
 * table because of the TEXT columns; the few languages are sorted in JS.
 */
function versionSql(where: string, pointer: 'revisionid' | 'head_revisionid'): string {
  return `SELECT w.wikiid, w.namespace, w.title, w.title_hash, w.langid, w.parent_wikiid, w.authorid, w.deleted,
      w.created_date, w.modified_date,
      l.wikiid AS l_wikiid, l.langid AS l_langid, l.revisionid AS l_revisionid, l.head_revisionid AS l_head_revisionid,
      l.source_revisionid AS l_source_revisionid, p.deleted AS p_deleted,
      r.revisionid AS r_revisionid, r.wikiid AS r_wikiid, r.langid AS r_langid, r.userid AS r_userid, r.date AS r_date,
      r.patrolled AS r_patrolled, r.deleted AS r_deleted, r.display_title AS r_display_title, r.summary AS r_summary,
      r.contents AS r_contents, r.imageid AS r_imageid, r.flags AS r_flags, r.data AS r_data,
      ${versionTokenSql('releases')} AS releases_token, ${versionTokenSql('category-tree')} AS tree_token
    FROM wikis w
    LEFT JOIN wiki_languages l ON l.wikiid = w.wikiid
    LEFT JOIN wiki_revisions p ON p.revisionid = l.revisionid
    LEFT JOIN wiki_revisions r ON r.revisionid = l.${pointer} AND (l.langid = w.langid OR l.langid = ?)
    WHERE ${where}`;
}

const BY_TITLE = 'w.namespace = ? AND w.title_hash = ?';
const BY_ID = 'w.wikiid = ?';
const VERSION_SQL = {
  title: { patrolled: versionSql(BY_TITLE, 'revisionid'), newest: versionSql(BY_TITLE, 'head_revisionid') },
  id: { patrolled: versionSql(BY_ID, 'revisionid'), newest: versionSql(BY_ID, 'head_revisionid') },
};

/**
 * Light rows: live wikis joined to their source-language patrolled revision and to a patrolled, live
 * translation in the language bound to the one parameter (none matches '').
 */
const LIGHT_COLUMNS = `w.wikiid, w.namespace, w.title, w.parent_wikiid, w.modified_date, w.langid,
  rm.display_title, rm.summary, rm.imageid, rm.flags,
  rt.revisionid AS t_revisionid, rt.display_title AS t_display_title, rt.summary AS t_summary`;
const LIGHT_JOINS = `JOIN wiki_languages lm ON lm.wikiid = w.wikiid AND lm.langid = w.langid
  JOIN wiki_revisions rm ON rm.revisionid = lm.revisionid
  LEFT JOIN wiki_languages lt ON lt.wikiid = w.wikiid AND lt.langid = ? AND lt.langid <> w.langid
  LEFT JOIN wiki_revisions rt ON rt.revisionid = lt.revisionid AND rt.deleted = 0`;
const LIGHT_FROM = `FROM wikis w ${LIGHT_JOINS} WHERE w.deleted = 0`;

/**
 * Ancestors (depth 1 = parent; walked through deleted wikis too, depth-capped against corrupt data) and
 * children (depth 0) of one category, as light rows: children by title first, then ancestors upwards.
 * CROSS JOIN keeps SQLite from scanning every wiki to probe the few rows of `family` (MySQL reads it as JOIN).
 */
const FAMILY_SQL = `WITH RECURSIVE anc (wikiid, parent_wikiid, depth) AS (
    SELECT wikiid, parent_wikiid, 0 FROM wikis WHERE wikiid = ?
    UNION ALL
    SELECT w.wikiid, w.parent_wikiid, anc.depth + 1 FROM wikis w JOIN anc ON w.wikiid = anc.parent_wikiid
    WHERE anc.depth < 1000
  ),
  family (wikiid, depth) AS (
    SELECT wikiid, depth FROM anc WHERE depth > 0
    UNION ALL
    SELECT wikiid, 0 FROM wikis WHERE parent_wikiid = ?
  )
  SELECT ${LIGHT_COLUMNS}, family.depth AS depth, ${versionTokenSql('category-tree')} AS tree_token
  FROM family CROSS JOIN wikis w ON w.wikiid = family.wikiid ${LIGHT_JOINS}
  WHERE w.deleted = 0
  ORDER BY family.depth, w.title, w.wikiid`;

const TITLE_ORDER = 'ORDER BY w.title, w.wikiid';
const MODIFIED_ORDER = 'ORDER BY w.modified_date DESC, w.wikiid DESC';

/** Wiki identity, language heads and revisions. Methods take an optional manager for transactions. */
@Injectable()
export class WikisRepository {
  private readonly sql: SqlReader;
  private readonly toWiki: (row: SqlRow) => WikiEntity;
  private readonly toLanguage: (row: SqlRow) => WikiLanguageEntity;
  private readonly toRevision: (row: SqlRow) => WikiRevisionEntity;
  /** `SELECT <every column> FROM wikis w WHERE … AND w.title_hash IN (`: the fixed head of findByTitles. */
  private readonly byTitlesHead: string;

  private readonly database: Database;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.database = new Database(dataSource);
    this.sql = new SqlReader(dataSource);
    this.toWiki = this.sql.hydrator(WikiEntity);
    this.toLanguage = this.sql.hydrator(WikiLanguageEntity, 'l_');
    this.toRevision = this.sql.hydrator(WikiRevisionEntity, 'r_');
    const columns = dataSource
      .getMetadata(WikiEntity)
      .columns.filter((c) => c.isSelect)
      .map((c) => `w.${c.databaseName}`)
      .join(', ');
    this.byTitlesHead = `SELECT ${columns} FROM wikis w WHERE w.namespace = ? AND w.title_hash IN (`;
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  private get isSqlite(): boolean {
    return this.sql.isSqlite;
  }

  /**
   * Everything `pickVersion` needs, in one query: the wiki (by exact title or id, deleted ones
   * included), its languages and the revisions the options point at. Undefined when there is no such wiki.
   */
  async versionSource(
    key: { namespace: string; title: string } | { wikiid: number },
    options: { langid?: string; unpatrolled: boolean },
  ): Promise<VersionSource | undefined> {
    const byId = 'wikiid' in key;
    const sql = VERSION_SQL[byId ? 'id' : 'title'][options.unpatrolled ? 'newest' : 'patrolled'];
    const where = byId ? [key.wikiid] : [key.namespace, titleHash(key.title)];
    const rows = await this.sql.rows(sql, [options.langid ?? '', ...where]);
    if (!rows.length) return undefined;
    const source: VersionSource = {
      wiki: this.toWiki(rows[0]),
      languages: [],
      revisions: new Map(),
      liveLangids: new Set(),
      releasesToken: tokenColumn(rows[0].releases_token),
      treeToken: tokenColumn(rows[0].tree_token),
    };
    for (const row of rows) {
      if (row.l_langid === null) continue;
      const language = this.toLanguage(row);
      source.languages.push(language);
      if (row.p_deleted !== null && !Number(row.p_deleted)) source.liveLangids.add(language.langid);
      if (row.r_revisionid !== null) {
        const revision = this.toRevision(row);
        source.revisions.set(revision.revisionid, revision);
      }
    }
    // Language ids are two lower-case letters: code-unit order is the collation's order too.
    source.languages.sort((a, b) => (a.langid < b.langid ? -1 : a.langid > b.langid ? 1 : 0));
    return source;
  }

  findWiki(namespace: string, title: string): Promise<WikiEntity | null> {
    return this.manager.getRepository(WikiEntity).findOneBy({ namespace, titleHash: titleHash(title) });
  }

  findWikiById(wikiid: number): Promise<WikiEntity | null> {
    return this.manager.getRepository(WikiEntity).findOneBy({ wikiid });
  }

  /**
   * The wiki read with a row lock on MySQL, first in every edit of its revisions: concurrent edits then queue on
   * this row instead of each inserting a revision (a shared lock on its language row) and then deadlocking on
   * moving that row's head. SQLite transactions are already serialized.
   */
  lockedWiki(wikiid: number): Promise<WikiEntity | null> {
    const qb = this.manager.getRepository(WikiEntity).createQueryBuilder('w').where({ wikiid });
    if (!this.isSqlite) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  findWikisByIds(wikiids: number[]): Promise<WikiEntity[]> {
    if (!wikiids.length) return Promise.resolve([]);
    return this.manager.getRepository(WikiEntity).findBy({ wikiid: In(wikiids) });
  }

  /** Each wiki's current patrolled revision in its source language. */
  async sourceRevisionIds(wikiids: number[]): Promise<Map<number, number>> {
    if (!wikiids.length) return new Map();
    const rows = await this.manager
      .createQueryBuilder(WikiLanguageEntity, 'l')
      .innerJoin(WikiEntity, 'w', 'w.wikiid = l.wikiid AND w.langid = l.langid')
      .select(['l.wikiid AS wikiid', 'l.revisionid AS revisionid'])
      .where('l.wikiid IN (:...wikiids)', { wikiids })
      .getRawMany<{ wikiid: number; revisionid: number | null }>();
    return new Map(rows.filter((r) => r.revisionid !== null).map((r) => [Number(r.wikiid), Number(r.revisionid)]));
  }

  /** Wikis (not deleted) whose title contains `term`, case-insensitively; newest first. */
  async searchTitles(term: string, limit: number): Promise<number[]> {
    const rows = await this.manager
      .createQueryBuilder(WikiEntity, 'w')
      .select('w.wikiid', 'wikiid')
      .where('w.deleted = :deleted', { deleted: false })
      .andWhere("LOWER(w.title) LIKE :term ESCAPE '!'", { term: likeContains(term.toLowerCase()) })
      .orderBy('w.wikiid', 'DESC')
      .limit(limit)
      .getRawMany<{ wikiid: number }>();
    return rows.map((r) => Number(r.wikiid));
  }

  /** Row lock on MySQL (SQLite transactions are already serialized): moves, deletes and creates under a parent. */
  async lockWikis(wikiids: number[]): Promise<void> {
    if (this.isSqlite || !wikiids.length) return;
    await this.manager
      .getRepository(WikiEntity)
      .createQueryBuilder('w')
      .select('w.wikiid')
      .where({ wikiid: In([...wikiids].sort((a, b) => a - b)) })
      .orderBy('w.wikiid')
      .setLock('pessimistic_write')
      .getMany();
  }

  /** The parent of one category, read with a row lock on MySQL (cycle checks walk up the tree with it). */
  async lockedParentOf(wikiid: number): Promise<number | null> {
    const qb = this.manager
      .getRepository(WikiEntity)
      .createQueryBuilder('w')
      .select(['w.wikiid', 'w.parentWikiid'])
      .where({ wikiid });
    if (!this.isSqlite) qb.setLock('pessimistic_write');
    return (await qb.getOne())?.parentWikiid ?? null;
  }

  languagesOf(wikiid: number): Promise<WikiLanguageEntity[]> {
    return this.manager.getRepository(WikiLanguageEntity).find({ where: { wikiid }, order: { langid: 'ASC' } });
  }

  async revisions(ids: number[]): Promise<Map<number, WikiRevisionEntity>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const rows = await this.manager.getRepository(WikiRevisionEntity).findBy({ revisionid: In(unique) });
    return new Map(rows.map((row) => [row.revisionid, row]));
  }

  findRevision(wikiid: number, langid: string, revisionid: number) {
    return this.manager.getRepository(WikiRevisionEntity).findOneBy({ wikiid, langid, revisionid });
  }

  insertWiki(wiki: Omit<WikiEntity, 'wikiid'>): Promise<WikiEntity> {
    const repository = this.manager.getRepository(WikiEntity);
    return repository.save(repository.create(wiki));
  }

  insertRevision(revision: Omit<WikiRevisionEntity, 'revisionid'>): Promise<WikiRevisionEntity> {
    const repository = this.manager.getRepository(WikiRevisionEntity);
    return repository.save(repository.create(revision));
  }

  async insertLanguage(language: WikiLanguageEntity): Promise<void> {
    await this.manager.getRepository(WikiLanguageEntity).insert(language);
  }

  /**
   * The optimistic-concurrency check (docs/api-conventions.md): moves the language's head from `expectedHead` to
   * `newHead` (and the patrolled pointer too when `patrolled`). False when the head was not
   * `expectedHead` (no row matched). `newHead === expectedHead` checks (and patrols) without a change.
   */
  async moveHead(
    wikiid: number,
    langid: string,
    expectedHead: number,
    newHead: number,
    patrolled: boolean,
  ): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(WikiLanguageEntity)
      .set({ headRevisionid: newHead, ...(patrolled ? { revisionid: newHead } : {}) })
      .where('wikiid = :wikiid AND langid = :langid AND head_revisionid = :expectedHead', {
        wikiid,
        langid,
        expectedHead,
      })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** A Moderator+ save patrols what it builds on. */
  async patrolUpTo(wikiid: number, langid: string, revisionid: number): Promise<void> {
    await this.manager
      .createQueryBuilder()
      .update(WikiRevisionEntity)
      .set({ patrolled: true })
      .where('wikiid = :wikiid AND langid = :langid AND revisionid <= :revisionid AND patrolled = :no', {
        wikiid,
        langid,
        revisionid,
        no: false,
      })
      .execute();
  }

  async updateWiki(wikiid: number, changes: Partial<Pick<WikiEntity, 'modifiedDate' | 'deleted' | 'parentWikiid'>>) {
    await this.manager.getRepository(WikiEntity).update({ wikiid }, changes);
  }

  /** Head revisions of every language of a wiki (image usage is computed from them). */
  async headRevisions(wikiid: number): Promise<WikiRevisionEntity[]> {
    return this.manager
      .getRepository(WikiRevisionEntity)
      .createQueryBuilder('r')
      .innerJoin(WikiLanguageEntity, 'l', 'l.head_revisionid = r.revisionid')
      .where('l.wikiid = :wikiid', { wikiid })
      .getMany();
  }

  // ---- light rows ---------------------------------------------------------------------------------

  private static toLight(raw: SqlRow, langid: string | undefined): LightWikiRow {
    const translated = raw.t_revisionid !== null && raw.t_revisionid !== undefined;
    return {
      wikiid: Number(raw.wikiid),
      namespace: String(raw.namespace),
      title: String(raw.title),
      parentWikiid: raw.parent_wikiid === null ? null : Number(raw.parent_wikiid),
      modifiedDate: Number(raw.modified_date),
      langid: translated && langid ? langid : String(raw.langid),
      displayTitle: String(translated ? raw.t_display_title : raw.display_title),
      summary: String(translated ? raw.t_summary : raw.summary),
      imageid: raw.imageid === null ? null : Number(raw.imageid),
      flags: typeof raw.flags === 'string' ? raw.flags : '',
    };
  }

  private async lights(where: string, parameters: unknown[], langid?: string): Promise<LightWikiRow[]> {
    const raws = await this.sql.rows(`SELECT ${LIGHT_COLUMNS} ${LIGHT_FROM} ${where}`, [langid ?? '', ...parameters]);
    return raws.map((raw) => WikisRepository.toLight(raw, langid));
  }

  /** Live wikis named by (namespace, title in any case). */
  async lightByRefs(refs: { namespace: string; title: string }[], langid?: string): Promise<LightWikiRow[]> {
    if (!refs.length) return [];
    const hashes = [...new Set(refs.map((ref) => titleHash(ref.title)))];
    const namespaces = [...new Set(refs.map((ref) => ref.namespace))];
    const rows = await this.lights(
      `AND w.namespace IN (${placeholders(namespaces)}) AND w.title_hash IN (${placeholders(hashes)})`,
      [...namespaces, ...hashes],
      langid,
    );
    const wanted = new Set(refs.map((ref) => wikiKey(ref.namespace, ref.title)));
    return rows.filter((row) => wanted.has(wikiKey(row.namespace, row.title)));
  }

  /** Live wikis by id (any order). */
  async lightByIds(wikiids: number[], langid?: string): Promise<LightWikiRow[]> {
    if (!wikiids.length) return [];
    return this.lights(`AND w.wikiid IN (${placeholders(wikiids)})`, wikiids, langid);
  }

  async listPage(filter: ListFilter, langid?: string): Promise<LightWikiRow[]> {
    const { where, parameters } = WikisRepository.listConditions(filter);
    return this.lights(where, parameters, langid);
  }

  async listTitles(filter: ListFilter): Promise<string[]> {
    const { where, parameters } = WikisRepository.listConditions(filter);
    const raws = await this.sql.rows<{ title: string }>(
      `SELECT w.title FROM wikis w WHERE w.deleted = 0 ${where}`,
      parameters,
    );
    return raws.map((raw) => raw.title);
  }

  /** Namespace, order and page of the wiki lists: by title, or newest change first with `modifiedSince`. */
  private static listConditions(filter: ListFilter): { where: string; parameters: unknown[] } {
    const since = filter.modifiedSince !== undefined;
    return {
      where: `AND w.namespace = ? ${since ? `AND w.modified_date >= ? ${MODIFIED_ORDER}` : TITLE_ORDER} LIMIT ? OFFSET ?`,
      parameters: [filter.namespace, ...(since ? [filter.modifiedSince] : []), filter.limit, filter.offset],
    };
  }

  /** Live child categories, by title. */
  childrenOf(wikiid: number, langid?: string): Promise<LightWikiRow[]> {
    return this.lights(`AND w.parent_wikiid = ? ${TITLE_ORDER}`, [wikiid], langid);
  }

  /** Live ancestors and children of a category in one query. */
  /**
   * A category's family, with the `category-tree` token read with its rows (null when there is none or no
   * row): every write of a category, the only namespace with parents, replaces it.
   */
  async familyOf(wikiid: number, langid?: string): Promise<{ family: CategoryFamily; token: string | null }> {
    const raws = await this.sql.rows(FAMILY_SQL, [wikiid, wikiid, langid ?? '']);
    const family: CategoryFamily = { ancestors: [], children: [] };
    for (const raw of raws) {
      (Number(raw.depth) === 0 ? family.children : family.ancestors).push(WikisRepository.toLight(raw, langid));
    }
    return { family, token: tokenColumn(raws[0]?.tree_token) };
  }

  async countLiveChildren(wikiid: number): Promise<number> {
    return this.manager.getRepository(WikiEntity).countBy({ parentWikiid: wikiid, deleted: false });
  }

  /**
   * Wikis of a namespace whose title is among `titles` in any case (deleted ones included). Hand-written SQL: a
   * hot read, where building the query cost more than running it.
   */
  async findByTitles(namespace: string, titles: string[]): Promise<WikiEntity[]> {
    if (!titles.length) return [];
    const hashes = [...new Set(titles.map(titleHash))];
    const sql = `${this.byTitlesHead}${placeholders(hashes)})`;
    const rows = (await this.sql.rows(sql, [namespace, ...hashes])).map(this.toWiki);
    const wanted = new Set(titles.map(titleKey));
    return rows.filter((row) => wanted.has(titleKey(row.title)));
  }
}
