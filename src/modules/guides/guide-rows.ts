import type { GuideEntity } from './entities/guide.entity';
import type { KnownUser } from '../users/user-facts.registry';

/** The rows guide reads give, and the SQL pieces they are selected with (guides.repository.ts). */

/** A guide with the revision to show, its grants and (optionally) the caller's marks, from one query. */
export interface GuideRow {
  guide: GuideEntity;
  revision: StoredRevision;
  translation: StoredRevision | null;
  grantedUserIds: number[];
  grantedTeamIds: number[];
  translatedLangids: string[];
  username: string;
  favorited: boolean;
  completed: boolean;
  /** The `releases` version token read with the row (for ReleaseDirectory.live's `checked`). */
  releasesToken: string | null;
  /** The author's light columns and team ids, when the read asked for them. */
  author?: KnownUser;
  /**
   * False when no public comment is on the guide or on any of its steps (the read's `commentsExistSql`);
   * undefined when not asked.
   */
  mayHaveComments?: boolean;
}

/** The guide columns a summary needs (author and visibility for the access check, language for live releases). */
export type ListedGuide = Pick<GuideEntity, 'guideid' | 'authorid' | 'langid' | 'public'>;
export const LISTED_GUIDE_PROPERTIES: (keyof ListedGuide)[] = ['guideid', 'authorid', 'langid', 'public'];

/** A row of a list: a GuideRow whose guide carries only what a summary needs. */
export type SummaryRow = Omit<GuideRow, 'guide'> & { guide: ListedGuide };

/**
 * What a read selects of a revision: everything, its rendered document (what reads serve; the saved fields are read
 * only to render it again), only the list summary, or only its facts.
 */
export type RevisionContent = 'full' | 'document' | 'summary' | 'none';

export interface StoredRevision {
  revisionid: number;
  langid: string;
  date: number;
  patrolled: boolean;
  /** Selected with 'full' content. */
  data?: unknown;
  /** Selected with 'full' and 'document' content. */
  document?: unknown;
  layout?: unknown;
  /** Selected with 'summary' content. */
  summary?: unknown;
  renderKey: string;
}

const REVISION_COLUMNS: Record<RevisionContent, [property: string, column: string][]> = {
  none: [
    ['revisionid', 'revisionid'],
    ['langid', 'langid'],
    ['date', 'date'],
    ['patrolled', 'patrolled'],
    ['renderKey', 'render_key'],
  ],
  summary: [['summary', 'summary']],
  document: [
    ['document', 'document'],
    ['layout', 'layout'],
  ],
  full: [
    ['data', 'data'],
    ['document', 'document'],
    ['layout', 'layout'],
  ],
};

/** The revision columns of type json (guide_revisions.data, document, summary). */
const JSON_COLUMNS = new Set(['data', 'document', 'summary']);

export interface GuideListFilter {
  guideids?: number[];
  types?: string[];
  modifiedSince?: number;
  includePrivate: boolean;
  featuredFlags?: readonly string[];
  order: 'ASC' | 'DESC';
  offset: number;
  limit: number;
}

export const commaSeparatedIds = (value: unknown): number[] =>
  typeof value === 'string' && value !== '' ? value.split(',').map(Number) : typeof value === 'number' ? [value] : [];

export const storedRevision = (raw: Record<string, unknown>, prefix: string): StoredRevision | null =>
  raw[`${prefix}_revisionid`] === null || raw[`${prefix}_revisionid`] === undefined
    ? null
    : {
        revisionid: Number(raw[`${prefix}_revisionid`]),
        langid: String(raw[`${prefix}_langid`]),
        date: Number(raw[`${prefix}_date`]),
        patrolled: Boolean(Number(raw[`${prefix}_patrolled`])),
        data: raw[`${prefix}_data`],
        document: raw[`${prefix}_document`],
        layout: raw[`${prefix}_layout`],
        summary: raw[`${prefix}_summary`],
        renderKey: typeof raw[`${prefix}_render_key`] === 'string' ? (raw[`${prefix}_render_key`] as string) : '',
      };

/** The guide's user and team grants, comma-separated (`g` is the guide). */
export const GRANT_COLUMNS =
  '(SELECT GROUP_CONCAT(ug.userid) FROM guide_user_grants ug WHERE ug.guideid = g.guideid) AS grant_users, ' +
  '(SELECT GROUP_CONCAT(tg.teamid) FROM guide_team_grants tg WHERE tg.guideid = g.guideid) AS grant_teams';

/** How a hand-written guide-row read is built (see GuidesRepository.rowSelect). */
export interface RowSelect {
  /** Column of `guides` naming the revision shown: the patrolled one or the newest. */
  pointer: 'revisionid' | 'head_revisionid';
  content: RevisionContent;
  /** Join the translation in a language (a parameter) and its revision under this pointer. */
  translation?: 'revisionid' | 'head_revisionid';
  /** Add the translated languages and the caller's favorite and completion marks (a parameter each). */
  languages?: boolean;
  viewer?: boolean;
  /** Leave out the grant columns (lists for callers whom grants cannot concern). */
  noGrants?: boolean;
  /** Select only the guide columns of ListedGuide (lists: every further column is a value per row to build). */
  listed?: boolean;
  /** Add the author's light columns and this subquery of its team ids (of `g.authorid`). */
  authorTeamIdsSql?: string;
  /** Add this test of comments (of `g.guideid` and GUIDE_STEPS) as `may_have_comments`. */
  commentsExistSql?: string;
}

/** Every step of the guide `g` (deleted ones and those of older revisions included), for CommentsService.publicExistSql. */
export const GUIDE_STEPS = { from: 'guide_steps s', id: 's.stepid', where: 's.guideid = g.guideid' };

/**
 * The select list of a revision aliased `alias`: its facts and the given content, each column as
 * `<alias>_<column>`, json columns as text on MySQL/MariaDB too, as SQLite gives them (mysql2 parses json
 * columns itself; reads slice the stored text).
 */
export function revisionColumns(alias: string, contents: Exclude<RevisionContent, 'none'>[], isMysql: boolean): string {
  return [...REVISION_COLUMNS.none, ...contents.flatMap((content) => REVISION_COLUMNS[content])]
    .map(([, column]) => {
      const value = isMysql && JSON_COLUMNS.has(column) ? `CAST(${alias}.${column} AS CHAR)` : `${alias}.${column}`;
      return `${value} AS ${alias}_${column}`;
    })
    .join(', ');
}
