import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { PaginationQueryDto } from '../../../common/validation/pagination.dto';
import { QueryInt, QueryOrder } from '../../../common/validation/query-decorators';

export class SignRequestDto {
  @IsIn(['approve', 'reject'], { message: 'decision must be approve or reject' })
  decision: 'approve' | 'reject';

  /** The signer's password (exactly one of password or sign_token). */
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  password?: string;

  /** A one-time code mailed by POST …/token (exactly one of password or sign_token). */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  sign_token?: string;

  /** Required to reject; at most 2000 characters. */
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  note?: string;
}

export const REQUEST_STATUS_FILTER = ['pending', 'approved', 'rejected', 'cancelled'] as const;
export const ELIGIBILITY = ['mine', 'eligible', 'all'] as const;

export class ListRequestsQueryDto extends PaginationQueryDto {
  @IsOptional()
  @IsIn(REQUEST_STATUS_FILTER, { message: `status must be one of ${REQUEST_STATUS_FILTER.join(', ')}` })
  @ApiPropertyOptional({ enum: REQUEST_STATUS_FILTER })
  status?: (typeof REQUEST_STATUS_FILTER)[number];

  /** `mine` (default): requested by the caller or naming them; `eligible`: the caller can sign now; `all`: Admin. */
  @IsOptional()
  @IsIn(ELIGIBILITY, { message: `eligibility must be one of ${ELIGIBILITY.join(', ')}` })
  @ApiPropertyOptional({ enum: ELIGIBILITY, default: 'mine' })
  eligibility: (typeof ELIGIBILITY)[number] = 'mine';

  /** GUIDE or WIKI, case-insensitive. */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value))
  @IsIn(['GUIDE', 'WIKI'], { message: 'doctype must be GUIDE or WIKI' })
  @ApiPropertyOptional({ enum: ['GUIDE', 'WIKI'] })
  doctype?: 'GUIDE' | 'WIKI';

  @IsOptional()
  @QueryInt({ min: 1, description: 'Only requests of this document' })
  docid?: number;

  @IsOptional()
  @QueryOrder('Sort by approval_requestid')
  order: 'ASC' | 'DESC' = 'ASC';
}
