import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { SqlReader, type SqlRow } from '../../../database/sql-reader';
import { versionTokenSql } from '../../../platform/versions/content-versions';
import { WikiCategoryGuideEntity } from '../entities/wiki-category-guide.entity';

export interface TreeRow {
  wikiid: number;
  title: string;
  parentWikiid: number | null;
  displayTitle: string;
  flags: string;
  /** SHA-256 of the title, read only when asked for (guide counts are keyed by it). */
  titleHash?: string;
  /** Source language, read only when asked for. */
  langid?: string;
  /** The category tree's token in the same snapshot (content_versions), null when there is none. */
  treeToken: string | null;
}

/** The category tree's token, read by the tree's statements themselves so that it names the state they read. */
const TREE_TOKEN = versionTokenSql('category-tree');

export interface CategoryGuideFacts {
  guideid: number;
  category: string;
  categoryHash: string;
  title: string;
}

/**
 * Columns are named as TreeRow's fields, so rows need no mapping (the tree can be large). The optional
 * columns are read only when asked for: the 64-character hashes alone cost a tenth of the query.
 */
const treeSql = (extra: { titleHashes?: boolean; langids?: boolean }) =>
  `SELECT w.wikiid, w.title, w.parent_wikiid AS parentWikiid, rm.display_title AS displayTitle, rm.flags,
    ${TREE_TOKEN} AS treeToken${
      extra.titleHashes ? ', w.title_hash AS titleHash' : ''
    }${extra.langids ? ', w.langid' : ''}
  FROM wikis w
  JOIN wiki_languages lm ON lm.wikiid = w.wikiid AND lm.langid = w.langid
  JOIN wiki_revisions rm ON rm.revisionid = lm.revisionid
  WHERE w.namespace = 'CATEGORY' AND w.deleted = 0`;

const TRANSLATED_TITLES_SQL = `SELECT w.wikiid, rt.display_title, ${TREE_TOKEN} AS tree_token
  FROM wikis w
  JOIN wiki_languages lt ON lt.wikiid = w.wikiid AND lt.langid = ? AND lt.langid <> w.langid
  JOIN wiki_revisions rt ON rt.revisionid = lt.revisionid AND rt.deleted = 0
  WHERE w.namespace = 'CATEGORY' AND w.deleted = 0`;

const GUIDE_COUNTS_SQL = 'SELECT category_hash, COUNT(*) AS n FROM wiki_category_guides GROUP BY category_hash';

const GUIDES_IN_SQL = `SELECT guideid, category, category_hash, title FROM wiki_category_guides
  WHERE category_hash = ? ORDER BY title, guideid`;

/** The category tree in bulk (one query per concern, never one per node) and the guide facts kept from events. */
@Injectable()
export class CategoriesRepository {
  private readonly sql: SqlReader;
  private readonly toGuide: (row: SqlRow) => WikiCategoryGuideEntity;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.sql = new SqlReader(dataSource);
    this.toGuide = this.sql.hydrator(WikiCategoryGuideEntity);
  }

  /** Every live category with its source-language patrolled display title and flags. */
  treeRows(extra: { titleHashes?: boolean; langids?: boolean } = {}): Promise<TreeRow[]> {
    return this.sql.rows<TreeRow>(treeSql(extra), []);
  }

  /**
   * wikiid → display title of the live, patrolled `langid` translation of every category that has one, and the
   * category tree's token in the same snapshot (undefined when no category has one).
   */
  async translatedTitles(langid: string): Promise<{ titles: Map<number, string>; treeToken?: string | null }> {
    const raws = await this.sql.rows(TRANSLATED_TITLES_SQL, [langid]);
    return {
      titles: new Map(raws.map((raw) => [Number(raw.wikiid), String(raw.display_title)])),
      treeToken: raws.length ? ((raws[0].tree_token as string | null) ?? null) : undefined,
    };
  }

  /** category title hash → number of public, non-deleted guides in it. */
  async guideCounts(): Promise<Map<string, number>> {
    const raws = await this.sql.rows(GUIDE_COUNTS_SQL, []);
    return new Map(raws.map((raw) => [String(raw.category_hash), Number(raw.n)]));
  }

  async guidesIn(categoryHash: string): Promise<WikiCategoryGuideEntity[]> {
    return (await this.sql.rows(GUIDES_IN_SQL, [categoryHash])).map(this.toGuide);
  }

  /** One upsert for the whole list. */
  async saveGuides(facts: CategoryGuideFacts[]): Promise<void> {
    if (facts.length) await this.dataSource.getRepository(WikiCategoryGuideEntity).upsert(facts, ['guideid']);
  }

  /** One DELETE for the whole list. */
  async forgetGuides(guideids: number[]): Promise<void> {
    if (guideids.length) await this.dataSource.getRepository(WikiCategoryGuideEntity).delete({ guideid: In(guideids) });
  }
}
