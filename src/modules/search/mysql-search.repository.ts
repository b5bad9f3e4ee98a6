import { placeholders } from '../../database/sql-reader';
import { toInnoDbBoolean } from './search-query';
import {
  HIT_COLUMNS,
  SEARCH_KIND_SQL,
  SUGGEST_KIND_CASE,
  SUGGEST_KIND_SQL,
  SearchRepository,
  sharedConditions,
  toHit,
  type IndexedDocument,
  type SearchHit,
  type SearchKind,
  type SearchParams,
  type SuggestKind,
  type SuggestParams,
} from './search.repository';

/**
 * MySQL/MariaDB: InnoDB FULLTEXT indexes on `search_documents` (title; title + body), boolean mode.
 * Limits of the engine: words shorter than innodb_ft_min_token_size (3) are not indexed (they still
 * match as prefixes of longer words) and the default stopwords are not indexed (see toInnoDbBoolean).
 */
export class MysqlSearchRepository extends SearchRepository {
  async replace(doctype: 'GUIDE' | 'WIKI', docids: number[], documents: IndexedDocument[]): Promise<void> {
    if (!docids.length) return;
    const manager = this.manager;
    await manager.query(`DELETE FROM search_documents WHERE doctype = ? AND docid IN (${placeholders(docids)})`, [
      doctype,
      ...docids,
    ]);
    await this.insertDocuments(documents);
  }

  async search(params: SearchParams): Promise<{ hits: SearchHit[]; total: number }> {
    const against = toInnoDbBoolean(params.query);
    if (against === null) return { hits: [], total: 0 };
    const shared = sharedConditions(params, (kind) => SEARCH_KIND_SQL[kind as SearchKind]);
    const values = { ...shared.params, against, limit: params.limit, offset: params.offset };
    const where = `WHERE MATCH (d.title, d.body) AGAINST (:against IN BOOLEAN MODE) AND ${shared.where}`;
    const raws = await this.rows(
      `SELECT ${HIT_COLUMNS}, MATCH (d.title, d.body) AGAINST (:against IN BOOLEAN MODE) AS score,
         (MATCH (d.title) AGAINST (:against IN BOOLEAN MODE) > 0) AS title_match, COUNT(*) OVER () AS total
       FROM search_documents d ${where}
       ORDER BY title_match DESC, score DESC, d.modified_date DESC, d.id DESC
       LIMIT :limit OFFSET :offset`,
      values,
    );
    if (raws.length) return { hits: raws.map(toHit), total: Number(raws[0].total) };
    if (params.offset === 0) return { hits: [], total: 0 };
    const [count] = await this.rows(`SELECT COUNT(*) AS total FROM search_documents d ${where}`, values);
    return { hits: [], total: Number(count?.total ?? 0) };
  }

  /**
   * InnoDB's relevance does not weigh a title's length (SQLite's bm25 does): among equally relevant titles the
   * shorter comes first, so "iPhone" ranks before "iPhone 6s" on both databases.
   */
  async suggest(params: SuggestParams): Promise<(SearchHit & { kind: SuggestKind })[]> {
    const against = toInnoDbBoolean(params.query);
    if (against === null) return [];
    const shared = sharedConditions(params, (kind) => SUGGEST_KIND_SQL[kind as SuggestKind]);
    const raws = await this.rows(
      `SELECT * FROM (
         SELECT ${HIT_COLUMNS}, ${SUGGEST_KIND_CASE} AS kind, 1 AS title_match,
           ROW_NUMBER() OVER (PARTITION BY ${SUGGEST_KIND_CASE}
             ORDER BY MATCH (d.title) AGAINST (:against IN BOOLEAN MODE) DESC, CHAR_LENGTH(d.title) ASC,
               d.modified_date DESC, d.id DESC) AS n
         FROM search_documents d
         WHERE MATCH (d.title) AGAINST (:against IN BOOLEAN MODE) AND ${shared.where}) ranked
       WHERE n <= :perKind ORDER BY kind, n`,
      { ...shared.params, against, perKind: params.perKind },
    );
    return raws.map((raw) => ({ ...toHit(raw), kind: String(raw.kind) as SuggestKind }));
  }

  async clear(): Promise<void> {
    await this.manager.query('DELETE FROM search_documents');
  }

  async indexedIds(doctype: 'GUIDE' | 'WIKI'): Promise<number[]> {
    const rows = await this.rows('SELECT DISTINCT docid FROM search_documents WHERE doctype = :doctype', { doctype });
    return rows.map((row) => Number(row.docid));
  }

  async count(): Promise<number> {
    const [row] = await this.rows('SELECT COUNT(*) AS n FROM search_documents', {});
    return Number(row?.n ?? 0);
  }
}
