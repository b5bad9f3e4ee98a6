import type { AuthenticatedUser } from '../../common/auth/authenticated-user';

/**
 * What a content module tells the comments module about one of its context types (guide, step…),
 * so that this lower module never imports content modules.
 */
export interface CommentContextHandler {
  /** 404 when the document does not exist or the caller may not read it; may give the comment title. */
  assertReadable(user: AuthenticatedUser | undefined, contextid: number): Promise<void | { title?: string }>;
  /** Of these ids, the ones the caller may read (one batch); without it, lists check one by one. */
  filterReadable?(user: AuthenticatedUser | undefined, contextids: number[]): Promise<Set<number>>;
}

/** A context name a content module registered (`guide`, `step` …); comments itself knows none. */
export type CommentContext = string;
