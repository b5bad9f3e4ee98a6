import { ApiHideProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { PaginationQueryDto } from '../../../common/validation/pagination.dto';
import { PresenceFlag, QueryBoolean, QueryInt } from '../../../common/validation/query-decorators';
import { LANGID_PATTERN } from '../wiki-namespaces';

const langidMessage = { message: '$property must be two lower-case letters' };

export class WikiLangQueryDto {
  /** Language version (two lower-case letters); reads fall back to the source language. */
  @IsOptional()
  @Matches(LANGID_PATTERN, langidMessage)
  langid?: string;
}

export class WikiListQueryDto extends PaginationQueryDto {
  /** `objects` (default): light wiki objects; `titles`: a plain array of titles; `hierarchy`: the category tree (CATEGORY only). */
  @ApiPropertyOptional({ enum: ['objects', 'titles', 'hierarchy'], default: 'objects' })
  @IsOptional()
  @IsIn(['objects', 'titles', 'hierarchy'], { message: 'display must be one of objects, titles, hierarchy' })
  display: 'objects' | 'titles' | 'hierarchy' = 'objects';

  /** Only wikis changed on or after this UNIX time; then ordered by modification, newest first. */
  @IsOptional()
  @QueryInt({ min: 0 })
  modifiedSince?: number;

  /** Language of display titles and summaries; falls back to the source language. */
  @IsOptional()
  @Matches(LANGID_PATTERN, langidMessage)
  langid?: string;

  /** Hierarchy: only categories with a public guide in them or below them. */
  @IsOptional()
  @QueryBoolean('Hierarchy: keep only categories that hold a public guide themselves or below them.')
  requireGuides: boolean = false;

  /** Hierarchy: include categories flagged WIKI_STUB (and what is below them). */
  @IsOptional()
  @QueryBoolean('Hierarchy: include categories flagged WIKI_STUB (with everything below them).')
  includeStubs: boolean = false;

  /** Hierarchy: machine-translate display titles that have no human translation into this language. */
  @IsOptional()
  @Matches(LANGID_PATTERN, langidMessage)
  machineTranslateLangid?: string;
}

export class WikiDetailQueryDto extends WikiLangQueryDto {
  @PresenceFlag('Show the newest revision even when it is not patrolled yet.')
  unpatrolled: boolean = false;

  /** Documented by @XmlResponse; read here to refuse XML outside CATEGORY. */
  @ApiHideProperty()
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value))
  @IsIn(['JSON', 'XML'], { message: 'type must be JSON or XML' })
  type?: 'JSON' | 'XML';
}

export class WikiRevertQueryDto extends WikiLangQueryDto {
  /** The earlier revision (same wiki and language) whose contents to restore. */
  @QueryInt({ min: 1 })
  to_revisionid: number;
}

export class CategoriesQueryDto {
  /** As on the hierarchy: include categories flagged WIKI_STUB (and what is below them). */
  @IsOptional()
  @QueryBoolean('Include categories flagged WIKI_STUB (with everything below them).')
  includeStubs: boolean = false;
}

export class CategoryTreeQueryDto {
  @IsOptional()
  @Matches(LANGID_PATTERN, langidMessage)
  langid?: string;
}
