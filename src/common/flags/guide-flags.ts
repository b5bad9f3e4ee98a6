import type { Privilege } from '../auth/privileges';

export interface FlagDefinition {
  flagid: string;
  title: string;
  text: string;
  /** Who may add or remove it on a guide they can edit. */
  privilege: Privilege;
  color: string;
}

/** The guide flags (docs/resources.md). GUIDE_STARRED and GUIDE_FEATURED_STUDENT make a guide featured. */
export const GUIDE_FLAGS: readonly FlagDefinition[] = [
  {
    flagid: 'GUIDE_IN_PROGRESS',
    title: 'In Progress',
    text: 'This guide is being written and may be incomplete.',
    privilege: 'User',
    color: '#f0ad4e',
  },
  {
    flagid: 'DANGER',
    title: 'Danger',
    text: 'This procedure can injure you or damage the device.',
    privilege: 'User',
    color: '#d9534f',
  },
  {
    flagid: 'DEATH',
    title: 'Danger of Death',
    text: 'This procedure involves a risk of death (mains voltage, high-voltage capacitors).',
    privilege: 'User',
    color: '#000000',
  },
  {
    flagid: 'GUIDE_DELETE',
    title: 'Marked for Deletion',
    text: 'This guide has been proposed for deletion.',
    privilege: 'User',
    color: '#777777',
  },
  {
    flagid: 'GUIDE_PREREQ_ONLY',
    title: 'Prerequisite Only',
    text: 'This guide is only meant to be used as a prerequisite of other guides.',
    privilege: 'Author',
    color: '#5bc0de',
  },
  {
    flagid: 'GUIDE_STARRED',
    title: 'Starred',
    text: 'A featured guide, chosen by the moderators.',
    privilege: 'Moderator',
    color: '#ffd700',
  },
  {
    flagid: 'GUIDE_FEATURED_STUDENT',
    title: 'Featured Student Guide',
    text: 'A featured guide written by a student.',
    privilege: 'Moderator',
    color: '#337ab7',
  },
];

export const FEATURED_FLAGS = ['GUIDE_STARRED', 'GUIDE_FEATURED_STUDENT'] as const;

export const isGuideFlag = (flagid: string): boolean => GUIDE_FLAGS.some((f) => f.flagid === flagid);
