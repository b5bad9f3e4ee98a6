import { defineEvent } from '../../platform/events/domain-event';
import type { GuideEntity } from './entities/guide.entity';

/** The facts of a guide that other modules keep derived data of (the category index, reputation). */
export interface GuideFacts {
  authorid: number;
  category: string;
  title: string;
  public: boolean;
  deleted: boolean;
}

export interface GuideChangedPayload {
  guideid: number;
  before: GuideFacts | null;
  after: GuideFacts | null;
}

export interface GuideCompletedPayload {
  guideid: number;
  /** Who completed it. */
  userid: number;
  authorid: number;
}

/** Published when any of a guide's facts change (a new patrolled revision, publish, delete, restore, author). */
export const GuideChanged = defineEvent<GuideChangedPayload>('guide.changed', (p) => ['guide', p.guideid]);

export interface GuideRevisedPayload {
  guideid: number;
  /** The language of the new patrolled revision (the source language or a translation). */
  langid: string;
}

/**
 * Published when a guide gets a new patrolled revision in some language (its text changed, whatever its
 * facts did): derived copies of its text (the search index) refresh from it.
 */
export const GuideRevised = defineEvent<GuideRevisedPayload>('guide.revised', (p) => ['guide', p.guideid]);

/** Published when a user marks a guide completed. */
export const GuideCompleted = defineEvent<GuideCompletedPayload>('guide.completed', (p) => ['guide', p.guideid]);

export const guideFacts = (guide: GuideEntity): GuideFacts => ({
  authorid: guide.authorid,
  category: guide.category,
  title: guide.title,
  public: guide.public,
  deleted: guide.deleted,
});

export interface GuideViewedPayload {
  userid: number;
  guideid: number;
  /** UNIX seconds. */
  date: number;
}

/** An authenticated user read a guide (at most once per user and guide per minute and instance). */
export const GuideViewed = defineEvent<GuideViewedPayload>('guide.viewed', (p) => ['guide', p.guideid]);
