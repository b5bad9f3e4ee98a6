import { IsOptional } from 'class-validator';
import { PaginationQueryDto } from '../../../common/validation/pagination.dto';
import { QueryBoolean, QueryInt, QueryOrder } from '../../../common/validation/query-decorators';

export class ListUsersQueryDto extends PaginationQueryDto {
  @IsOptional()
  @QueryOrder('Sort by userid, ASC or DESC')
  order: 'ASC' | 'DESC' = 'ASC';

  @IsOptional()
  @QueryInt({ min: 0, max: Number.MAX_SAFE_INTEGER, description: 'Only users who joined at or after this UNIX time.' })
  joinedSince?: number;

  @IsOptional()
  @QueryBoolean('Admins only: filter by account enabled. Others always see enabled accounts only.')
  enabled?: boolean;

  @IsOptional()
  @QueryBoolean('Admins only: filter by banned. Others never see banned accounts.')
  banned?: boolean;
}

export class SearchUsersQueryDto extends PaginationQueryDto {
  @IsOptional()
  @QueryBoolean('Only users who have a unique username.')
  uniqueOnly?: boolean;
}

export class CreatedUsersQueryDto extends PaginationQueryDto {}
