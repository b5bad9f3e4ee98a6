/** Events other modules publish (after commit) that this module turns into reputation and badges. */
export interface GuideSnapshot {
  authorid: number;
  category: string;
  title: string;
  public: boolean;
  deleted: boolean;
}

export interface GuideChangedEvent {
  guideid: number;
  before: GuideSnapshot | null;
  after: GuideSnapshot | null;
}

export interface GuideCompletedEvent {
  guideid: number;
  /** Who completed it. */
  userid: number;
  authorid: number;
}

export const GUIDE_CHANGED = 'guide.changed';
export const GUIDE_COMPLETED = 'guide.completed';
export const TEAM_JOINED = 'team.joined';
export const USER_ABOUT_WRITTEN = 'user.about-written';
