import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { notFound, unprocessable } from '../../common/http/api-errors';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { collectReferences } from '../../wikitext';
import { PolicyService } from '../access/policy.service';
import { MediaService } from '../media/media.service';
import { TagsService } from '../tags/tags.service';
import { EventBus } from '../../platform/events/event-bus';
import { Clock } from '../../platform/clock/clock';
import { ReleaseDirectory } from '../../platform/documents/release-directory';
import { RecentlySeen } from '../../common/recently-seen';
import { deepFreeze } from '../../common/deep-freeze';
import { KeptCopies } from '../../platform/versions/kept-copies';
import { WikiViewed } from './wiki.events';

/** One view per user and wiki per minute (per instance). */
const VIEW_WINDOW_MS = 60_000;
/** Categories (per language shown) whose family an instance keeps. */
const KEPT_FAMILIES = 20_000;
import { WikiTextService } from '../wikitext/wikitext.service';
import type { WikiEntity } from './entities/wiki.entity';
import type { WikiCategoryGuideEntity } from './entities/wiki-category-guide.entity';
import type { DocumentObjectDto } from '../media/dto/document-object.dto';
import type { ImageObjectDto } from '../media/dto/image-object.dto';
import type { LinkedWikiDto, WikiDetailDto, WikiLightDto } from './dto/wiki-response.dto';
import { CategoriesRepository } from './categories/categories.repository';
import { CategoryContents } from './categories/category-contents';
import {
  isWikiNamespace,
  NAMESPACE_RULES,
  parseFlags,
  titleFromPath,
  wikiKey,
  wikiUrl,
  type WikiNamespace,
} from './wiki-namespaces';
import { parseRevisionData, pickVersion, type WikiVersion } from './wiki-version';
import { WikisRepository, type CategoryFamily, type LightWikiRow } from './wikis.repository';

/** Reads of a detail that do not depend on the revision shown, started before it is settled. */
interface StartedReads {
  tags: Promise<Map<number, string[]>>;
  category?: Promise<[CategoryFamily, WikiCategoryGuideEntity[]]>;
}

export interface ReadOptions {
  langid?: string;
  unpatrolled?: boolean;
  /** The newest revision even when it is a deletion: the current resource of a 409. */
  allowDeleted?: boolean;
}

/** Namespace from a path: case-insensitive; unknown is a 422. */
export function parseNamespace(raw: string): WikiNamespace {
  const namespace = raw.toUpperCase();
  if (!isWikiNamespace(namespace)) throw unprocessable(`Unknown wiki namespace ${raw}`, 'namespace');
  return namespace;
}

/**
 * The tables an anonymous wiki detail is built from, its rendered text's references included (answer-sources.ts):
 * a write that changes rows of one replaces the token its cached answers are kept under. kept-wiki-answers.e2e-spec.ts
 * checks the list against the statements a detail runs.
 */
export const WIKI_ANSWER_SOURCES = [
  'wikis',
  'wiki_revisions',
  'wiki_languages',
  'wiki_category_guides',
  'tags',
  'document_tags',
  'images',
  'documents',
  'guides',
  'guide_revisions',
  'users',
  'releases',
] as const;

/** Reads: versions, details and light objects (lists, children, ancestors). */
@Injectable()
export class WikiReaderService {
  private readonly recentViews = new RecentlySeen(VIEW_WINDOW_MS);
  /**
   * A category's ancestors and children as light rows, per (wikiid, language shown), under the `category-tree`
   * token their statement read: they come from categories only, and every category write replaces the token.
   */
  private readonly keptFamilies = new KeptCopies<CategoryFamily>(KEPT_FAMILIES);

