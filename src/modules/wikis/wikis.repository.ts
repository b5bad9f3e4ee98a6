import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, type SelectQueryBuilder } from 'typeorm';
import { WikiLanguageEntity } from './entities/wiki-language.entity';
import { WikiRevisionEntity } from './entities/wiki-revision.entity';
import { WikiEntity } from './entities/wiki.entity';
import { titleHash } from './wiki-namespaces';

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

export interface ListFilter {
  namespace: string;
  offset: number;
  limit: number;
  modifiedSince?: number;
}

/** Wiki identity, language heads and revisions. Methods take an optional manager for transactions. */
@Injectable()
export class WikisRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  manager(tx?: EntityManager): EntityManager {
    return tx ?? this.dataSource.manager;
  }

  private get isSqlite(): boolean {
    return this.dataSource.options.type === 'better-sqlite3';
  }

  findWiki(namespace: string, title: string, tx?: EntityManager): Promise<WikiEntity | null> {
    return this.manager(tx)
      .getRepository(WikiEntity)
      .findOneBy({ namespace, titleHash: titleHash(title) });
  }

  findWikiById(wikiid: number, tx?: EntityManager): Promise<WikiEntity | null> {
    return this.manager(tx).getRepository(WikiEntity).findOneBy({ wikiid });
  }

  /** Row lock on MySQL (SQLite transactions are already serialized): moves, deletes and creates under a parent. */
  async lockWikis(wikiids: number[], tx: EntityManager): Promise<void> {
    if (this.isSqlite || !wikiids.length) return;
    await tx
      .getRepository(WikiEntity)
      .createQueryBuilder('w')
      .select('w.wikiid')
      .where({ wikiid: In([...wikiids].sort((a, b) => a - b)) })
      .orderBy('w.wikiid')
      .setLock('pessimistic_write')
      .getMany();
  }

  /** The parent of one category, read with a row lock on MySQL (cycle checks walk up the tree with it). */
  async lockedParentOf(wikiid: number, tx: EntityManager): Promise<number | null> {
    const qb = tx
      .getRepository(WikiEntity)
      .createQueryBuilder('w')
      .select(['w.wikiid', 'w.parentWikiid'])
      .where({ wikiid });
    if (!this.isSqlite) qb.setLock('pessimistic_write');
    return (await qb.getOne())?.parentWikiid ?? null;
  }

  languagesOf(wikiid: number, tx?: EntityManager): Promise<WikiLanguageEntity[]> {
    return this.manager(tx)
      .getRepository(WikiLanguageEntity)
      .find({ where: { wikiid }, order: { langid: 'ASC' } });
  }

  async revisions(ids: number[], tx?: EntityManager): Promise<Map<number, WikiRevisionEntity>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const rows = await this.manager(tx)
      .getRepository(WikiRevisionEntity)
      .findBy({ revisionid: In(unique) });
    return new Map(rows.map((row) => [row.revisionid, row]));
  }

  findRevision(wikiid: number, langid: string, revisionid: number, tx?: EntityManager) {
    return this.manager(tx).getRepository(WikiRevisionEntity).findOneBy({ wikiid, langid, revisionid });
  }

  insertWiki(wiki: Omit<WikiEntity, 'wikiid'>, tx: EntityManager): Promise<WikiEntity> {
    const repository = tx.getRepository(WikiEntity);
    return repository.save(repository.create(wiki));
  }

  insertRevision(revision: Omit<WikiRevisionEntity, 'revisionid'>, tx: EntityManager): Promise<WikiRevisionEntity> {
    const repository = tx.getRepository(WikiRevisionEntity);
    return repository.save(repository.create(revision));
  }

  async insertLanguage(language: WikiLanguageEntity, tx: EntityManager): Promise<void> {
    await tx.getRepository(WikiLanguageEntity).insert(language);
  }

  /**
   * The optimistic-concurrency check (DESIGN §4): moves the language's head from `expectedHead` to
   * `newHead` (and the patrolled pointer too when `patrolled`). False when the head was not
   * `expectedHead` (no row matched). `newHead === expectedHead` checks (and patrols) without a change.
   */
  async moveHead(
    wikiid: number,
    langid: string,
    expectedHead: number,
    newHead: number,
    patrolled: boolean,
    tx: EntityManager,
  ): Promise<boolean> {
    const result = await tx
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
  async patrolUpTo(wikiid: number, langid: string, revisionid: number, tx: EntityManager): Promise<void> {
    await tx
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

  async updateWiki(
    wikiid: number,
    changes: Partial<Pick<WikiEntity, 'modifiedDate' | 'deleted' | 'parentWikiid'>>,
    tx: EntityManager,
  ) {
    await tx.getRepository(WikiEntity).update({ wikiid }, changes);
  }

  /** Head revisions of every language of a wiki (image usage is computed from them). */
  async headRevisions(wikiid: number, tx?: EntityManager): Promise<WikiRevisionEntity[]> {
    return this.manager(tx)
      .getRepository(WikiRevisionEntity)
      .createQueryBuilder('r')
      .innerJoin(WikiLanguageEntity, 'l', 'l.head_revisionid = r.revisionid')
      .where('l.wikiid = :wikiid', { wikiid })
      .getMany();
  }

  // ---- light rows ---------------------------------------------------------------------------------

  /** Live wikis joined to their source-language patrolled revision and, when asked, a patrolled translation. */
  private lightQuery(langid: string | undefined, tx?: EntityManager): SelectQueryBuilder<WikiEntity> {
    return this.manager(tx)
      .getRepository(WikiEntity)
      .createQueryBuilder('w')
      .innerJoin(WikiLanguageEntity, 'lm', 'lm.wikiid = w.wikiid AND lm.langid = w.langid')
      .innerJoin(WikiRevisionEntity, 'rm', 'rm.revisionid = lm.revisionid')
      .leftJoin(WikiLanguageEntity, 'lt', 'lt.wikiid = w.wikiid AND lt.langid = :lang AND lt.langid <> w.langid', {
        lang: langid ?? '',
      })
      .leftJoin(WikiRevisionEntity, 'rt', 'rt.revisionid = lt.revisionid AND rt.deleted = :no')
      .select('w.wikiid', 'wikiid')
      .addSelect('w.namespace', 'namespace')
      .addSelect('w.title', 'title')
      .addSelect('w.parent_wikiid', 'parentWikiid')
      .addSelect('w.modified_date', 'modifiedDate')
      .addSelect('w.langid', 'sourceLangid')
      .addSelect('rt.revisionid', 'translationRevisionid')
      .addSelect('rm.display_title', 'sourceDisplayTitle')
      .addSelect('rt.display_title', 'translatedDisplayTitle')
      .addSelect('rm.summary', 'sourceSummary')
      .addSelect('rt.summary', 'translatedSummary')
      .addSelect('rm.imageid', 'imageid')
      .addSelect('rm.flags', 'flags')
      .where('w.deleted = :no', { no: false });
  }

  private static toLight(raw: Record<string, unknown>, langid: string | undefined): LightWikiRow {
    const translated = raw.translationRevisionid !== null && raw.translationRevisionid !== undefined;
    return {
      wikiid: Number(raw.wikiid),
      namespace: String(raw.namespace),
      title: String(raw.title),
      parentWikiid: raw.parentWikiid === null ? null : Number(raw.parentWikiid),
      modifiedDate: Number(raw.modifiedDate),
      langid: translated && langid ? langid : String(raw.sourceLangid),
      displayTitle: String(translated ? raw.translatedDisplayTitle : raw.sourceDisplayTitle),
      summary: String(translated ? raw.translatedSummary : raw.sourceSummary),
      imageid: raw.imageid === null ? null : Number(raw.imageid),
      flags: typeof raw.flags === 'string' ? raw.flags : '',
    };
  }

  async lightByIds(wikiids: number[], langid?: string, tx?: EntityManager): Promise<Map<number, LightWikiRow>> {
    if (!wikiids.length) return new Map();
    const raws = await this.lightQuery(langid, tx)
      .andWhere('w.wikiid IN (:...ids)', { ids: [...new Set(wikiids)] })
      .getRawMany<Record<string, unknown>>();
    return new Map(raws.map((raw) => [Number(raw.wikiid), WikisRepository.toLight(raw, langid)]));
  }

  /** Live wikis named by (namespace, exact title). */
  async lightByRefs(refs: { namespace: string; title: string }[], langid?: string): Promise<LightWikiRow[]> {
    if (!refs.length) return [];
    const hashes = [...new Set(refs.map((ref) => titleHash(ref.title)))];
    const namespaces = [...new Set(refs.map((ref) => ref.namespace))];
    const raws = await this.lightQuery(langid)
      .andWhere('w.namespace IN (:...namespaces)', { namespaces })
      .andWhere('w.title_hash IN (:...hashes)', { hashes })
      .getRawMany<Record<string, unknown>>();
    const wanted = new Set(refs.map((ref) => `${ref.namespace}\u0000${ref.title}`));
    return raws
      .map((raw) => WikisRepository.toLight(raw, langid))
      .filter((row) => wanted.has(`${row.namespace}\u0000${row.title}`));
  }

  async listPage(filter: ListFilter, langid?: string): Promise<LightWikiRow[]> {
    const qb = this.lightQuery(langid).andWhere('w.namespace = :namespace', { namespace: filter.namespace });
    this.applyListOrder(qb, filter);
    const raws = await qb.offset(filter.offset).limit(filter.limit).getRawMany<Record<string, unknown>>();
    return raws.map((raw) => WikisRepository.toLight(raw, langid));
  }

  async listTitles(filter: ListFilter): Promise<string[]> {
    const qb = this.manager()
      .getRepository(WikiEntity)
      .createQueryBuilder('w')
      .select('w.title', 'title')
      .where('w.namespace = :namespace AND w.deleted = :no', { namespace: filter.namespace, no: false });
    this.applyListOrder(qb, filter);
    const raws = await qb.offset(filter.offset).limit(filter.limit).getRawMany<{ title: string }>();
    return raws.map((raw) => raw.title);
  }

  private applyListOrder(qb: SelectQueryBuilder<WikiEntity>, filter: ListFilter): void {
    if (filter.modifiedSince !== undefined) {
      qb.andWhere('w.modified_date >= :since', { since: filter.modifiedSince })
        .orderBy('w.modified_date', 'DESC')
        .addOrderBy('w.wikiid', 'DESC');
    } else {
      qb.orderBy('w.title', 'ASC').addOrderBy('w.wikiid', 'ASC');
    }
  }

  /** Live child categories, by title. */
  async childrenOf(wikiid: number, langid?: string): Promise<LightWikiRow[]> {
    const raws = await this.lightQuery(langid)
      .andWhere('w.parent_wikiid = :wikiid', { wikiid })
      .orderBy('w.title', 'ASC')
      .addOrderBy('w.wikiid', 'ASC')
      .getRawMany<Record<string, unknown>>();
    return raws.map((raw) => WikisRepository.toLight(raw, langid));
  }

  async countLiveChildren(wikiid: number, tx?: EntityManager): Promise<number> {
    return this.manager(tx).getRepository(WikiEntity).countBy({ parentWikiid: wikiid, deleted: false });
  }

  /** Ancestor ids, closest parent first: one recursive query (depth-capped against corrupt data). */
  async ancestorIds(wikiid: number, tx?: EntityManager): Promise<number[]> {
    const rows = await this.manager(tx).query<{ wikiid: number | string }[]>(
      `WITH RECURSIVE anc (wikiid, parent_wikiid, depth) AS (
         SELECT wikiid, parent_wikiid, 0 FROM wikis WHERE wikiid = ?
         UNION ALL
         SELECT w.wikiid, w.parent_wikiid, anc.depth + 1 FROM wikis w JOIN anc ON w.wikiid = anc.parent_wikiid
         WHERE anc.depth < 1000
       )
       SELECT wikiid, depth FROM anc WHERE depth > 0 ORDER BY depth`,
      [wikiid],
    );
    return rows.map((row) => Number(row.wikiid));
  }

  /** Wikis of a namespace whose exact title is among `titles` (deleted ones included). */
  async findByTitles(namespace: string, titles: string[], tx?: EntityManager): Promise<WikiEntity[]> {
    if (!titles.length) return [];
    const rows = await this.manager(tx)
      .getRepository(WikiEntity)
      .findBy({ namespace, titleHash: In([...new Set(titles.map(titleHash))]) });
    return rows.filter((row) => titles.includes(row.title));
  }
}
