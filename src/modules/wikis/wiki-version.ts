import type { WikiLanguageEntity } from './entities/wiki-language.entity';
import type { WikiRevisionData, WikiRevisionEntity } from './entities/wiki-revision.entity';
import type { WikiEntity } from './entities/wiki.entity';

/** One readable version of a wiki: the language shown, its revision, and the source-language revision. */
export interface WikiVersion {
  wiki: WikiEntity;
  languages: WikiLanguageEntity[];
  /** Language of the text shown. */
  langid: string;
  /** The revision whose contents, display title and description are shown. */
  shown: WikiRevisionEntity;
  /** The source-language revision: image, flags and the namespace-specific fields come from it. */
  source: WikiRevisionEntity;
  sourceRevisionid: number | null;
  availableLangids: string[];
  /** The `releases` version token read with it (for ReleaseDirectory.live's `checked`). */
  releasesToken: string | null;
  /** The `category-tree` version token read with it (a category's kept family). */
  treeToken: string | null;
}

export function parseRevisionData(stored: string): WikiRevisionData {
  try {
    const parsed: unknown = JSON.parse(stored || '{}');
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

/** What a read loads (in one query, see WikisRepository.versionSource) for `pickVersion`. */
export interface VersionSource {
  wiki: WikiEntity;
  /** Every language version, by langid. */
  languages: WikiLanguageEntity[];
  /** At least the revisions the read options point at in the source and the requested language. */
  revisions: Map<number, WikiRevisionEntity>;
  /** Languages whose newest patrolled revision exists and is not a deletion. */
  liveLangids: Set<string>;
  releasesToken: string | null;
  treeToken: string | null;
}

/**
 * Picks the revisions to show: the newest patrolled one (or the newest with `unpatrolled`) of the
 * requested language when it is live, else of the source language. Undefined when the source
 * language's revision is a deletion (the wiki reads as 404), unless `allowDeleted` (409 bodies).
 */
export function pickVersion(
  { wiki, languages, revisions, liveLangids, releasesToken, treeToken }: VersionSource,
  options: { langid?: string; unpatrolled: boolean; allowDeleted?: boolean },
): WikiVersion | undefined {
  const pointer = (language: WikiLanguageEntity | undefined) =>
    language ? (options.unpatrolled ? language.headRevisionid : language.revisionid) : null;
  const master = languages.find((l) => l.langid === wiki.langid);
  const masterId = pointer(master);
  const source = masterId === null ? undefined : revisions.get(masterId);
  if (!source || (source.deleted && !options.allowDeleted)) return undefined;
  let shown = source;
  let shownLanguage = master;
  if (options.langid && options.langid !== wiki.langid) {
    const language = languages.find((l) => l.langid === options.langid);
    const id = pointer(language);
    const translated = id === null ? undefined : revisions.get(id);
    if (translated && !translated.deleted) {
      shown = translated;
      shownLanguage = language;
    }
  }
  return {
    wiki,
    languages,
    langid: shown.langid,
    shown,
    source,
    sourceRevisionid: shownLanguage?.sourceRevisionid ?? null,
    availableLangids: languages.filter((l) => liveLangids.has(l.langid)).map((l) => l.langid),
    releasesToken,
    treeToken,
  };
}
