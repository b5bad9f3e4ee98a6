import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PaginationQueryDto } from '../../../common/validation/pagination.dto';
import { QueryInt, QueryOrder } from '../../../common/validation/query-decorators';

/** T1. */
export class CurrentModulesQueryDto extends PaginationQueryDto {
  /** Words that the title must contain. */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  @ApiPropertyOptional()
  search?: string;

  @IsOptional()
  @QueryOrder('Direction of the moduleid order.')
  order: 'ASC' | 'DESC' = 'ASC';
}

/** T5. */
export class ImportsQueryDto extends PaginationQueryDto {
  @IsOptional()
  @QueryOrder('Direction of the importid order.')
  order: 'ASC' | 'DESC' = 'ASC';
}

/** T4. */
export class PlayerQueryDto {
  @IsOptional()
  @QueryInt({ min: 1, max: 2147483647, description: 'Default: the current version. Others are an Admin preview.' })
  versionid?: number;
}
