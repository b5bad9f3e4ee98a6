import type { DataSource, EntityManager } from 'typeorm';
import { SqlReader } from '../../database/sql-reader';
import type { AccessSql } from '../../platform/documents/document-registry';
import { GuideEntity } from '../guides/entities/guide.entity';
import { WikiEntity } from '../wikis/entities/wiki.entity';
import type { SearchQuery } from './search-query';
import { Database } from '../../database/database';

/** What the index holds of one document in one language (patrolled text only). */
export interface IndexedDocument {
  doctype: 'GUIDE' | 'WIKI';
  docid: number;
  langid: string;
  /** GUIDE, or the wiki's namespace. */
  namespace: string;
  isSource: boolean;
  title: string;
  body: string;
  /** Shown with results without another query (wikis: the light object). */
  data: Record<string, unknown>;
  modifiedDate: number;
}

/** The kinds a search can be limited to. `wiki` is every namespace but CATEGORY. */
export type SearchKind = 'guide' | 'wiki' | 'category';
/** The kinds suggestions are drawn from: `topic` = CATEGORY wikis, `item` = ITEM wikis, `wiki` = the others. */
export type SuggestKind = 'guide' | 'topic' | 'item' | 'wiki';

export interface SearchHit {
  doctype: 'GUIDE' | 'WIKI';
  docid: number;
  langid: string;
  namespace: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
  modifiedDate: number;
  titleMatch: boolean;
}

export interface SearchParams {
  query: SearchQuery;
  kinds: SearchKind[];
  /** A language, or undefined for each document's source language. */
  langid?: string;
  /** Readable-document conditions per doctype, on the column given to accessSql. */
  access: { guide: AccessSql; wiki: AccessSql };
  offset: number;
  limit: number;
}

export interface SuggestParams {
  query: SearchQuery;
  kinds: SuggestKind[];
  langid?: string;
  access: { guide: AccessSql; wiki: AccessSql };
  /** At most this many per kind. */
  perKind: number;
}

/** The column the access conditions are built on (`accessSql(user, SEARCH_DOCID_COLUMN)`). */
export const SEARCH_DOCID_COLUMN = 'd.docid';

/**
 * The search index of one engine (SQLite FTS5 or InnoDB FULLTEXT). Writes join the open transaction (an
 * event delivery's); a search is one statement with its total (a second only past the last page).
 */
export abstract class SearchRepository {
  protected readonly reader: SqlReader;

  private readonly database: Database;

  constructor(protected readonly dataSource: DataSource) {
    this.reader = new SqlReader(dataSource);
    this.database = new Database(dataSource);
  }

  /** The open transaction's manager (an event delivery's), else the data source's. */
  protected get manager(): EntityManager {
    return this.database.manager;
  }

  /** Rows of a statement with named parameters (`:name`, `:...list`). */
  protected rows(sql: string, params: Record<string, unknown>): Promise<Record<string, unknown>[]> {
    const [text, values] = this.dataSource.driver.escapeQueryWithParameters(sql, params);
    return this.reader.rows(text, values);
  }

  /**
   * Replaces every indexed language of the documents `docids` with `documents` (theirs; a document with none leaves
   * the index), in a few statements however many documents.
   */
  abstract replace(doctype: 'GUIDE' | 'WIKI', docids: number[], documents: IndexedDocument[]): Promise<void>;

