import { ApiProperty } from '@nestjs/swagger';
import { SignatureViewDto } from '../../../platform/signatures/dto/signature-view.dto';
import { DOCTYPES, type DocType } from '../../../platform/documents/document-registry';
import { UserLightDto } from '../../users/dto/user-response.dto';
import { CHANGE_REQUEST_STATUSES, type ChangeRequestStatus } from '../entities/change-request.entity';
import { REVIEW_OUTCOMES, type ReviewOutcome, type ReviewSource } from '../entities/review.entity';

/** ChangeRequest (docs/enterprise/periodic-review.md). */
export class ChangeRequestDto {
  requestid: number;
  reviewid: number;
  @ApiProperty({ enum: DOCTYPES })
  doctype: DocType;
  docid: number;
  document_title: string;
  @ApiProperty({ type: UserLightDto, nullable: true })
  assignee: UserLightDto | null;
  @ApiProperty({ type: UserLightDto, nullable: true })
  requested_by: UserLightDto | null;
  description: string;
  @ApiProperty({ enum: CHANGE_REQUEST_STATUSES })
  status: ChangeRequestStatus;
  @ApiProperty({ type: Number, nullable: true })
  resolved_by_releaseid: number | null;
  created_date: number;
  @ApiProperty({ type: Number, nullable: true })
  resolved_date: number | null;
}

/** Review (docs/enterprise/periodic-review.md). */
export class ReviewDto {
  reviewid: number;
  prdid: number;
  @ApiProperty({ enum: DOCTYPES })
  doctype: DocType;
  docid: number;
  document_title: string;
  @ApiProperty({ type: Number, nullable: true })
  revisionid: number | null;
  @ApiProperty({ type: UserLightDto, nullable: true })
  user: UserLightDto | null;
  @ApiProperty({ enum: REVIEW_OUTCOMES })
  outcome: ReviewOutcome;
  notes: string;
  @ApiProperty({ enum: ['review', 'release'] })
  source: ReviewSource;
  @ApiProperty({ type: Number, nullable: true })
  releaseid: number | null;
  @ApiProperty({ type: SignatureViewDto, nullable: true })
  signature: SignatureViewDto | null;
  date: number;
  @ApiProperty({ type: ChangeRequestDto, nullable: true })
  change_request: ChangeRequestDto | null;
}
