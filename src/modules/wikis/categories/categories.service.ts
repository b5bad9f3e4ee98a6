import { Injectable } from '@nestjs/common';
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

const STUB_FLAG = 'WIKI_STUB';
const IDENTIFICATION_HEADING = /^identification$/i;

/**
 * Builds the tree in memory from one query (plus one for translations and one for guide counts):
 * children are grouped by parent, nodes kept or dropped bottom-up. Categories whose parent is not live
 * are shown at the top level; nodes on a cycle (which moves never create) are unreachable and left out.
 */
export function buildTree(
  rows: TreeRow[],
  options: { includeStubs: boolean; guideCounts?: Map<string, number> },
): { tree: CategoryTree; kept: TreeRow[] } {
  const sorted = [...rows].sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.wikiid - b.wikiid));
  const live = new Set(sorted.map((row) => row.wikiid));
  const childrenOf = new Map<number | null, TreeRow[]>();
  for (const row of sorted) {
    if (!options.includeStubs && parseFlags(row.flags).includes(STUB_FLAG)) continue;
    const parent = row.parentWikiid !== null && live.has(row.parentWikiid) ? row.parentWikiid : null;
    const siblings = childrenOf.get(parent);
    if (siblings) siblings.push(row);
    else childrenOf.set(parent, [row]);
  }
  // Iterative post-order: a node is kept when it has guides (if required) or a kept child.
  const subtree = new Map<number, CategoryTree | null>();
  const order: TreeRow[] = [];
  const stack: TreeRow[] = [...(childrenOf.get(null) ?? [])];
  while (stack.length) {
    const row = stack.pop()!;
    order.push(row);
    stack.push(...(childrenOf.get(row.wikiid) ?? []));
  }
  const kept = new Set<number>();
  for (let i = order.length - 1; i >= 0; i--) {
    const row = order[i];
    const children = (childrenOf.get(row.wikiid) ?? []).filter((child) => kept.has(child.wikiid));
    const hasGuides = !options.guideCounts || (options.guideCounts.get(row.titleHash) ?? 0) > 0;
    if (!children.length && !hasGuides) continue;
    kept.add(row.wikiid);
    if (!children.length) {
      subtree.set(row.wikiid, null);
      continue;
    }
    const node: CategoryTree = {};
    for (const child of children) node[child.title] = subtree.get(child.wikiid) ?? null;
    subtree.set(row.wikiid, node);
  }
  const tree: CategoryTree = {};
  for (const root of childrenOf.get(null) ?? [])
    if (kept.has(root.wikiid)) tree[root.title] = subtree.get(root.wikiid) ?? null;
  return { tree, kept: sorted.filter((row) => kept.has(row.wikiid)) };
}

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
  ) {}

  async hierarchy(options: HierarchyOptions = {}): Promise<CategoryHierarchyDto> {
    const [rows, translated, guideCounts] = await Promise.all([
      this.categories.treeRows(),
      options.langid ? this.categories.translatedTitles(options.langid) : Promise.resolve(new Map<number, string>()),
      options.requireGuides ? this.categories.guideCounts() : Promise.resolve(undefined),
    ]);
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
      for (const row of untranslated) bySource.set(row.langid, [...(bySource.get(row.langid) ?? []), row]);
      for (const [source, group] of bySource) {
        const texts = await this.translation.translate(
          group.map((row) => row.displayTitle),
          source || DEFAULT_LANGID,
          options.machineTranslateLangid,
        );
        group.forEach((row, index) => (displayTitles[row.title] = texts[index]));
      }
    }
    return { hierarchy: tree, display_titles: displayTitles };
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
    await this.transactions.run(async ({ manager }) => {
      let parentWikiid: number | null = null;
      if (parentTitle !== null) {
        const parent = await this.wikis.findWiki('CATEGORY', normalizeTitle(parentTitle), manager);
        if (!parent || parent.deleted) throw unprocessable(`No category titled ${parentTitle}`, 'parent');
        await this.wikis.lockWikis([wikiid, parent.wikiid], manager);
        // Walk up from the new parent (locking each row on MySQL so concurrent moves serialize).
        let cursor: number | null = parent.wikiid;
        for (let steps = 0; cursor !== null; steps += 1) {
          if (cursor === wikiid || steps > 100_000) {
            throw unprocessable('A category cannot be moved below itself or one of its descendants', 'parent');
          }
          cursor = await this.wikis.lockedParentOf(cursor, manager);
        }
        parentWikiid = parent.wikiid;
      }
      await this.wikis.updateWiki(wikiid, { parentWikiid }, manager);
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
