import { AuditService } from '../../../platform/audit/audit.service';
import { Injectable } from '@nestjs/common';
import { entityTag } from '../../../common/http/conditional-get';
import { ContentVersions } from '../../../platform/versions/content-versions';
import { KeptCopies } from '../../../platform/versions/kept-copies';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user';
import { privilegesAtLeast } from '../../../common/auth/privileges';
import { InsufficientPrivilegesException, notFound, unprocessable } from '../../../common/http/api-errors';
import { TransactionService } from '../../../database/transaction.service';
import { NodeType, type WikiDoc, type WikiNode } from '../../../wikitext';
import { PolicyService } from '../../access/policy.service';
import type { DocumentObjectDto } from '../../media/dto/document-object.dto';
import type { ImageObjectDto } from '../../media/dto/image-object.dto';
import { MediaService } from '../../media/media.service';
import { WikiTextService } from '../../wikitext/wikitext.service';
import type {
  CategoryHierarchyDto,
  CategoryIdentificationDto,
  WikiDetailDto,
  WikiLightDto,
} from '../dto/wiki-response.dto';
import { MachineTranslation } from '../machine-translation';
import { DEFAULT_LANGID, normalizeTitle, parseFlags } from '../wiki-namespaces';
import { WikiReaderService } from '../wiki-reader.service';
import { parseRevisionData } from '../wiki-version';
import { WikisRepository } from '../wikis.repository';
import { CategoriesRepository, type TreeRow } from './categories.repository';

export interface HierarchyOptions {
  requireGuides?: boolean;
  includeStubs?: boolean;
  langid?: string;
  machineTranslateLangid?: string;
}

/** Nested `{title: subtree | null}`. */
export type CategoryTree = { [title: string]: CategoryTree | null };

/** A hierarchy answer as JSON text: the tree and the display titles apart, so the tree alone can be sent too. */
export interface HierarchyText {
  tree: string;
  displayTitles: string;
  /** Strong ETag of the whole answer (`{"hierarchy":…,"display_titles":…}`). */
  etag: string;
}

const STUB_FLAG = 'WIKI_STUB';
/** Kept hierarchy answers: one per (includeStubs, langid) asked for; the oldest goes first beyond this. */
const KEPT_HIERARCHIES = 16;
const IDENTIFICATION_HEADING = /^identification$/i;

/**
 * Builds the tree in memory from one query (plus one for translations and one for guide counts):
 * children are grouped by parent, nodes kept or dropped bottom-up. Categories whose parent is not live
 * are shown at the top level; nodes on a cycle (which moves never create) are unreachable and left out.
 * Nodes are addressed by their position in title order (arrays, not maps: the tree can be large).
 */
export function buildTree(
  rows: TreeRow[],
  options: { includeStubs: boolean; guideCounts?: Map<string, number> },
): { tree: CategoryTree; kept: TreeRow[] } {
  const sorted = [...rows].sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.wikiid - b.wikiid));
  const positionOf = new Map<number, number>();
  sorted.forEach((row, i) => positionOf.set(row.wikiid, i));
  const roots: number[] = [];
  const childrenOf: number[][] = new Array<number[]>(sorted.length);
  sorted.forEach((row, i) => {
    if (!options.includeStubs && parseFlags(row.flags).includes(STUB_FLAG)) return;
    const parent = row.parentWikiid === null ? undefined : positionOf.get(row.parentWikiid);
    if (parent === undefined) roots.push(i);
    else (childrenOf[parent] ??= []).push(i);
  });
  // Pre-order from the roots, then backwards: every child is settled before its parent.
  const order: number[] = [];
  const stack = [...roots];
  while (stack.length) {
    const i = stack.pop()!;
    order.push(i);
    for (const child of childrenOf[i] ?? []) stack.push(child);
  }
  // A node is kept when it has guides (if required) or a kept child; undefined: left out.
  const subtree = new Array<CategoryTree | null | undefined>(sorted.length);
  for (let k = order.length - 1; k >= 0; k--) {
    const i = order[k];
    let node: CategoryTree | null = null;
    for (const child of childrenOf[i] ?? []) {
      const kept = subtree[child];
      if (kept !== undefined) (node ??= {})[sorted[child].title] = kept;
    }
    if (node === null && options.guideCounts && !((options.guideCounts.get(sorted[i].titleHash ?? '') ?? 0) > 0)) {
      continue;
    }
    subtree[i] = node;
  }
  const tree: CategoryTree = {};
  for (const root of roots) if (subtree[root] !== undefined) tree[sorted[root].title] = subtree[root];
  return { tree, kept: sorted.filter((_, i) => subtree[i] !== undefined) };
}

