/**
 * The reputation and badge rules, in one place.
 *
 * Reputation:
 *  - a guide of yours becomes public for the first time: +10
 *  - someone else marks a guide of yours completed: +2
 *  - you complete a guide: +1
 *
 * Badges are awarded once each when their condition first holds (see `BADGES`).
 */
export type BadgeType = 'bronze' | 'silver' | 'gold';

export interface BadgeDefinition {
  badgeid: number;
  name: string;
  type: BadgeType;
  category: 'authoring' | 'learning' | 'community';
  description: string;
  multiple: boolean;
}

export const REPUTATION = {
  guidePublished: 10,
  guideCompletedByOther: 2,
  guideCompleted: 1,
} as const;

export const BADGES: readonly BadgeDefinition[] = [
  {
    badgeid: 1,
    name: 'Technician',
    type: 'bronze',
    category: 'authoring',
    description: 'Published a first guide.',
    multiple: false,
  },
  {
    badgeid: 2,
    name: 'Guide Writer',
    type: 'silver',
    category: 'authoring',
    description: 'Published 5 guides.',
    multiple: false,
  },
  {
    badgeid: 3,
    name: 'Guide Master',
    type: 'gold',
    category: 'authoring',
    description: 'Published 25 guides.',
    multiple: false,
  },
  {
    badgeid: 4,
    name: 'Student',
    type: 'bronze',
    category: 'learning',
    description: 'Completed a first guide.',
    multiple: false,
  },
  {
    badgeid: 5,
    name: 'Practitioner',
    type: 'silver',
    category: 'learning',
    description: 'Completed 10 guides.',
    multiple: false,
  },
  {
    badgeid: 6,
    name: 'Autobiographer',
    type: 'bronze',
    category: 'community',
    description: 'Wrote an about text on the profile.',
    multiple: false,
  },
  {
    badgeid: 7,
    name: 'Teammate',
    type: 'bronze',
    category: 'community',
    description: 'Joined a team.',
    multiple: false,
  },
  {
    badgeid: 8,
    name: 'Popular',
    type: 'gold',
    category: 'community',
    description: 'Reached 1,000 reputation.',
    multiple: false,
  },
];

export const BADGE = {
  technician: 1,
  guideWriter: 2,
  guideMaster: 3,
  student: 4,
  practitioner: 5,
  autobiographer: 6,
  teammate: 7,
  popular: 8,
} as const;

/** Badges earned by publishing the n-th guide. */
export function publishingBadges(published: number): number[] {
  return [
    ...(published >= 1 ? [BADGE.technician] : []),
    ...(published >= 5 ? [BADGE.guideWriter] : []),
    ...(published >= 25 ? [BADGE.guideMaster] : []),
  ];
}

export function completionBadges(completed: number): number[] {
  return [...(completed >= 1 ? [BADGE.student] : []), ...(completed >= 10 ? [BADGE.practitioner] : [])];
}

export const POPULAR_REPUTATION = 1000;
