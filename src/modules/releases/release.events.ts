import { defineEvent } from '../../platform/events/domain-event';
import type { DocType } from '../../platform/documents/document-registry';

/** The Release body (docs/enterprise/releases.md) as events carry it: the same mapper builds the GET answer. */
export interface ReleaseEventPayload {
  /** Dozuki's `id`: the releaseid again. */
  id: number;
  releaseid: number;
  /** GUIDE releases only. */
  guideid?: number;
  /** WIKI releases only. */
  wikiid?: number;
  langid: string;
  revisionid: number;
  /** UserLight, the creator. */
  user: { userid: number; username: string };
  status: 'pending' | 'released' | 'rejected' | 'cancelled' | 'removed';
  title: string;
  init_date: number;
  release_date: number | null;
  notes: string;
  type: 'major' | 'minor';
  doctype: DocType;
  docid: number;
  version: string;
  approval_requestid: number | null;
  periodic_review_confirmed: boolean;
}

const entity = (r: ReleaseEventPayload): [string, number] => ['release', r.releaseid];

/** A release went live (created without approval, or its last stage approved). */
export const ReleaseReleased = defineEvent<ReleaseEventPayload>('release.released', entity);
export const ReleaseRejected = defineEvent<ReleaseEventPayload>('release.rejected', entity);
export const ReleaseCancelled = defineEvent<ReleaseEventPayload>('release.cancelled', entity);
export const ReleaseRemoved = defineEvent<ReleaseEventPayload>('release.removed', entity);

/** A release was created (`pending` or at once `released`; the latter also publishes `release.released`). */
export const ReleaseCreated = defineEvent<ReleaseEventPayload>('release.created', entity);
/** A pending release's title or notes changed. */
export const ReleaseUpdated = defineEvent<ReleaseEventPayload>('release.updated', entity);
