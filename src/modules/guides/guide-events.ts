import type { GuideEntity } from './entities/guide.entity';

/** Published after commit when any of these facts of a guide change (wikis and reputation listen). */
export const GUIDE_CHANGED = 'guide.changed';
/** Published after commit when a user marks a guide completed. */
export const GUIDE_COMPLETED = 'guide.completed';

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
  userid: number;
  authorid: number;
}

export const guideFacts = (guide: GuideEntity): GuideFacts => ({
  authorid: guide.authorid,
  category: guide.category,
  title: guide.title,
  public: guide.public,
  deleted: guide.deleted,
});
