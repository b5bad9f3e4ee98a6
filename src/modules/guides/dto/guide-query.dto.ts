import { ApiHideProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PaginationQueryDto } from '../../../common/validation/pagination.dto';
import { PresenceFlag, QueryBoolean, QueryInt, QueryOrder } from '../../../common/validation/query-decorators';

const langidRule = () => Matches(/^[a-z]{2}$/, { message: '$property must be two lower-case letters' });

export class ListGuidesQueryDto extends PaginationQueryDto {
  /** Comma-separated guide ids (first 50 used); filter, modifiedSince and pagination are then ignored. */
  @IsOptional()
  @Matches(/^\s*\d+(\s*,\s*\d+)*\s*$/, { message: 'guideids must be a comma-separated list of integers' })
  guideids?: string;

  /** Comma-separated guide types; unknown types match nothing. */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  filter?: string;

  @IsOptional()
  @QueryOrder('Sort by guideid')
  order: 'ASC' | 'DESC' = 'ASC';

  @IsOptional()
  @QueryInt({ min: 0, max: Number.MAX_SAFE_INTEGER, description: 'Only guides modified on or after this UNIX time.' })
  modifiedSince?: number;

  @IsOptional()
  @QueryBoolean('With Admin authentication, private guides are listed too; ignored for anyone else.')
  includePrivate: boolean = false;
}

export class GuideLangQueryDto {
  /** Language version; falls back to the source language. */
  @IsOptional()
  @langidRule()
  langid?: string;
}

export class GuideDetailQueryDto extends GuideLangQueryDto {
  @PresenceFlag('Do not inline the steps of prerequisite guides.')
  excludePrerequisiteSteps: boolean = false;

  @PresenceFlag('Show the newest revision even when it is not patrolled yet.')
  unpatrolled: boolean = false;

  /**
   * Language to machine-translate into: a human translation into it is preferred; otherwise the version shown is
   * translated by the deployment's machine-translation provider (`locale` then names this language). Without a
   * configured provider the guide is answered as stored.
   */
  @IsOptional()
  @langidRule()
  machineTranslateLangid?: string;

  /** Documented by @XmlResponse. */
  @ApiHideProperty()
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value))
  @IsIn(['JSON', 'XML'], { message: 'type must be JSON or XML' })
  type?: 'JSON' | 'XML';
}

export class UserGuidesQueryDto extends PaginationQueryDto {
  @IsOptional()
  @QueryOrder('Sort by guideid')
  order: 'ASC' | 'DESC' = 'ASC';
}

export class TagBodyDto {
  @ApiPropertyOptional({ description: 'Tag name (at most 32 characters).' })
  @IsString()
  tag: string;
}

export class LangBodyDto {
  /** Language the favorite or completion is recorded in; default the guide's source language. */
  @IsOptional()
  @langidRule()
  langid?: string;
}
