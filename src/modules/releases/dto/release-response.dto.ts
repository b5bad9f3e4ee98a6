import { ApiProperty } from '@nestjs/swagger';
import { UserLightDto } from '../../users/dto/user-response.dto';
import { RELEASE_STATUSES, RELEASE_TYPES, type ReleaseStatus, type ReleaseType } from '../entities/release.entity';

/** A release (docs/enterprise/releases.md): Dozuki's keys and types, plus doctype, docid, version and the approval fields. */
export class ReleaseDto {
  /** Dozuki's `id`: the releaseid again. */
  id: number;

  releaseid: number;

  /** GUIDE releases only. */
  guideid?: number;

  /** WIKI releases only. */
  wikiid?: number;

  langid: string;

  /** The frozen revision. */
  revisionid: number;

  /** The creator. */
  user: UserLightDto;

  @ApiProperty({ enum: RELEASE_STATUSES })
  status: ReleaseStatus;

  /** Default `Release v<version>`. */
  title: string;

  /** UNIX time of creation. */
  init_date: number;

  /** UNIX time it went live; null until then. */
  @ApiProperty({ type: 'integer', nullable: true })
  release_date: number | null;

  notes: string;

  @ApiProperty({ enum: RELEASE_TYPES })
  type: ReleaseType;

  @ApiProperty({ enum: ['GUIDE', 'WIKI'] })
  doctype: 'GUIDE' | 'WIKI';

  /** The guideid or wikiid. */
  docid: number;

  /** `X.Y`: the number it took (released, removed) or would take (pending, rejected, cancelled). */
  @ApiProperty({ example: '1.0' })
  version: string;

  /** The approval request of a gated release; null when none was opened. */
  @ApiProperty({ type: 'integer', nullable: true })
  approval_requestid: number | null;

  /** Whether the release confirmed the document's periodic review (false when no review was open). */
  periodic_review_confirmed: boolean;
}

/** Dozuki's envelope: `{releases: [...]}`. */
export class ReleaseListDto {
  @ApiProperty({ type: [ReleaseDto] })
  releases: ReleaseDto[];
}

/** A 409 from duplicateReleases: a guide with a pending release. */
export class ReleaseConflictDto {
  guideid: number;
  releaseid: number;
}

export class ReleaseBatchConflictDto {
  @ApiProperty({ enum: [true] })
  error: true;

  message: string;

  @ApiProperty({ type: [ReleaseConflictDto] })
  conflicts: ReleaseConflictDto[];
}
