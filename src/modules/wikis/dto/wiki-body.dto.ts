import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
  IsObject,
} from 'class-validator';
import { LANGID_PATTERN, WIKI_FLAGS, WIKI_NAMESPACES } from '../wiki-namespaces';

export class WikiInfoEntryDto {
  @IsString()
  @MaxLength(255)
  name: string;

  @IsString()
  @MaxLength(1000)
  value: string;
}

export class WikiSupplierDto {
  @ApiPropertyOptional({ name: 'part_#' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  'part_#'?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  type?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  supplier?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  url?: string;
}

export class WikiDocumentRefDto {
  @IsInt()
  @Min(1)
  documentid: number;
}

/**
 * Fields shared by create and edit. Which of them a namespace accepts is decided by NAMESPACE_RULES
 * (`wiki-namespaces.ts`); a field that does not belong to the namespace is a 422.
 */
export class WikiFieldsDto {
  /** Wiki text (docs/wiki-text.md); at most 65,535 bytes of UTF-8. */
  contents?: string;

  /** Shown instead of the title (CATEGORY, ITEM, INFO, WIKI). Defaults to the title. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  display_title?: string;

  /** Short description, returned as `description` and as `summary` in list items (CATEGORY, ITEM, INFO, WIKI). */
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  description?: string;

  /** Main image id (must be usable by the caller: in their media manager); null removes it. */
  @ApiPropertyOptional({ type: 'integer', nullable: true })
  @IsOptional()
  @IsInt()
  @Min(1)
  image?: number | null;

  /** Replaces the flag set. `WIKI_STUB` marks a stub category (hidden from the hierarchy unless includeStubs). */
  @ApiPropertyOptional({ enum: WIKI_FLAGS, isArray: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(WIKI_FLAGS.length)
  @IsIn(WIKI_FLAGS, { each: true, message: `each value in flags must be one of ${WIKI_FLAGS.join(', ')}` })
  flags?: string[];

  /** Name/value facts (CATEGORY, ITEM); replaces the list. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => WikiInfoEntryDto)
  info?: WikiInfoEntryDto[];

  /** Where to buy the item (ITEM); replaces the list. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => WikiSupplierDto)
  suppliers?: WikiSupplierDto[];

  /** Attached documents (CATEGORY), in order; each must be usable by the caller. Replaces the list. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => WikiDocumentRefDto)
  documents?: WikiDocumentRefDto[];

  /** 0–10 (CATEGORY); null clears it. */
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 10, nullable: true })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10)
  repairability_score?: number | null;

  /** Whether clients show a table of contents (every namespace; source language only). Default false. */
  @IsOptional()
  @IsBoolean()
  table_of_contents?: boolean;
}

export class CreateWikiDto extends WikiFieldsDto {
  @ApiProperty({ enum: WIKI_NAMESPACES })
  @IsIn(WIKI_NAMESPACES, { message: `namespace must be one of ${WIKI_NAMESPACES.join(', ')}` })
  namespace: string;

  /**
   * Unique within the namespace, whatever the case (`iphone 6` beside `iPhone 6` is a 422). Underscores are stored as
   * spaces. `.` and `..` are refused (no URL can address them). USER pages: the userid; TEAM pages: the teamid.
   */
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  title: string;

  /** Wiki text (docs/wiki-text.md), required (may be empty); at most 65,535 bytes of UTF-8. */
  @IsString()
  declare contents: string;

  /** CATEGORY only: the parent category's title; absent or null means a top-level category. */
  @ApiPropertyOptional({ type: 'string', nullable: true })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  parent?: string | null;

  /** Source language of the new wiki (two lower-case letters); default `en`. */
  @IsOptional()
  @Matches(LANGID_PATTERN, { message: 'langid must be two lower-case letters' })
  langid?: string;
}

export class UpdateWikiDto extends WikiFieldsDto {
  /** Wiki text (docs/wiki-text.md); at most 65,535 bytes of UTF-8. */
  @IsOptional()
  @IsString()
  declare contents?: string;
}

export class WikiTagBodyDto {
  @IsString()
  tag: string;
}

/** `{"parent": "<title>"}` or `{"parent": null}` for the top level. */
export class CategoryParentBodyDto {
  @ApiProperty({ type: 'string', nullable: true, description: 'Title of the new parent category; null for top level.' })
  @ValidateBy({
    name: 'parentTitle',
    validator: {
      validate: (value: unknown) => value === null || (typeof value === 'string' && value.trim() !== ''),
      defaultMessage: () => 'parent must be a category title or null',
    },
  })
  parent: string | null;
}
