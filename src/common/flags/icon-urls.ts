export const flagIconUrl = (publicUrl: string, flagid: string) => `${publicUrl}/api/2.0/icons/flags/${flagid}`;
export const badgeIconUrl = (publicUrl: string, badgeid: number) => `${publicUrl}/api/2.0/icons/badges/${badgeid}`;
