import { placeholders } from '../../database/sql-reader';
import { toFts5 } from './search-query';
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

/** Title hits weigh ten times body hits in bm25 (lower is better). */
const SCORE = 'bm25(search_fts, 10.0, 1.0)';

/**
 * SQLite: FTS5 table `search_fts` (unicode61, remove_diacritics 2) beside `search_documents`, sharing
 * the rowid. Every word of a query is a quoted FTS5 string (see toFts5), so user text is never syntax.
 */
export class SqliteSearchRepository extends SearchRepository {
  async replace(doctype: 'GUIDE' | 'WIKI', docids: number[], documents: IndexedDocument[]): Promise<void> {
    if (!docids.length) return;
    const manager = this.manager;
    const docList = placeholders(docids);
    // A document indexed for the first time (every create) has nothing to delete, and an FTS5 delete
    // costs even when it matches nothing.
    const indexed = await manager.query<{ id: number }[]>(
      `SELECT id FROM search_documents WHERE doctype = ? AND docid IN (${docList})`,
      [doctype, ...docids],
    );
    if (indexed.length) {
      const ids = indexed.map((row) => row.id);
      const list = placeholders(ids);
      await manager.query(`DELETE FROM search_fts WHERE rowid IN (${list})`, ids);
      await manager.query(`DELETE FROM search_documents WHERE id IN (${list})`, ids);
    }
    if (!documents.length) return;
    await this.insertDocuments(documents);
    await manager.query(
      `INSERT INTO search_fts (rowid, title, body) SELECT id, title, body FROM search_documents WHERE doctype = ? AND docid IN (${docList})`,
      [doctype, ...docids],
    );
  }

  async search(params: SearchParams): Promise<{ hits: SearchHit[]; total: number }> {
    const shared = sharedConditions(params, (kind) => SEARCH_KIND_SQL[kind as SearchKind]);
    const values = {
      ...shared.params,
      match: toFts5(params.query),
      titleMatch: toFts5(params.query, 'title'),
      limit: params.limit,
      offset: params.offset,
    };
    const from = `FROM search_fts JOIN search_documents d ON d.id = search_fts.rowid
      WHERE search_fts MATCH :match AND ${shared.where}`;
    const raws = await this.rows(
      `WITH hits AS (
         SELECT ${HIT_COLUMNS}, ${SCORE} AS score,
           (d.id IN (SELECT rowid FROM search_fts WHERE search_fts MATCH :titleMatch)) AS title_match
         ${from})
       SELECT hits.*, COUNT(*) OVER () AS total FROM hits
       ORDER BY title_match DESC, score ASC, modified_date DESC, id DESC
       LIMIT :limit OFFSET :offset`,
      values,
    );
    if (raws.length) return { hits: raws.map(toHit), total: Number(raws[0].total) };
    if (params.offset === 0) return { hits: [], total: 0 };
    // Past the last page: the total still counts.
    const [count] = await this.rows(`SELECT COUNT(*) AS total ${from}`, values);
    return { hits: [], total: Number(count?.total ?? 0) };
  }

  async suggest(params: SuggestParams): Promise<(SearchHit & { kind: SuggestKind })[]> {
    const shared = sharedConditions(params, (kind) => SUGGEST_KIND_SQL[kind as SuggestKind]);
    const raws = await this.rows(
      `WITH hits AS (
         SELECT ${HIT_COLUMNS}, ${SUGGEST_KIND_CASE} AS kind, ${SCORE} AS score, 1 AS title_match
         FROM search_fts JOIN search_documents d ON d.id = search_fts.rowid
         WHERE search_fts MATCH :match AND ${shared.where}),
       ranked AS (
         SELECT hits.*, ROW_NUMBER() OVER (PARTITION BY kind ORDER BY score ASC, modified_date DESC, id DESC) AS n
         FROM hits)
       SELECT * FROM ranked WHERE n <= :perKind ORDER BY kind, n`,
      { ...shared.params, match: toFts5(params.query, 'title'), perKind: params.perKind },
    );
    return raws.map((raw) => ({ ...toHit(raw), kind: String(raw.kind) as SuggestKind }));
  }

  async clear(): Promise<void> {
    const manager = this.manager;
    await manager.query('DELETE FROM search_fts');
    await manager.query('DELETE FROM search_documents');
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
