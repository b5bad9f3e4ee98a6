import { Type } from 'class-transformer';
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
  Max,
  Min,
  ValidateNested,
  IsObject,
} from 'class-validator';
import { PaginationQueryDto } from '../../../common/validation/pagination.dto';
import { QueryInt, QueryOrder } from '../../../common/validation/query-decorators';
import { Trim } from '../../../common/validation/string-decorators';

/** A stage as sent: exactly one of `userid` or `teamid`. */
export class StageInputDto {
  /** A user stage: that user signs (1 signature). */
  @IsOptional()
  @IsInt()
  @Min(1)
  userid?: number;

  /** A team stage: `required_signatures` distinct members sign. */
  @IsOptional()
  @IsInt()
  @Min(1)
  teamid?: number;

  /** Team stages: 1 up to the team's member count (default 1). User stages: 1. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  required_signatures?: number;
}

export class CreateProcessDto {
  /** 1-255 characters. */
  @Trim()
  @IsString()
  @Length(1, 255)
  name: string;

  /** 1-10 stages, in order. */
  @IsArray()
  @ArrayMinSize(1, { message: 'stages must have 1 to 10 stages' })
  @ArrayMaxSize(10, { message: 'stages must have 1 to 10 stages' })
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => StageInputDto)
  stages: StageInputDto[];

  /** Makes this the site default (clearing any other). */
  @IsOptional()
  @IsBoolean()
  site_default?: boolean;
}

export class UpdateProcessDto {
  @IsOptional()
  @Trim()
  @IsString()
  @Length(1, 255)
  name?: string;

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1, { message: 'stages must have 1 to 10 stages' })
  @ArrayMaxSize(10, { message: 'stages must have 1 to 10 stages' })
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => StageInputDto)
  stages?: StageInputDto[];

  @IsOptional()
  @IsBoolean()
  site_default?: boolean;
}

export class ListProcessesQueryDto extends PaginationQueryDto {
  @IsOptional()
  @QueryOrder('Sort by approval_processid')
  order: 'ASC' | 'DESC' = 'ASC';
}

export class SearchProcessesQueryDto {
  @QueryInt({ min: 1, clampTo: 200, default: 20, description: 'At most this many processes (1-200).' })
  limit: number = 20;
}

export class ProcessRevisionQueryDto {
  @IsOptional()
  @QueryInt({ min: 1, description: 'A revision of this process (default: the current one).' })
  revisionid?: number;
}

export const RELEASE_TYPES = ['all', 'major'] as const;

export class AssignProcessDto {
  /** The slot: `all` (default; minor and major releases) or `major` (major releases only). */
  @IsOptional()
  @IsIn(RELEASE_TYPES, { message: 'release_type must be all or major' })
  release_type?: 'all' | 'major';
}

export class UnassignProcessQueryDto {
  /** The slot to clear; default: both. */
  @IsOptional()
  @IsIn(RELEASE_TYPES, { message: 'release_type must be all or major' })
  release_type?: 'all' | 'major';
}
