import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { DOCTYPES, type DocType } from '../../../platform/documents/document-registry';
import { REVIEW_OUTCOMES, type ReviewOutcome } from '../entities/review.entity';
import { MAX_ID } from './schedule-body.dto';

export class ChangeRequestInputDto {
  /** Default: the document's author. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  assignee_userid?: number;

  @IsString()
  @Length(1, 5000)
  description: string;
}

/** P11: POST /periodic_review/review. */
export class CreateReviewDto {
  /** The scheduled document, or `doctype` + `docid`. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  prdid?: number;

  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value))
  @IsIn(DOCTYPES, { message: 'doctype must be GUIDE or WIKI' })
  @ApiPropertyOptional({ enum: DOCTYPES })
  doctype?: DocType;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  docid?: number;

  @IsIn(REVIEW_OUTCOMES, { message: 'outcome must be no_changes or changes_requested' })
  @ApiProperty({ enum: REVIEW_OUTCOMES })
  outcome: ReviewOutcome;

  @IsOptional()
  @IsString()
  @MaxLength(5000)
  notes?: string;

  /** Required for `changes_requested`. */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ChangeRequestInputDto)
  change_request?: ChangeRequestInputDto;

  /** The caller's password, re-entered to sign (meaning `review`). */
  @IsString()
  @Length(1, 1000)
  password: string;
}
