import { ApiProperty } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { RELEASE_TYPES, type ReleaseType } from '../entities/release.entity';

export const MAX_ID = 2147483647;

/** R7 (POST /wikis/{wikiid}/releases): a release of a wiki. */
export class CreateWikiReleaseDto {
  @IsIn(RELEASE_TYPES, { message: 'type must be major or minor' })
  @ApiProperty({ enum: RELEASE_TYPES })
  type: ReleaseType;

  /** 1-255 characters; default `Release v<version>`. */
  @IsOptional()
  @IsString()
  @Length(1, 255)
  title?: string;

  /** At most 65535 characters (and bytes); default "". */
  @IsOptional()
  @IsString()
  @MaxLength(65535)
  notes?: string;

  /** The revision to freeze: only the current patrolled revision of that language is allowed (the default). */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  revisionid?: number;

  /** The language released; default the document's source language. */
  @IsOptional()
  @IsString()
  @Matches(/^[a-z]{2}(-[a-z0-9]{2,8})?$/i, { message: 'langid must be a language code' })
  langid?: string;

  /** Confirms the document's periodic review; needs `password` (an electronic signature). */
  @IsOptional()
  @IsBoolean()
  periodic_review_confirmed?: boolean;

  /** The caller's password, re-entered to sign; required when `periodic_review_confirmed` is true. */
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  password?: string;
}

/** R3 (POST /guides/releases). */
export class CreateGuideReleaseDto extends CreateWikiReleaseDto {
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  guideid: number;
}

/** R4: at least one field. */
export class UpdateReleaseDto {
  /** 1-255 characters. */
  @IsOptional()
  @IsString()
  @Length(1, 255)
  title?: string;

  /** At most 65535 characters (and bytes). */
  @IsOptional()
  @IsString()
  @MaxLength(65535)
  notes?: string;
}

/** R6 (POST /guides/duplicateReleases). */
export class DuplicateReleasesDto {
  /** A GUIDE release the caller may read. */
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  releaseid: number;

  /** 1-100 distinct guide ids; each guide's current revision is released with the source's type, title and notes. */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(MAX_ID, { each: true })
  guideids: number[];
}
