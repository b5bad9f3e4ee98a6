import { IsOptional } from 'class-validator';
import { PaginationQueryDto } from '../../../common/validation/pagination.dto';
import { QueryInt } from '../../../common/validation/query-decorators';

export class ViewHistoryQueryDto extends PaginationQueryDto {
  @IsOptional()
  @QueryInt({
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    description: 'Only views on or after this time (UNIX seconds, inclusive).',
  })
  start_date?: number;

  @IsOptional()
  @QueryInt({
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    description: 'Only views on or before this time (UNIX seconds, inclusive).',
  })
  end_date?: number;
}
