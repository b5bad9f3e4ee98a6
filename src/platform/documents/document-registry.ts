import { HttpStatus, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ApiException, notFound } from '../../common/http/api-errors';

/** The content kinds enterprise modules work on (docs/enterprise/overview.md: `GUIDE`|`WIKI` in bodies, lower-case in paths). */
export const DOCTYPES = ['GUIDE', 'WIKI'] as const;
export type DocType = (typeof DOCTYPES)[number];

/** What other modules may know about a guide or wiki without importing its module. */
export interface DocumentInfo {
  doctype: DocType;
  docid: number;
  title: string;
  url: string;
  /** The source language. */
  langid: string;
  /** The guide's author; for wikis the creator (null when unknown). */
  authorid: number | null;
  /** The newest patrolled revision of the source language (what a release freezes by default). */
  revisionid: number;
}

/** A revision of a document, with its canonical content (what a signature's record_hash covers). */
export interface DocumentRevision {
  docid: number;
  revisionid: number;
  langid: string;
  content: unknown;
}

/**
 * Implemented by each content module (guides, wikis) and registered at start-up. Every method takes a
 * batch of ids (one query each, never one per document). Deleted documents are absent.
 */
export interface DocumentProvider {
  find(docids: number[]): Promise<Map<number, DocumentInfo>>;
  /** Of these documents, those `user` may read (docs/api-conventions.md). */
  readable(user: AuthenticatedUser | undefined, docids: number[]): Promise<Set<number>>;
  /** Of these documents, those `user` may edit (docs/api-conventions.md: author, granted users and teams, Moderator+; wikis: Author+ …). */
  editable(user: AuthenticatedUser | undefined, docids: number[]): Promise<Set<number>>;
  /** The current patrolled revision of a language, or null when the document has none in it. */
  currentRevision(docid: number, langid: string): Promise<number | null>;
  /** A revision with its content; null when it is not a revision of this document. */
  revision(docid: number, revisionid: number): Promise<DocumentRevision | null>;
  /** Ids of documents whose title contains `term` (case-insensitive), newest first, at most `limit`. */
  searchTitles(term: string, limit: number): Promise<number[]>;
  /**
   * For lists filtered in SQL (one statement whatever the page size): conditions on a column holding
   * docids that say which existing documents `user` may read and edit. Parameter names start with
   * `acc_` so that they do not collide with the caller's.
   */
  accessSql(user: AuthenticatedUser | undefined, docidColumn: string): AccessSql;
  /**
   * For lists that show documents from their own statement: SQL expressions (correlated on a column
   * holding docids) of what labelFromSql needs; `title` is NULL when the document is absent (as find).
   */
  labelSql(docidColumn: string): LabelSql;
  /** The label of a document from the values labelSql selected; null when the title is null (absent). */
  labelFromSql(docid: number, values: { title: unknown; authorid: unknown; urlKey: unknown }): DocumentLabel | null;
  /** The document's detail as its GET answers it to `user` (the body of a 409 that names the document). */
  detail(user: AuthenticatedUser, docid: number): Promise<unknown>;
}

/** What lists show of a document: its title, URL and author (DocumentInfo's subset). */
export type DocumentLabel = Pick<DocumentInfo, 'title' | 'url' | 'authorid'>;

export interface LabelSql {
  title: string;
  authorid: string;
  /** What the URL needs besides id and title (a wiki's namespace); `NULL` when nothing. */
  urlKey: string;
}

export interface AccessSql {
  readable: string;
  editable: string;
  params: Record<string, unknown>;
  /**
   * The documents `editable` admits, as a SELECT of one column `docid` driven by the caller's own indexes (authored,
   * granted): given when that set is the caller's few documents rather than all or none (a plain user), so a list
   * can look their rows up instead of testing `editable` on every row. Same params.
   */
  editableIds?: string;
}

/**
 * The registry of content kinds: enterprise modules (releases, reviews, quizzes, work log) reach
 * guides and wikis only through it, so they never import the content modules and the module graph
 * stays acyclic.
 */
@Injectable()
export class DocumentRegistry {
  private readonly providers = new Map<DocType, DocumentProvider>();

  register(doctype: DocType, provider: DocumentProvider): void {
    if (this.providers.has(doctype)) throw new Error(`A provider for ${doctype} is already registered`);
    this.providers.set(doctype, provider);
  }

  of(doctype: DocType): DocumentProvider {
    const provider = this.providers.get(doctype);
    if (!provider) throw new Error(`No document provider for ${doctype}`);
    return provider;
  }

  /** `guide`, `Guide`, `GUIDE` → `GUIDE`; anything else undefined. */
  static parse(value: unknown): DocType | undefined {
    const upper = typeof value === 'string' ? value.toUpperCase() : '';
    return (DOCTYPES as readonly string[]).includes(upper) ? (upper as DocType) : undefined;
  }

  /** The document, or 404 when it does not exist, is deleted or the caller may not read it. */
  async requireReadable(user: AuthenticatedUser | undefined, doctype: DocType, docid: number): Promise<DocumentInfo> {
    const provider = this.of(doctype);
    const [found, readable] = await Promise.all([provider.find([docid]), provider.readable(user, [docid])]);
    const info = found.get(docid);
    if (!info || !readable.has(docid)) throw notFound(doctype === 'GUIDE' ? 'Guide' : 'Wiki');
    return info;
  }

  /** As requireReadable, then 403 unless the caller may edit it. */
  async requireEditable(user: AuthenticatedUser | undefined, doctype: DocType, docid: number): Promise<DocumentInfo> {
    const info = await this.requireReadable(user, doctype, docid);
    if (!(await this.of(doctype).editable(user, [docid])).has(docid)) {
      throw new ApiException(
        HttpStatus.FORBIDDEN,
        `Only editors of this ${doctype === 'GUIDE' ? 'guide' : 'wiki'} may do this`,
      );
    }
    return info;
  }
}
