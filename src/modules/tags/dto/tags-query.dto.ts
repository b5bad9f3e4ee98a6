import { IsOptional } from 'class-validator';
import { PaginationQueryDto } from '../../../common/validation/pagination.dto';
import { QueryOrder } from '../../../common/validation/query-decorators';

export class TagsQueryDto extends PaginationQueryDto {
  @IsOptional()
  @QueryOrder('Direction of the tag id (creation) order.')
  order: 'ASC' | 'DESC' = 'ASC';
}