/** The whole hierarchy answer from its two parts (the bytes JSON.stringify gives for `{hierarchy, display_titles}`). */
export const hierarchyJson = (text: Pick<HierarchyText, 'tree' | 'displayTitles'>): string =>
  `{"hierarchy":${text.tree},"display_titles":${text.displayTitles}}`;

/** The nodes under the heading named "Identification", up to the next heading of the same or a higher level. */
export function identificationSection(doc: WikiDoc): WikiDoc {
  const nodes = doc.content;
  const start = nodes.findIndex(
    (node) => node.type === NodeType.heading && IDENTIFICATION_HEADING.test(plainText(node).trim()),
  );
  if (start < 0) return { type: 'doc', content: [] };
  const level = Number(nodes[start].attrs?.level ?? 2);
  const section: WikiNode[] = [];
  for (const node of nodes.slice(start + 1)) {
    if (node.type === NodeType.heading && Number(node.attrs?.level ?? 2) <= level) break;
    section.push(node);
  }
  return { type: 'doc', content: section };
}

function plainText(node: WikiNode): string {
  return (node.text ?? '') + (node.content ?? []).map(plainText).join('');
}

/** The category tree: hierarchy, children, moves, identification and documents. */
@Injectable()
export class CategoriesService {
  constructor(
    private readonly categories: CategoriesRepository,
    private readonly wikis: WikisRepository,
    private readonly reader: WikiReaderService,
    private readonly wikitext: WikiTextService,
    private readonly media: MediaService,
    private readonly translation: MachineTranslation,
    private readonly policy: PolicyService,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly versions: ContentVersions,
  ) {}

  /** Hierarchy answers as text by option key, under the category-tree token they were built under. */
  private readonly kept = new KeptCopies<HierarchyText>(KEPT_HIERARCHIES);

  /**
   * The hierarchy as JSON text (the bytes JSON.stringify gives for hierarchy()). Answers without
   * requireGuides or machine translation depend on category writes only, which replace the category tree's
   * token: they are kept and sent again while the stored token is the one they were built under, for one
   * statement. That token is the one the tree's own statements read with their rows, so it names the state the
   * answer shows even when the check and the rows come from different replicas.
   */
  async hierarchyText(options: HierarchyOptions = {}): Promise<HierarchyText> {
    const keepable = !options.requireGuides && !options.machineTranslateLangid;
    const key = `${options.includeStubs ? 1 : 0}|${options.langid ?? ''}`;
    const token = keepable ? await this.versions.read('category-tree') : null;
    const kept = this.kept.get(key, token);
    if (kept !== undefined) return kept;
    const { answer, treeToken } = await this.build(options);
    const tree = JSON.stringify(answer.hierarchy);
    const displayTitles = JSON.stringify(answer.display_titles);
    const text = { tree, displayTitles, etag: entityTag(hierarchyJson({ tree, displayTitles })) };
    if (keepable && treeToken !== null) this.kept.keep(key, treeToken, text);
    return text;
  }

  async hierarchy(options: HierarchyOptions = {}): Promise<CategoryHierarchyDto> {
    return (await this.build(options)).answer;
  }

  /**
   * The hierarchy, and the category tree's token that every statement it was built from read with its rows
   * (null when they differ or there is none: on MySQL each statement may go to another replica).
   */
  private async build(options: HierarchyOptions): Promise<{ answer: CategoryHierarchyDto; treeToken: string | null }> {
    const [rows, translations, guideCounts] = await Promise.all([
      this.categories.treeRows({ titleHashes: options.requireGuides, langids: !!options.machineTranslateLangid }),
      options.langid ? this.categories.translatedTitles(options.langid) : Promise.resolve(undefined),
      options.requireGuides ? this.categories.guideCounts() : Promise.resolve(undefined),
    ]);
    const translated = translations?.titles ?? new Map<number, string>();
    const tokens = new Set([rows[0]?.treeToken ?? null]);
    if (translations?.treeToken !== undefined) tokens.add(translations.treeToken);
    const treeToken = tokens.size === 1 ? [...tokens][0] : null;
    const { tree, kept } = buildTree(rows, { includeStubs: options.includeStubs ?? false, guideCounts });
    const displayTitles: Record<string, string> = {};
    const untranslated: TreeRow[] = [];
    for (const row of kept) {
      const human = translated.get(row.wikiid);
      displayTitles[row.title] = human ?? row.displayTitle;
      if (human === undefined) untranslated.push(row);
    }
    if (options.machineTranslateLangid && untranslated.length) {
      const bySource = new Map<string, TreeRow[]>();
      for (const row of untranslated) {
        const source = row.langid ?? '';
        const group = bySource.get(source);
        if (group) group.push(row);
        else bySource.set(source, [row]);
      }
      for (const [source, group] of bySource) {
        const texts = await this.translation.translate(
          group.map((row) => row.displayTitle),
          source || DEFAULT_LANGID,
          options.machineTranslateLangid,
        );
        group.forEach((row, index) => (displayTitles[row.title] = texts[index]));
      }
    }
    return { answer: { hierarchy: tree, display_titles: displayTitles }, treeToken };
  }

