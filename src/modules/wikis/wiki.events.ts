import { defineEvent } from '../../platform/events/domain-event';

export interface WikiViewedPayload {
  userid: number;
  wikiid: number;
  /** UNIX seconds. */
  date: number;
}

/** An authenticated user read a wiki (at most once per user and wiki per minute and instance). */
export const WikiViewed = defineEvent<WikiViewedPayload>('wiki.viewed', (p) => ['wiki', p.wikiid]);
