import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DOCTYPES, type DocType } from '../../../platform/documents/document-registry';
import type { ReviewState } from '../../../platform/documents/review-directory';
import { UserLightDto } from '../../users/dto/user-response.dto';
import { RecurrenceDto } from './schedule-body.dto';

export const REVIEW_STATES = ['scheduled', 'open', 'overdue'] as const;

export class TeamRefDto {
  teamid: number;
  name: string;
}

/** ReviewDocument (docs/enterprise/periodic-review.md). */
export class ReviewDocumentDto {
  prdid: number;
  prsid: number;
  @ApiProperty({ enum: DOCTYPES })
  doctype: DocType;
  docid: number;
  title: string;
  url: string;
  /** The effective reviewer: the document's, else the schedule's default reviewer, else the author. */
  @ApiProperty({ type: UserLightDto, nullable: true })
  reviewer: UserLightDto | null;
  next_due_date: number;
  window_opens_date: number;
  @ApiProperty({ type: Number, nullable: true })
  last_reviewed_date: number | null;
  @ApiProperty({ enum: REVIEW_STATES })
  state: ReviewState;
}

/** Schedule (docs/enterprise/periodic-review.md). */
export class ScheduleDto {
  prsid: number;
  name: string;
  recurrence: RecurrenceDto;
  completion_window_days: number;
  @ApiProperty({ type: UserLightDto, nullable: true })
  default_reviewer: UserLightDto | null;
  @ApiProperty({ type: TeamRefDto, nullable: true })
  default_team: TeamRefDto | null;
  documents_count: number;
  @ApiProperty({ type: UserLightDto, nullable: true })
  created_by: UserLightDto | null;
  created_date: number;
}

/** ScheduleDetail: the schedule with the documents the caller may read. */
export class ScheduleDetailDto extends ScheduleDto {
  @ApiPropertyOptional({ type: [ReviewDocumentDto] })
  documents: ReviewDocumentDto[];
}

/** P7 409: documents in another schedule. */
export class ScheduleConflictItemDto {
  @ApiProperty({ enum: DOCTYPES })
  doctype: DocType;
  docid: number;
  prsid: number;
}

export class ScheduleConflictDto {
  error: boolean;
  message: string;
  @ApiProperty({ type: [ScheduleConflictItemDto] })
  conflicts: ScheduleConflictItemDto[];
}

/** DocumentSchedule (P13). */
export class DocumentScheduleDto {
  schedule: ScheduleDto;
  document: ReviewDocumentDto;
}