  /** Inserts the rows of `documents` into search_documents, DOCUMENTS_PER_INSERT per statement. */
  protected async insertDocuments(documents: IndexedDocument[]): Promise<void> {
    for (let i = 0; i < documents.length; i += DOCUMENTS_PER_INSERT) {
      const chunk = documents.slice(i, i + DOCUMENTS_PER_INSERT);
      await this.manager.query(
        'INSERT INTO search_documents (doctype, docid, langid, namespace, is_source, title, body, data, modified_date) ' +
          `VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flatMap((doc) => [
          doc.doctype,
          doc.docid,
          doc.langid,
          doc.namespace,
          doc.isSource ? 1 : 0,
          doc.title,
          doc.body,
          JSON.stringify(doc.data),
          doc.modifiedDate,
        ]),
      );
    }
  }

  /** Ranked: title matches first, then relevance, then newest. */
  abstract search(params: SearchParams): Promise<{ hits: SearchHit[]; total: number }>;

  /** Title matches (prefix), at most `perKind` of each kind, ranked as search ranks. */
  abstract suggest(params: SuggestParams): Promise<(SearchHit & { kind: SuggestKind })[]>;

  /** Every guide and wiki id (the rebuild), deleted ones left out. */
  async liveDocumentIds(): Promise<{ guides: number[]; wikis: number[] }> {
    const guides = await this.manager
      .getRepository(GuideEntity)
      .find({ select: { guideid: true }, where: { deleted: false }, order: { guideid: 'ASC' } });
    const wikis = await this.manager
      .getRepository(WikiEntity)
      .find({ select: { wikiid: true }, where: { deleted: false }, order: { wikiid: 'ASC' } });
    return { guides: guides.map((g) => g.guideid), wikis: wikis.map((w) => w.wikiid) };
  }

  /** Empties the index. */
  abstract clear(): Promise<void>;

  /** Ids of the documents of a doctype the index holds (the rebuild drops those that no longer exist). */
  abstract indexedIds(doctype: 'GUIDE' | 'WIKI'): Promise<number[]>;

  /** Number of indexed rows (the rebuild's report). */
  abstract count(): Promise<number>;
}

/** Documents per INSERT: 9 parameters each stay far below either engine's limit. */
const DOCUMENTS_PER_INSERT = 200;

/** SQL shared by the engines: the kind filter, the language filter and the access conditions. */
export function sharedConditions(
  params: { kinds: string[]; langid?: string; access: { guide: AccessSql; wiki: AccessSql } },
  kindOf: (kind: string) => string,
): { where: string; params: Record<string, unknown> } {
  const { guide, wiki } = params.access;
  for (const [name, value] of Object.entries(wiki.params)) {
    if (name in guide.params && guide.params[name] !== value) throw new Error(`access parameter ${name} differs`);
  }
  const kinds = params.kinds.map(kindOf).join(' OR ');
  const where = [
    `(${kinds})`,
    params.langid === undefined ? 'd.is_source = 1' : 'd.langid = :langid',
    `((d.doctype = 'GUIDE' AND ${guide.readable}) OR (d.doctype = 'WIKI' AND ${wiki.readable}))`,
  ].join(' AND ');
  return { where, params: { ...guide.params, ...wiki.params, langid: params.langid } };
}

export const SEARCH_KIND_SQL: Record<SearchKind, string> = {
  guide: "d.doctype = 'GUIDE'",
  wiki: "(d.doctype = 'WIKI' AND d.namespace <> 'CATEGORY')",
  category: "(d.doctype = 'WIKI' AND d.namespace = 'CATEGORY')",
};

export const SUGGEST_KIND_SQL: Record<SuggestKind, string> = {
  guide: "d.doctype = 'GUIDE'",
  topic: "(d.doctype = 'WIKI' AND d.namespace = 'CATEGORY')",
  item: "(d.doctype = 'WIKI' AND d.namespace = 'ITEM')",
  wiki: "(d.doctype = 'WIKI' AND d.namespace NOT IN ('CATEGORY', 'ITEM'))",
};

/** The kind of a row, as SQL (suggestions are ranked within each kind). */
export const SUGGEST_KIND_CASE =
  "CASE WHEN d.doctype = 'GUIDE' THEN 'guide' WHEN d.namespace = 'CATEGORY' THEN 'topic' " +
  "WHEN d.namespace = 'ITEM' THEN 'item' ELSE 'wiki' END";

export const HIT_COLUMNS = 'd.id, d.doctype, d.docid, d.langid, d.namespace, d.title, d.body, d.data, d.modified_date';

export function toHit(raw: Record<string, unknown>): SearchHit {
  return {
    doctype: raw.doctype === 'WIKI' ? 'WIKI' : 'GUIDE',
    docid: Number(raw.docid),
    langid: String(raw.langid),
    namespace: String(raw.namespace),
    title: String(raw.title),
    body: String(raw.body),
    data: JSON.parse(String(raw.data)) as Record<string, unknown>,
    modifiedDate: Number(raw.modified_date),
    titleMatch: Boolean(Number(raw.title_match)),
  };
}
