import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';
import { PaginationQueryDto } from '../../../common/validation/pagination.dto';
import { DOCTYPES, type DocType } from '../../../platform/documents/document-registry';

/** P10 query. */
export class ReviewSearchQueryDto extends PaginationQueryDto {
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value))
  @IsIn(DOCTYPES, { message: 'doctype must be GUIDE or WIKI' })
  @ApiPropertyOptional({ enum: DOCTYPES })
  doctype?: DocType;
}

/** SearchHit (docs/enterprise/periodic-review.md): a DocRef with the document's schedule membership, if any. */
export class SearchHitDto {
  @ApiProperty({ enum: DOCTYPES })
  doctype: DocType;
  docid: number;
  title: string;
  url: string;
  @ApiProperty({ type: Number, nullable: true })
  prsid: number | null;
  @ApiProperty({ type: Number, nullable: true })
  prdid: number | null;
}
