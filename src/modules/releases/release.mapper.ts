import type { UserLightDto } from '../users/dto/user-response.dto';
import type { ReleaseDto } from './dto/release-response.dto';
import type { ReleaseEntity } from './entities/release.entity';

export const versionOf = (release: Pick<ReleaseEntity, 'versionMajor' | 'versionMinor'>): string =>
  `${release.versionMajor}.${release.versionMinor}`;

/** The next version after the highest released one: major `(X+1).0`, minor `X.(Y+1)` (docs/enterprise/releases.md). */
export function nextVersion(highest: [number, number] | null, type: 'major' | 'minor'): [number, number] {
  const [major, minor] = highest ?? [0, 0];
  return type === 'major' ? [major + 1, 0] : [major, minor + 1];
}

/**
 * The Release body (GET answers and event payloads alike): Dozuki's keys in Dozuki's order (`id`,
 * `releaseid`, `guideid` or `wikiid`, …), then the keys it adds (docs/enterprise/releases.md).
 */
export function toReleaseDto(release: ReleaseEntity, user: UserLightDto): ReleaseDto {
  return {
    id: release.releaseid,
    releaseid: release.releaseid,
    ...(release.doctype === 'GUIDE' ? { guideid: release.docid } : { wikiid: release.docid }),
    langid: release.langid,
    revisionid: release.revisionid,
    user,
    status: release.status,
    title: release.title,
    init_date: release.initDate,
    release_date: release.releaseDate,
    notes: release.notes,
    type: release.type,
    doctype: release.doctype,
    docid: release.docid,
    version: versionOf(release),
    approval_requestid: release.approvalRequestid,
    periodic_review_confirmed: release.periodicReviewConfirmed,
  };
}