  async children(rawTitle: string, langid?: string): Promise<WikiLightDto[]> {
    const version = await this.reader.readable('CATEGORY', rawTitle, { langid });
    return this.reader.toLights(await this.wikis.childrenOf(version.wiki.wikiid, langid));
  }

  /** PUT …/parent: Moderator+; the new parent must be a live category that is not the category or below it. */
  async move(rawTitle: string, parentTitle: string | null, caller: AuthenticatedUser): Promise<WikiDetailDto> {
    const version = await this.reader.readable('CATEGORY', rawTitle);
    if (!this.policy.canModerate(caller)) {
      throw new InsufficientPrivilegesException(
        privilegesAtLeast('Moderator'),
        'Moving a category requires the Moderator privilege',
      );
    }
    const wikiid = version.wiki.wikiid;
    await this.transactions.run(async () => {
      let parentWikiid: number | null = null;
      if (parentTitle !== null) {
        const parent = await this.wikis.findWiki('CATEGORY', normalizeTitle(parentTitle));
        if (!parent || parent.deleted) throw unprocessable(`No category titled ${parentTitle}`, 'parent');
        await this.wikis.lockWikis([wikiid, parent.wikiid]);
        // Walk up from the new parent (locking each row on MySQL so concurrent moves serialize).
        let cursor: number | null = parent.wikiid;
        for (let steps = 0; cursor !== null; steps += 1) {
          if (cursor === wikiid || steps > 100_000) {
            throw unprocessable('A category cannot be moved below itself or one of its descendants', 'parent');
          }
          cursor = await this.wikis.lockedParentOf(cursor);
        }
        parentWikiid = parent.wikiid;
      }
      await this.wikis.updateWiki(wikiid, { parentWikiid });
      await this.versions.bump('category-tree');
      await this.audit.record({
        action: 'category.move',
        entity: ['wiki', wikiid],
        before: { parent_wikiid: version.wiki.parentWikiid },
        after: { parent_wikiid: parentWikiid, parent: parentTitle },
      });
    });
    return this.reader.current('CATEGORY', rawTitle, {}, caller);
  }

  async identification(rawTitle: string, langid?: string): Promise<CategoryIdentificationDto> {
    const version = await this.reader.readable('CATEGORY', rawTitle, { langid });
    const parsed = await this.wikitext.render(version.shown.contents);
    const raw = this.wikitext.toRaw(identificationSection(parsed.json));
    const section = await this.wikitext.render(raw);
    const imageid = version.source.imageid;
    const images = imageid ? await this.media.imageObjects([imageid]) : new Map<number, ImageObjectDto>();
    return {
      wikiid: version.wiki.wikiid,
      title: version.wiki.title,
      display_title: version.shown.displayTitle,
      langid: version.langid,
      revisionid: version.shown.revisionid,
      image: (imageid && images.get(imageid)) || null,
      info: parseRevisionData(version.source.data).info ?? [],
      identification_raw: section.raw,
      identification_rendered: section.rendered,
      identification_json: section.json,
    };
  }

  async documents(wikiid: number): Promise<DocumentObjectDto[]> {
    const wiki = await this.wikis.findWikiById(wikiid);
    const version = wiki && wiki.namespace === 'CATEGORY' ? await this.reader.version(wiki) : undefined;
    if (!version) throw notFound('Category');
    const ids = parseRevisionData(version.source.data).documents ?? [];
    if (!ids.length) return [];
    const documents = await this.media.documentObjects(ids);
    return ids.map((id) => documents.get(id)).filter((d): d is NonNullable<typeof d> => d !== undefined);
  }
}
