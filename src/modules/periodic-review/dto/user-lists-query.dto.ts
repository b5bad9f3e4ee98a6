import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PaginationQueryDto } from '../../../common/validation/pagination.dto';
import { QueryOrder } from '../../../common/validation/query-decorators';
import type { ReviewState } from '../../../platform/documents/review-directory';
import { CHANGE_REQUEST_STATUSES, type ChangeRequestStatus } from '../entities/change-request.entity';
import { REVIEW_STATES } from './schedule-response.dto';

/** P5: GET /periodic_review/reviews/{userid}. */
export class UserReviewsQueryDto extends PaginationQueryDto {
  @IsOptional()
  @QueryOrder('Direction of the reviewid order.')
  order: 'ASC' | 'DESC' = 'ASC';
}

/** P6: GET /periodic_review/documents/{userid}. */
export class UserDocumentsQueryDto extends PaginationQueryDto {
  @IsOptional()
  @IsIn(REVIEW_STATES)
  @ApiPropertyOptional({ enum: REVIEW_STATES })
  state?: ReviewState;
}

/** P12: GET /periodic_review/requests/{userid}. */
export class UserRequestsQueryDto extends PaginationQueryDto {
  @IsOptional()
  @IsIn(CHANGE_REQUEST_STATUSES)
  @ApiPropertyOptional({ enum: CHANGE_REQUEST_STATUSES })
  status?: ChangeRequestStatus;
}
