import type { GuideAccessFacts } from '../access/policy.service';
import { type SummaryRow } from './guide-rows';

/** What the access policy reads of a guide row. */
export const accessFacts = (
  row: Pick<SummaryRow, 'guide' | 'grantedUserIds' | 'grantedTeamIds'>,
): GuideAccessFacts => ({
  authorid: row.guide.authorid,
  public: row.guide.public,
  grantedUserIds: row.grantedUserIds,
  grantedTeamIds: row.grantedTeamIds,
});
