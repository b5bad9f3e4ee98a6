import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PaginationQueryDto } from '../../../common/validation/pagination.dto';
import { QueryInt, QueryOrder } from '../../../common/validation/query-decorators';
import { RELEASE_STATUSES, RELEASE_TYPES, type ReleaseStatus, type ReleaseType } from '../entities/release.entity';
import { MAX_ID } from './release-body.dto';

/** R2: GET /guides/{guideid}/releases. */
export class DocumentReleasesQueryDto extends PaginationQueryDto {
  @IsOptional()
  @QueryOrder('Direction of the releaseid order.')
  order: 'ASC' | 'DESC' = 'ASC';

  @IsOptional()
  @IsIn(RELEASE_STATUSES)
  @ApiPropertyOptional({ enum: RELEASE_STATUSES })
  status?: ReleaseStatus;
}

/** R1: GET /guides/releases. */
export class GuideReleasesQueryDto extends DocumentReleasesQueryDto {
  @IsOptional()
  @QueryInt({ min: 1, max: MAX_ID, description: 'Only this guide’s releases.' })
  guideid?: number;

  @IsOptional()
  @IsIn(RELEASE_TYPES)
  @ApiPropertyOptional({ enum: RELEASE_TYPES })
  type?: ReleaseType;
}
