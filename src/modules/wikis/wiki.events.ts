import { defineEvent } from '../../platform/events/domain-event';

export interface WikiViewedPayload {
  userid: number;
  wikiid: number;
  /** UNIX seconds. */
  date: number;
}

/** An authenticated user read a wiki (at most once per user and wiki per minute and instance). */
export const WikiViewed = defineEvent<WikiViewedPayload>('wiki.viewed', (p) => ['wiki', p.wikiid]);

export interface WikiChangedPayload {
  wikiid: number;
  /** The language version written (deleting the source language deletes the whole wiki). */
  langid: string;
}

/**
 * Published by every wiki write (create, edit, translation, delete, revert): derived copies of its text
 * (the search index) refresh from the wiki's patrolled state, so an unpatrolled edit changes nothing there.
 */
export const WikiChanged = defineEvent<WikiChangedPayload>('wiki.changed', (p) => ['wiki', p.wikiid]);
