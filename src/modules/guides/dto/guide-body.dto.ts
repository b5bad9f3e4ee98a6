import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
  IsObject,
} from 'class-validator';
import { DIFFICULTIES, GUIDE_TYPES, INTRODUCTION_MAX_LINES, SUMMARY_MAX_LENGTH } from '../guide-data';
import { Trim } from '../../../common/validation/string-decorators';

const FewerLinesThan50 = () =>
  ValidateBy({
    name: 'fewerLinesThan50',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && value.split(/\r\n|\r|\n/).length <= INTRODUCTION_MAX_LINES,
      defaultMessage: () => 'introduction must have fewer than 50 lines',
    },
  });

/** A part or tool: the ITEM wiki page `name` (created from `summary`/`url` when missing) and guide-specific fields. */
export class GuideItemInputDto {
  /** Title of the ITEM wiki page. Read back as `text` (GET /guides/{guideid}: `parts[].text`, `tools[].text`). */
  @Trim()
  @IsString()
  @Length(1, 255)
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  type?: string;

  /** Positive integer; default 1. */
  @IsOptional()
  @IsInt({ message: 'quantity must be a positive integer' })
  @Min(1, { message: 'quantity must be a positive integer' })
  quantity?: number;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  notes?: string;

  /** Only the first listed item may be featured. */
  @IsOptional()
  @IsBoolean()
  featured?: boolean;

  /** Description used when the ITEM page is created. */
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  summary?: string;

  /** Purchase URL used when the ITEM page is created. */
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  url?: string;
}

export class PrerequisiteReleaseDto {
  @IsInt()
  @Min(1)
  guideid: number;

  @IsOptional()
  @IsInt()
  releaseid: number | null;
}

/** Fields shared by POST and PATCH /guides; every rule applies to both (docs/resources.md). */
export class GuideFieldsDto {
  @IsOptional()
  @IsString()
  @MaxLength(255)
  subject?: string;

  /** Generated from type, category and subject when absent on create. */
  @IsOptional()
  @Trim()
  @IsString()
  @Length(1, 255)
  title?: string;

  /** Fewer than 156 characters. */
  @IsOptional()
  @IsString()
  @MaxLength(SUMMARY_MAX_LENGTH, { message: 'summary must be shorter than 156 characters' })
  summary?: string;

  /** Wiki text, fewer than 50 lines. Read back as `introduction_raw` and `introduction_rendered`. */
  @IsOptional()
  @IsString()
  @MaxLength(65535)
  @FewerLinesThan50()
  introduction?: string;

  /** Wiki text. Read back as `conclusion_raw` and `conclusion_rendered`. */
  @IsOptional()
  @IsString()
  @MaxLength(65535)
  conclusion?: string;

  /** Flag ids of GUIDE_FLAGS; the caller must hold each added or removed flag's privilege. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  flags?: string[];

  /** Estimated minimum time in seconds. */
  @IsOptional()
  @IsInt()
  @Min(0)
  time_required_min?: number;

  /** Estimated maximum time in seconds; not below time_required_min. */
  @IsOptional()
  @IsInt()
  @Min(0)
  time_required_max?: number;

  @IsOptional()
  @IsIn(DIFFICULTIES, { message: `difficulty must be one of ${DIFFICULTIES.join(', ')}` })
  difficulty?: string;

  /** Main image: an image id in the author's media manager (null removes it). */
  @IsOptional()
  @IsInt()
  @Min(1)
  image?: number | null;

  /** Guide ids the caller can read, in order; not the guide itself. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsInt({ each: true })
  @Min(1, { each: true })
  prerequisites?: number[];

  /**
   * Prerequisites pinned to a release: each `guideid` one of `prerequisites` (once), `releaseid` a released
   * release of that guide, or null for the newest released one (the pin follows new releases). Replaces
   * the stored list.
   */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => PrerequisiteReleaseDto)
  prerequisite_releases?: PrerequisiteReleaseDto[];

  /** Document ids; newly added ones must be in the caller's media manager. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsInt({ each: true })
  @Min(1, { each: true })
  documents?: number[];

  /** Must be one of `documents`. */
  @IsOptional()
  @IsInt()
  @Min(1)
  featured_documentid?: number | null;

  @IsOptional()
  @IsBoolean()
  public?: boolean;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => GuideItemInputDto)
  parts?: GuideItemInputDto[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => GuideItemInputDto)
  tools?: GuideItemInputDto[];

  /** Author userid; only an Admin may set it (403 otherwise). */
  @IsOptional()
  @IsInt()
  @Min(1)
  author?: number;

  /**
   * Create: the source language (default en). Edit: a language other than the source edits that
   * translation (only title, summary, introduction and conclusion may be sent then).
   */
  @IsOptional()
  @Matches(/^[a-z]{2}$/, { message: 'langid must be two lower-case letters' })
  langid?: string;
}

export class CreateGuideDto extends GuideFieldsDto {
  /** Title of an existing CATEGORY wiki, in any case (stored in the category's own spelling). */
  @IsString()
  @Length(1, 255)
  category: string;

  @IsIn(GUIDE_TYPES, { message: `type must be one of ${GUIDE_TYPES.join(', ')}` })
  type: string;
}

export class UpdateGuideDto extends GuideFieldsDto {
  @IsOptional()
  @IsString()
  @Length(1, 255)
  category?: string;

  /** Admin only (403 for others): the approval process of every release (the `all` slot); null clears it. Makes no revision. */
  @ApiPropertyOptional({ type: 'integer', nullable: true })
  @IsOptional()
  @IsInt()
  @Min(1)
  approval_processid?: number | null;

  /** Admin only (403 for others): the approval process of major releases (the `major` slot); null clears it. Makes no revision. */
  @ApiPropertyOptional({ type: 'integer', nullable: true })
  @IsOptional()
  @IsInt()
  @Min(1)
  major_release_approval_processid?: number | null;

  @IsOptional()
  @IsIn(GUIDE_TYPES, { message: `type must be one of ${GUIDE_TYPES.join(', ')}` })
  type?: string;
}