  constructor(
    private readonly wikis: WikisRepository,
    private readonly categories: CategoriesRepository,
    private readonly contents: CategoryContents,
    private readonly wikitext: WikiTextService,
    private readonly policy: PolicyService,
    private readonly media: MediaService,
    private readonly tags: TagsService,
    private readonly events: EventBus,
    private readonly clock: Clock,
    private readonly releases: ReleaseDirectory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get publicUrl(): string {
    return this.config.publicUrl;
  }

  /** The wiki row (deleted ones included) or 404. */
  async findWiki(namespace: WikiNamespace, rawTitle: string): Promise<WikiEntity> {
    const wiki = await this.wikis.findWiki(namespace, titleFromPath(rawTitle));
    if (!wiki) throw notFound('Wiki');
    return wiki;
  }

  async version(wiki: WikiEntity, options: ReadOptions = {}): Promise<WikiVersion | undefined> {
    const unpatrolled = options.unpatrolled ?? false;
    const source = await this.wikis.versionSource({ wikiid: wiki.wikiid }, { langid: options.langid, unpatrolled });
    return source && pickVersion({ ...source, wiki }, { ...options, unpatrolled });
  }

  /** The body of a 409: the wiki at its newest revision in that language (a deletion included). */
  async conflictBody(
    namespace: WikiNamespace,
    rawTitle: string,
    langid: string | undefined,
    caller: AuthenticatedUser,
  ) {
    return this.toDetail(
      await this.readable(namespace, rawTitle, { langid, unpatrolled: true, allowDeleted: true }),
      caller,
    );
  }

  /** A readable version or 404 (deleted wikis read as missing): one query. */
  async readable(namespace: WikiNamespace, rawTitle: string, options: ReadOptions = {}): Promise<WikiVersion> {
    const unpatrolled = options.unpatrolled ?? false;
    const source = await this.wikis.versionSource(
      { namespace, title: titleFromPath(rawTitle) },
      { langid: options.langid, unpatrolled },
    );
    const version = source && pickVersion(source, { ...options, unpatrolled });
    if (!version) throw notFound('Wiki');
    return version;
  }

  /** The detail a write answers with (not a read: no view recorded). */
  async current(
    namespace: WikiNamespace,
    rawTitle: string,
    options: ReadOptions,
    caller: AuthenticatedUser,
  ): Promise<WikiDetailDto> {
    return this.toDetail(await this.readable(namespace, rawTitle, options), caller);
  }

  /** GET /wikis/{namespace}/{title}; records the view for an authenticated caller. */
  async detail(
    namespace: WikiNamespace,
    rawTitle: string,
    options: ReadOptions,
    caller?: AuthenticatedUser,
  ): Promise<WikiDetailDto> {
    // Unpatrolled content is for editors (docs/api-conventions.md): anyone else asking for it gets the patrolled
    // revision.
    const unpatrolled =
      !!options.unpatrolled && (await this.policy.canEditWiki(caller, { namespace, title: titleFromPath(rawTitle) }));
    let version = await this.readable(namespace, rawTitle, { ...options, unpatrolled });
    // What does not depend on the revision shown is read while the live release is looked up (on MySQL, one
    // round trip instead of three one after another).
    const started = this.startReads(version.wiki, version.langid, version.treeToken);
    // Once a release is live, readers who are not editors see its revision (docs/enterprise/releases.md).
    if (!(await this.policy.canEditWiki(caller, { namespace, title: version.wiki.title }))) {
      version = await this.pinToLiveReleases(version);
    }
    const wikiid = version.wiki.wikiid;
    if (caller && this.recentViews.firstIn(`${caller.userid}:${wikiid}`, this.clock.now())) {
      this.events.publishDetached(WikiViewed({ userid: caller.userid, wikiid, date: this.clock.nowSeconds() }));
    }
    return this.toDetail(version, caller, started);
  }

  /** The tags and, for a category, its family and guides, started now (failures surface where awaited). */
  private startReads(wiki: WikiEntity, langid: string, treeToken: string | null): StartedReads {
    const started: StartedReads = {
      tags: this.tags.tagsOf('wiki', [wiki.wikiid]),
      category: wiki.namespace === 'CATEGORY' ? this.categoryReads(wiki, langid, treeToken) : undefined,
    };
    // Awaited later, or not at all when the request fails first: never an unhandled rejection.
    started.tags.catch(() => undefined);
    started.category?.catch(() => undefined);
    return started;
  }

  /** The version with the live releases' revisions (source language, and the language shown) in place. */
  private async pinToLiveReleases(version: WikiVersion): Promise<WikiVersion> {
    const { wiki } = version;
    const [source, shown] = await Promise.all([
      this.releases.liveOne('WIKI', wiki.wikiid, wiki.langid, version.releasesToken),
      version.langid === wiki.langid
        ? null
        : this.releases.liveOne('WIKI', wiki.wikiid, version.langid, version.releasesToken),
    ]);
    if (!source && !shown) return version;
    const revisions = await this.wikis.revisions(
      [source?.revisionid, shown?.revisionid].filter((id): id is number => id !== undefined),
    );
    const sourceRevision = (source && revisions.get(source.revisionid)) || version.source;
    const shownRevision =
      version.langid === wiki.langid ? sourceRevision : (shown && revisions.get(shown.revisionid)) || version.shown;
    return { ...version, source: sourceRevision, shown: shownRevision };
  }

  async toDetail(
    version: WikiVersion,
    caller: AuthenticatedUser | undefined,
    started?: StartedReads,
  ): Promise<WikiDetailDto> {
    const { wiki, shown, source } = version;
    const namespace = wiki.namespace as WikiNamespace;
    const data = parseRevisionData(source.data);
    const [rendered, tagMap, images, canEdit] = await Promise.all([
      this.wikitext.render(shown.contents),
      started?.tags ?? this.tags.tagsOf('wiki', [wiki.wikiid]),
      source.imageid ? this.media.imageObjects([source.imageid]) : Promise.resolve(new Map<number, ImageObjectDto>()),
      this.policy.canEditWiki(caller, { namespace: wiki.namespace, title: wiki.title }),
    ]);
    const linked = await this.linkedWikis(collectReferences(rendered.json).wikis);
    const detail: WikiDetailDto = {
      wikiid: wiki.wikiid,
      langid: version.langid,
      namespace: wiki.namespace,
      title: wiki.title,
      display_title: shown.displayTitle,
      revisionid: shown.revisionid,
      modified_date: shown.date,
      created_date: wiki.createdDate,
      author: wiki.authorid,
      contents_raw: shown.contents,
      contents_rendered: rendered.rendered,
      contents_json: rendered.json,
      linked_wikis: linked,
      image: (source.imageid && images.get(source.imageid)) || null,
      flags: parseFlags(source.flags),
      tags: tagMap.get(wiki.wikiid) ?? [],
      table_of_contents: data.table_of_contents === true,
      can_edit: canEdit,
      available_langids: version.availableLangids,
      source_revisionid: version.sourceRevisionid,
    };
    const returned = NAMESPACE_RULES[namespace].returned;
    if (returned.includes('description')) detail.description = shown.summary;
    if (returned.includes('info')) detail.info = data.info ?? [];
    if (returned.includes('suppliers')) detail.suppliers = (data.suppliers ?? []).map((s) => ({ ...s }));
    if (returned.includes('repairability_score')) detail.repairability_score = data.repairability_score ?? null;
    if (namespace === 'CATEGORY')
      await this.addCategoryFields(detail, version, data.documents ?? [], caller, started?.category);
    return detail;
  }

  /** A category's live ancestors and children, and its guides. */
  private categoryReads(
    wiki: WikiEntity,
    langid: string,
    treeToken: string | null,
  ): NonNullable<StartedReads['category']> {
    return Promise.all([this.familyOf(wiki.wikiid, langid, treeToken), this.categories.guidesIn(wiki.titleHash)]);
  }

  /** The kept family under `checked` (a token read in a statement of the caller's), or the rows (then kept). */
  private async familyOf(wikiid: number, langid: string, checked: string | null): Promise<CategoryFamily> {
    const key = `${wikiid}:${langid}`;
    const kept = this.keptFamilies.get(key, checked);
    if (kept) return kept;
    const { family, token } = await this.wikis.familyOf(wikiid, langid);
    this.keptFamilies.keepCommitted(key, token, deepFreeze(family));
    return family;
  }

  private async addCategoryFields(
    detail: WikiDetailDto,
    version: WikiVersion,
    documentids: number[],
    caller: AuthenticatedUser | undefined,
    started?: StartedReads['category'],
  ) {
    const [[{ ancestors, children }, facts], documents] = await Promise.all([
      started ?? this.categoryReads(version.wiki, version.langid, version.treeToken),
      documentids.length
        ? this.media.documentObjects(documentids)
        : Promise.resolve(new Map<number, DocumentObjectDto>()),
    ]);
    const [lights, contents] = await Promise.all([
      this.toLights([...ancestors, ...children]),
      this.contents.of(
        version.wiki.title,
        facts.map((fact) => fact.guideid),
        version.langid,
        caller,
      ),
    ]);
    detail.parent = ancestors[0]?.title ?? null;
    detail.ancestors = lights.slice(0, ancestors.length);
    detail.children = lights.slice(ancestors.length);
    Object.assign(detail, contents);
    detail.documents = documentids
      .map((id) => documents.get(id))
      .filter((d): d is DocumentObjectDto => d !== undefined);
  }

  /** Existing wikis among references, in order of first appearance. */
  async linkedWikis(refs: { namespace: string; title: string }[]): Promise<LinkedWikiDto[]> {
    const rows = await this.wikis.lightByRefs(refs);
    const byKey = new Map(rows.map((row) => [wikiKey(row.namespace, row.title), row]));
    return refs
      .map((ref) => byKey.get(wikiKey(ref.namespace, ref.title)))
      .filter((row): row is LightWikiRow => !!row)
      .map((row) => ({ wikiid: row.wikiid, namespace: row.namespace, title: row.title }));
  }

  /** Light objects for rows, with every image loaded in one call. */
  async toLights(rows: LightWikiRow[]): Promise<WikiLightDto[]> {
    const imageids = [...new Set(rows.map((row) => row.imageid).filter((id): id is number => id !== null))];
    const images = imageids.length ? await this.media.imageObjects(imageids) : new Map<number, ImageObjectDto>();
    return rows.map((row) => ({
      dataType: 'wiki',
      wikiid: row.wikiid,
      namespace: row.namespace,
      title: row.title,
      display_title: row.displayTitle,
      langid: row.langid,
      summary: row.summary,
      text: row.summary,
      url: wikiUrl(this.publicUrl, row.namespace, row.title),
      image: (row.imageid !== null && images.get(row.imageid)) || null,
      modified_date: row.modifiedDate,
    }));
  }
}
