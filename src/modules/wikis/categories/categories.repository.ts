import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WikiCategoryGuideEntity } from '../entities/wiki-category-guide.entity';
import { WikiLanguageEntity } from '../entities/wiki-language.entity';
import { WikiRevisionEntity } from '../entities/wiki-revision.entity';
import { WikiEntity } from '../entities/wiki.entity';

export interface TreeRow {
  wikiid: number;
  title: string;
  titleHash: string;
  parentWikiid: number | null;
  /** Source language. */
  langid: string;
  displayTitle: string;
  flags: string;
}

export interface CategoryGuideFacts {
  guideid: number;
  category: string;
  categoryHash: string;
  title: string;
}

/** The category tree in bulk (one query per concern, never one per node) and the guide facts kept from events. */
@Injectable()
export class CategoriesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Every live category with its source-language patrolled display title and flags. */
  async treeRows(): Promise<TreeRow[]> {
    const raws = await this.dataSource
      .getRepository(WikiEntity)
      .createQueryBuilder('w')
      .innerJoin(WikiLanguageEntity, 'lm', 'lm.wikiid = w.wikiid AND lm.langid = w.langid')
      .innerJoin(WikiRevisionEntity, 'rm', 'rm.revisionid = lm.revisionid')
      .select('w.wikiid', 'wikiid')
      .addSelect('w.title', 'title')
      .addSelect('w.title_hash', 'titleHash')
      .addSelect('w.parent_wikiid', 'parentWikiid')
      .addSelect('w.langid', 'langid')
      .addSelect('rm.display_title', 'displayTitle')
      .addSelect('rm.flags', 'flags')
      .where('w.namespace = :namespace AND w.deleted = :no', { namespace: 'CATEGORY', no: false })
      .getRawMany<Record<string, unknown>>();
    return raws.map((raw) => ({
      wikiid: Number(raw.wikiid),
      title: String(raw.title),
      titleHash: String(raw.titleHash),
      parentWikiid: raw.parentWikiid === null ? null : Number(raw.parentWikiid),
      langid: String(raw.langid),
      displayTitle: String(raw.displayTitle),
      flags: typeof raw.flags === 'string' ? raw.flags : '',
    }));
  }

  /** wikiid → display title of the live, patrolled `langid` translation of every category that has one. */
  async translatedTitles(langid: string): Promise<Map<number, string>> {
    const raws = await this.dataSource
      .getRepository(WikiEntity)
      .createQueryBuilder('w')
      .innerJoin(WikiLanguageEntity, 'lt', 'lt.wikiid = w.wikiid AND lt.langid = :langid AND lt.langid <> w.langid', {
        langid,
      })
      .innerJoin(WikiRevisionEntity, 'rt', 'rt.revisionid = lt.revisionid AND rt.deleted = :no')
      .select('w.wikiid', 'wikiid')
      .addSelect('rt.display_title', 'displayTitle')
      .where('w.namespace = :namespace AND w.deleted = :no', { namespace: 'CATEGORY', no: false })
      .getRawMany<{ wikiid: number | string; displayTitle: string }>();
    return new Map(raws.map((raw) => [Number(raw.wikiid), raw.displayTitle]));
  }

  /** category title hash → number of public, non-deleted guides in it. */
  async guideCounts(): Promise<Map<string, number>> {
    const raws = await this.dataSource
      .getRepository(WikiCategoryGuideEntity)
      .createQueryBuilder('g')
      .select('g.category_hash', 'hash')
      .addSelect('COUNT(*)', 'count')
      .groupBy('g.category_hash')
      .getRawMany<{ hash: string; count: number | string }>();
    return new Map(raws.map((raw) => [raw.hash, Number(raw.count)]));
  }

  guidesIn(categoryHash: string): Promise<WikiCategoryGuideEntity[]> {
    return this.dataSource
      .getRepository(WikiCategoryGuideEntity)
      .find({ where: { categoryHash }, order: { title: 'ASC', guideid: 'ASC' } });
  }

  async saveGuide(facts: CategoryGuideFacts): Promise<void> {
    await this.dataSource.getRepository(WikiCategoryGuideEntity).upsert(facts, ['guideid']);
  }

  async forgetGuide(guideid: number): Promise<void> {
    await this.dataSource.getRepository(WikiCategoryGuideEntity).delete({ guideid });
  }
}
