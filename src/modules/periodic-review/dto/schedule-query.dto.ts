import { IsOptional } from 'class-validator';
import { PaginationQueryDto } from '../../../common/validation/pagination.dto';
import { QueryOrder } from '../../../common/validation/query-decorators';

/** P2: GET /periodic_review. */
export class ScheduleListQueryDto extends PaginationQueryDto {
  @IsOptional()
  @QueryOrder('Direction of the prsid order.')
  order: 'ASC' | 'DESC' = 'ASC';
}
