import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { privilegesAtLeast } from '../../common/auth/privileges';
import { InsufficientPrivilegesException, notFound } from '../../common/http/api-errors';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { TransactionService } from '../../database/transaction.service';
import { wikiReferenceKey, type ResolvedLink } from '../../wikitext';
import { PolicyService } from '../access/policy.service';
import { TagsService } from '../tags/tags.service';
import { WikiTextService } from '../wikitext/wikitext.service';
import type { WikiTaggedDetailDto } from './dto/wiki-response.dto';
import {
  DEFAULT_LANGID,
  normalizeTitle,
  titleProblem,
  titleKey,
  wikiEditUrl,
  wikiUrl,
  type WikiNamespace,
} from './wiki-namespaces';
import { WikiReaderService } from './wiki-reader.service';
import { WikiWriterService } from './wiki-writer.service';
import { WikisRepository } from './wikis.repository';

export interface CategorySummary {
  wikiid: number;
  title: string;
  display_title: string;
  url: string;
}

export interface ItemPage {
  wikiid: number;
  title: string;
  url: string;
}

/**
 * What other modules use (guides: categories and ITEM pages), the wiki tag routes, and the wiki-text
 * loader for `[wiki|…]` references.
 */
@Injectable()
export class WikisService implements OnModuleInit {
  constructor(
    private readonly wikis: WikisRepository,
    private readonly reader: WikiReaderService,
    private readonly writer: WikiWriterService,
    private readonly tags: TagsService,
    private readonly policy: PolicyService,
    private readonly wikitext: WikiTextService,
    private readonly transactions: TransactionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.wikitext.registerLoader('wiki', async (refs) => {
      const rows = await this.wikis.lightByRefs(refs);
      return new Map<string, ResolvedLink>(
        rows.map((row) => [
          wikiReferenceKey(row.namespace, row.title),
          { title: row.displayTitle, url: wikiUrl(this.config.publicUrl, row.namespace, row.title) },
        ]),
      );
    });
  }

  /** Of `titles`, those naming a live CATEGORY wiki in any case, each mapped to the category's stored title. */
  async categoriesExist(titles: string[]): Promise<Map<string, string>> {
    const rows = await this.wikis.findByTitles('CATEGORY', titles);
    const stored = new Map(rows.filter((row) => !row.deleted).map((row) => [titleKey(row.title), row.title]));
    const found = new Map<string, string>();
    for (const title of titles) {
      const storedTitle = stored.get(titleKey(title));
      if (storedTitle !== undefined) found.set(title, storedTitle);
    }
    return found;
  }

  /** Summaries of live categories, keyed by their folded title (titleKey). */
  async categorySummaries(titles: string[]): Promise<Map<string, CategorySummary>> {
    const rows = await this.wikis.lightByRefs(titles.map((title) => ({ namespace: 'CATEGORY', title })));
    return new Map(
      rows.map((row) => [
        titleKey(row.title),
        {
          wikiid: row.wikiid,
          title: row.title,
          display_title: row.displayTitle,
          url: wikiUrl(this.config.publicUrl, 'CATEGORY', row.title),
        },
      ]),
    );
  }

  /**
   * ITEM pages for parts and tools, keyed by the name given; missing ones are created (authored by
   * `author`, with `summary` as description and `url` as a supplier link). Existing pages, deleted ones
   * included, are returned as they are. No policy check: the caller already authorized the guide edit.
   */
  async ensureItems(
    items: { name: string; summary?: string; url?: string }[],
    author: AuthenticatedUser,
  ): Promise<Map<string, ItemPage>> {
    if (!items.length) return new Map();
    const work = async () => {
      const titles = items.map((item) => normalizeTitle(item.name));
      const existing = new Map(
        (await this.wikis.findByTitles('ITEM', titles)).map((wiki) => [titleKey(wiki.title), wiki]),
      );
      const result = new Map<string, ItemPage>();
      for (const item of items) {
        const title = normalizeTitle(item.name);
        if (!title) continue;
        let wiki = existing.get(titleKey(title));
        if (!wiki) {
          if (titleProblem(title)) continue;
          wiki = await this.writer.insertWiki(
            {
              namespace: 'ITEM',
              title,
              langid: DEFAULT_LANGID,
              parentWikiid: null,
              values: {
                displayTitle: title,
                summary: (item.summary ?? '').slice(0, 1000),
                contents: '',
                imageid: null,
                flags: '',
                data: JSON.stringify(
                  item.url ? { suppliers: [{ 'part_#': '', type: '', supplier: '', url: item.url }] } : {},
                ),
              },
            },
            author.userid,
          );
          existing.set(titleKey(title), wiki);
        }
        result.set(item.name, {
          wikiid: wiki.wikiid,
          title: wiki.title,
          url: wikiUrl(this.config.publicUrl, 'ITEM', wiki.title),
        });
      }
      return result;
    };
    return this.transactions.run(work);
  }

  // ---- tags -----------------------------------------------------------------------------------------

  async tagsOf(namespace: WikiNamespace, rawTitle: string): Promise<string[]> {
    const version = await this.reader.readable(namespace, rawTitle);
    return (await this.tags.tagsOf('wiki', [version.wiki.wikiid])).get(version.wiki.wikiid) ?? [];
  }

  async addTag(
    namespace: WikiNamespace,
    rawTitle: string,
    tag: string,
    caller: AuthenticatedUser,
  ): Promise<WikiTaggedDetailDto> {
    const version = await this.reader.readable(namespace, rawTitle);
    this.requireModerator(caller);
    await this.tags.add('wiki', version.wiki.wikiid, tag);
    return this.taggedDetail(namespace, rawTitle, caller);
  }

  /** 404 when the wiki does not carry the tag (compared case-insensitively, as tags are). */
  async removeTag(
    namespace: WikiNamespace,
    rawTitle: string,
    tag: string,
    caller: AuthenticatedUser,
  ): Promise<WikiTaggedDetailDto> {
    const version = await this.reader.readable(namespace, rawTitle);
    this.requireModerator(caller);
    const name = this.tags.normalize(tag).toLowerCase();
    const current = (await this.tags.tagsOf('wiki', [version.wiki.wikiid])).get(version.wiki.wikiid) ?? [];
    if (!current.some((t) => t.toLowerCase() === name)) throw notFound('Tag');
    await this.tags.remove('wiki', version.wiki.wikiid, tag);
    return this.taggedDetail(namespace, rawTitle, caller);
  }

  private async taggedDetail(
    namespace: WikiNamespace,
    rawTitle: string,
    caller: AuthenticatedUser,
  ): Promise<WikiTaggedDetailDto> {
    const detail = await this.reader.toDetail(await this.reader.readable(namespace, rawTitle), caller);
    const url = wikiUrl(this.config.publicUrl, detail.namespace, detail.title);
    return {
      ...detail,
      url,
      fullUrl: url,
      editUrl: wikiEditUrl(this.config.publicUrl, detail.namespace, detail.title),
    };
  }

  private requireModerator(caller: AuthenticatedUser): void {
    if (!this.policy.canModerate(caller)) {
      throw new InsufficientPrivilegesException(
        privilegesAtLeast('Moderator'),
        'Tagging a wiki requires the Moderator privilege',
      );
    }
  }
}
