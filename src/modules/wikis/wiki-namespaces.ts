import { createHash } from 'node:crypto';
import { wellFormed } from '../../common/validation/input-guards';

export const WIKI_NAMESPACES = ['CATEGORY', 'ITEM', 'TEAM', 'USER', 'INFO', 'WIKI'] as const;
export type WikiNamespace = (typeof WIKI_NAMESPACES)[number];

export const isWikiNamespace = (value: string): value is WikiNamespace =>
  (WIKI_NAMESPACES as readonly string[]).includes(value);

/** Body fields of POST /wikis and PATCH /wikis/{namespace}/{title} beyond namespace/title/langid. */
export type WikiWritableField =
  | 'contents'
  | 'display_title'
  | 'description'
  | 'image'
  | 'flags'
  | 'parent'
  | 'info'
  | 'suppliers'
  | 'documents'
  | 'repairability_score'
  | 'table_of_contents';

/** Detail fields present only for some namespaces (the common ones are always there). */
export type WikiNamespaceField =
  | 'description'
  | 'parent'
  | 'ancestors'
  | 'children'
  | 'guides'
  | 'featured_guides'
  | 'parts'
  | 'tools'
  | 'documents'
  | 'info'
  | 'suppliers'
  | 'repairability_score';

export interface NamespaceRules {
  /** Accepted at create; at edit the same minus `parent` (moves go through PUT …/parent). */
  writable: readonly WikiWritableField[];
  /** Namespace-specific fields of the detail response. */
  returned: readonly WikiNamespaceField[];
  /** Path prefix of the page URL. */
  urlPrefix: string;
}

/**
 * THE per-namespace field table (from iFixit's Wiki schema: description for WIKI/INFO/CATEGORY/ITEM,
 * info for CATEGORY/ITEM, suppliers for ITEM, documents/guides/children/parent/repairability_score for
 * CATEGORY). Every wiki also returns the common fields: wikiid, langid, namespace, title, display_title,
 * revisionid, modified_date, created_date, author, contents_raw/_rendered/_json, linked_wikis, image,
 * flags, tags, can_edit, available_langids, source_revisionid. USER and TEAM pages take their display
 * title from the user/team and carry only contents and image.
 */
export const NAMESPACE_RULES: Record<WikiNamespace, NamespaceRules> = {
  CATEGORY: {
    writable: [
      'contents',
      'display_title',
      'description',
      'image',
      'flags',
      'parent',
      'info',
      'documents',
      'repairability_score',
      'table_of_contents',
    ],
    returned: [
      'description',
      'parent',
      'ancestors',
      'children',
      'guides',
      'featured_guides',
      'parts',
      'tools',
      'documents',
      'info',
      'repairability_score',
    ],
    urlPrefix: 'c',
  },
  ITEM: {
    writable: ['contents', 'display_title', 'description', 'image', 'flags', 'info', 'suppliers', 'table_of_contents'],
    returned: ['description', 'info', 'suppliers'],
    urlPrefix: 'Item',
  },
  TEAM: { writable: ['contents', 'image', 'table_of_contents'], returned: [], urlPrefix: 'Team' },
  USER: { writable: ['contents', 'image', 'table_of_contents'], returned: [], urlPrefix: 'User' },
  INFO: {
    writable: ['contents', 'display_title', 'description', 'image', 'flags', 'table_of_contents'],
    returned: ['description'],
    urlPrefix: 'Info',
  },
  WIKI: {
    writable: ['contents', 'display_title', 'description', 'image', 'flags', 'table_of_contents'],
    returned: ['description'],
    urlPrefix: 'Wiki',
  },
};

/** Fields a translation (a language other than the source language) carries itself; the rest come from the source. */
export const TRANSLATABLE_FIELDS: readonly WikiWritableField[] = ['contents', 'display_title', 'description'];

/**
 * Wiki flags. `WIKI_STUB` marks a stub category: left out of the hierarchy unless `includeStubs`.
 */
export const WIKI_FLAGS = ['WIKI_STUB', 'WIKI_IN_PROGRESS', 'WIKI_OUTDATED'] as const;

export const DEFAULT_LANGID = 'en';
export const LANGID_PATTERN = /^[a-z]{2}$/;

/** Wiki text is stored in a TEXT column (64 KiB on MySQL); longer contents are refused on both dialects. */
export const MAX_CONTENTS_BYTES = 65_535;

/** Titles in paths are URL-decoded by the router; underscores stand for spaces. */
export function titleFromPath(raw: string): string {
  return raw.replace(/_/g, ' ').trim();
}

/** Stored form of a submitted title: underscores become spaces, runs of whitespace one space. */
export function normalizeTitle(raw: string): string {
  return raw.replace(/_/g, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * Why a normalized title cannot name a wiki, or undefined. `.` and `..` are steps in a URL path, never a segment:
 * clients resolve them away, so no URL could read the wiki.
 */
export function titleProblem(title: string): string | undefined {
  if (!title) return 'title must not be empty';
  if (title === '.' || title === '..') return 'title must not be . or .., which URLs cannot address';
  return undefined;
}

/**
 * A title's identity: titles that differ only by letter case name the same wiki, as MySQL's default collation
 * compares them. The fold is `toLowerCase()` (locale-independent); accents are not folded. Responses keep the
 * stored spelling.
 */
export function titleKey(title: string): string {
  return title.toLowerCase();
}

/** Map key of a wiki: namespace and folded title. */
export function wikiKey(namespace: string, title: string): string {
  return `${namespace}\u0000${titleKey(title)}`;
}

/** SHA-256 of the folded title: the indexed identity (`title_hash`, `category_hash`). */
export function titleHash(title: string): string {
  return createHash('sha256').update(titleKey(title), 'utf8').digest('hex');
}

export function wikiPath(namespace: string, title: string): string {
  const prefix = isWikiNamespace(namespace) ? NAMESPACE_RULES[namespace].urlPrefix : 'Wiki';
  return `/${prefix}/${encodeURIComponent(wellFormed(title).replace(/ /g, '_'))}`;
}

export function wikiUrl(publicUrl: string, namespace: string, title: string): string {
  return `${publicUrl}${wikiPath(namespace, title)}`;
}

export function wikiEditUrl(publicUrl: string, namespace: string, title: string): string {
  return `${publicUrl}/Edit${wikiPath(namespace, title)}`;
}

export function guideUrl(publicUrl: string, guideid: number, title: string): string {
  return `${publicUrl}/Guide/${encodeURIComponent(wellFormed(title).replace(/ /g, '_'))}/${guideid}`;
}

export function parseFlags(stored: string): string[] {
  return stored ? stored.split(',').filter(Boolean) : [];
}
