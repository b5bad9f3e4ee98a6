import { IsOptional, IsString, Length, Matches } from 'class-validator';
import { PaginationQueryDto } from '../../../common/validation/pagination.dto';
import { QueryInt, QueryOrder } from '../../../common/validation/query-decorators';
import { ApiPropertyOptional } from '@nestjs/swagger';

export class AuditQueryDto extends PaginationQueryDto {
  @IsOptional()
  @IsString()
  @Length(1, 50)
  @ApiPropertyOptional({ description: 'Entity type, e.g. `guide`, `user`, `release`.', example: 'guide' })
  entity_type?: string;

  @IsOptional()
  @IsString()
  @Length(1, 100)
  @ApiPropertyOptional({ description: 'Entity id (with entity_type).', example: '1' })
  entity_id?: string;

  @IsOptional()
  @QueryInt({ min: 1, max: 2147483647, description: 'Only rows of this acting userid.' })
  actor?: number;

  @IsOptional()
  @IsString()
  @Matches(/^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*\.?$/, {
    message: 'action must be a dotted verb, or a prefix ending in "."',
  })
  @ApiPropertyOptional({ description: 'An action (`guide.delete`), or a prefix ending in a dot (`guide.`).' })
  action?: string;

  @IsOptional()
  @QueryInt({ min: 0, max: 253402300799, description: 'Only rows at or after this time (UNIX seconds).' })
  from?: number;

  @IsOptional()
  @QueryInt({ min: 0, max: 253402300799, description: 'Only rows at or before this time (UNIX seconds).' })
  to?: number;

  @IsOptional()
  @QueryOrder('By auditid; default ASC (oldest first).')
  order: 'ASC' | 'DESC' = 'ASC';
}
