import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { DOCTYPES, type DocType } from '../../../platform/documents/document-registry';
import { RECURRENCE_TYPES } from '../entities/review-schedule.entity';
import type { Recurrence } from '../review-state';

export const MAX_ID = 2147483647;

/** P1: {type:"annual", month, day} or {type:"interval", days}; checked by recurrenceProblem(). */
export class RecurrenceDto {
  @ApiProperty({ enum: RECURRENCE_TYPES })
  type: 'annual' | 'interval';

  @ApiPropertyOptional({ minimum: 1, maximum: 12, description: 'Annual: the month.' })
  month?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 31, description: 'Annual: the day (Feb 29 is Feb 28 in other years).' })
  day?: number;

  @ApiPropertyOptional({ minimum: 2, maximum: 3650, description: 'Interval: days between reviews.' })
  days?: number;
}

/** P1: POST /periodic_review. */
export class CreateScheduleDto {
  @IsString()
  @Length(1, 255)
  name: string;

  @IsObject({ message: 'recurrence must be an object' })
  @ApiProperty({ type: RecurrenceDto })
  recurrence: Recurrence;

  /** 1-365 (default 30); for an interval schedule less than the interval. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(365)
  completion_window_days?: number;

  /** At most one of default_reviewer_userid and default_reviewer_teamid. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  default_reviewer_userid?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  default_reviewer_teamid?: number;
}

/** A document to add (P7). */
export class ScheduleDocumentInputDto {
  /** GUIDE or WIKI (case-insensitive). */
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value))
  @IsIn(DOCTYPES, { message: 'doctype must be GUIDE or WIKI' })
  @ApiProperty({ enum: DOCTYPES })
  doctype: DocType;

  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  docid: number;

  /** The document's own reviewer (else the schedule's default reviewer, else the author). */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  reviewer_userid?: number;
}

/** P7: POST /periodic_review/documents. */
export class AddDocumentsDto {
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  prsid: number;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ScheduleDocumentInputDto)
  @ApiProperty({ type: [ScheduleDocumentInputDto] })
  documents: ScheduleDocumentInputDto[];
}

/** P8 body: DELETE /periodic_review/documents. */
export class RemoveDocumentsDto {
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(MAX_ID, { each: true })
  @ApiPropertyOptional({ type: [Number], description: '1-100 prdids (or `?prdids=1,2`).' })
  prdids?: number[];
}
