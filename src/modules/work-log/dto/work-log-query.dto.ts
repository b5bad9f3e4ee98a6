import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PaginationQueryDto } from '../../../common/validation/pagination.dto';
import { QueryInt, QueryOrder } from '../../../common/validation/query-decorators';
import { ENTRY_STATUSES } from '../work-log-entry.state-machine';

export class WorkLogListQueryDto extends PaginationQueryDto {
  @IsOptional()
  @QueryInt({ min: 1, description: 'Entries of this guide.' })
  guideid?: number;

  @IsOptional()
  @QueryInt({ min: 1, description: "Entries owned by this user (another user's needs Moderator+). Default: yours." })
  userid?: number;

  @ApiPropertyOptional({ description: 'Exact work order id.' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  workorderid?: string;

  @ApiPropertyOptional({ enum: ENTRY_STATUSES })
  @IsOptional()
  @IsIn(ENTRY_STATUSES, { message: `status must be one of ${ENTRY_STATUSES.join(', ')}` })
  status?: string;

  @IsOptional()
  @QueryInt({ min: 0, description: 'Entries started at or after this time (UNIX seconds).' })
  since?: number;

  @IsOptional()
  @QueryInt({ min: 0, description: 'Entries started at or before this time (UNIX seconds).' })
  until?: number;

  @IsOptional()
  @QueryOrder('By entryid')
  order: 'ASC' | 'DESC' = 'ASC';
}

export class SuspendedQueryDto extends PaginationQueryDto {}

export class SignoffListQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ enum: ['pending', 'approved', 'rejected'], default: 'pending' })
  @IsOptional()
  @IsIn(['pending', 'approved', 'rejected'], { message: 'status must be pending, approved or rejected' })
  status: string = 'pending';
}

export class WorkLogExportQueryDto {
  @IsOptional()
  @QueryInt({ min: 1, description: 'One entry (or give guideid).' })
  entryid?: number;

  @IsOptional()
  @QueryInt({ min: 1, description: 'All entries of this guide (or give entryid).' })
  guideid?: number;

  @IsOptional()
  @QueryInt({ min: 0, description: 'With guideid: entries started at or after this time (UNIX seconds).' })
  since?: number;

  @IsOptional()
  @QueryInt({ min: 0, description: 'With guideid: entries started at or before this time (UNIX seconds).' })
  until?: number;
}
