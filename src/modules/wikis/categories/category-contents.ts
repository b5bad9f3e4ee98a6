import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user';
import { FEATURED_FLAGS } from '../../../common/flags/guide-flags';
import type { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { GuideDirectory, type GuideSummaryView } from '../../../platform/documents/guide-directory';
import type { ImageObjectDto } from '../../media/dto/image-object.dto';
import { MediaService } from '../../media/media.service';
import type { CategoryPartsDto, CategoryToolDto } from '../dto/wiki-response.dto';
import { wikiUrl } from '../wiki-namespaces';
import { WikisRepository, type LightWikiRow } from '../wikis.repository';

export interface CategoryContentFields {
  guides: GuideSummaryView[];
  featured_guides: GuideSummaryView[];
  parts: CategoryPartsDto;
  tools: CategoryToolDto[];
}

const featured = new Set<string>(FEATURED_FLAGS);
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * What a category detail shows of its guides: their summaries (as GET /guides lists them, for the caller), the
 * featured ones, and the ITEM pages they use as parts and tools. A fixed number of statements, whatever the
 * number of guides: the summaries, the revisions' parts and tools, the ITEM pages, their images.
 */
@Injectable()
export class CategoryContents {
  constructor(
    private readonly guides: GuideDirectory,
    private readonly wikis: WikisRepository,
    private readonly media: MediaService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `guideids`: the category's guides in the order shown; `langid`: the language the detail is shown in. */
  async of(
    categoryTitle: string,
    guideids: number[],
    langid: string,
    caller: AuthenticatedUser | undefined,
  ): Promise<CategoryContentFields> {
    const guides = await this.guides.summaries(guideids, caller);
    const items = await this.guides.items(guides.map((guide) => guide.revisionid));
    const partUses = new Map<number, number>();
    const toolIds = new Set<number>();
    for (const guide of guides) {
      const used = items.get(guide.revisionid);
      for (const wikiid of new Set(used?.parts.map((part) => part.wikiid))) {
        partUses.set(wikiid, (partUses.get(wikiid) ?? 0) + 1);
      }
      used?.tools.forEach((tool) => toolIds.add(tool.wikiid));
    }
    const pages = await this.wikis.lightByIds([...new Set([...partUses.keys(), ...toolIds])], langid);
    const pageOf = new Map(pages.filter((page) => page.namespace === 'ITEM').map((page) => [page.wikiid, page]));
    const categories = [...partUses]
      .flatMap(([wikiid, count]) => {
        const page = pageOf.get(wikiid);
        return page ? [{ name: page.title, tag: page.title, url: this.url(page), count }] : [];
      })
      .sort((a, b) => byText(a.name, b.name));
    return {
      guides,
      featured_guides: guides.filter((guide) => guide.flags.some((flag) => featured.has(flag))),
      parts: { url: wikiUrl(this.config.publicUrl, 'CATEGORY', categoryTitle), total: categories.length, categories },
      tools: await this.tools([...toolIds].flatMap((wikiid) => pageOf.get(wikiid) ?? [])),
    };
  }

  private async tools(pages: LightWikiRow[]): Promise<CategoryToolDto[]> {
    const imageids = pages.flatMap((page) => (page.imageid === null ? [] : [page.imageid]));
    const images = imageids.length ? await this.media.imageObjects(imageids) : new Map<number, ImageObjectDto>();
    return pages
      .map((page) => ({
        title: page.displayTitle || page.title,
        target_url: this.url(page),
        image_url: (page.imageid !== null && images.get(page.imageid)?.standard) || this.media.noImageUrl('standard'),
        itemcode: null,
      }))
      .sort((a, b) => byText(a.title, b.title));
  }

  private url(page: LightWikiRow): string {
    return wikiUrl(this.config.publicUrl, page.namespace, page.title);
  }
}
