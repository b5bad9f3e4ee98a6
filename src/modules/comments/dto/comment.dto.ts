import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Length, Min } from 'class-validator';
import { PaginationQueryDto } from '../../../common/validation/pagination.dto';
import { QueryInt, QueryOrder } from '../../../common/validation/query-decorators';
import { UserLightDto } from '../../users/dto/user-response.dto';
import { Trim } from '../../../common/validation/string-decorators';

export class CommentReplyDto {
  commentid: number;
  /** Language id given when written, else null. */
  locale: string | null;
  context: string;
  contextid: number;
  parentid: number | null;
  author: UserLightDto;
  title: string;
  text_raw: string;
  /** Sanitized HTML rendered from text_raw. */
  text_rendered: string;
  /** Always 0 (no voting yet). */
  rating: number;
  /** UNIX time written. */
  date: number;
  /** UNIX time of the last edit; 0 when never edited. */
  modified_date: number;
  /** UNIX time of the newest reply; 0 without replies. */
  replied_date: number;
  @ApiProperty({ enum: ['public', 'deleted'] })
  status: string;
}

export class CommentDto extends CommentReplyDto {
  /** Direct replies (replies carry no `replies` of their own). */
  @ApiProperty({ type: [CommentReplyDto] })
  replies: CommentReplyDto[];
}

export class CreateCommentDto {
  /** Wiki text, 12 to 4096 characters. */
  @Trim()
  @IsString()
  @Length(12, 4096)
  text: string;

  /** A top-level comment of the same document to reply to. */
  @IsOptional()
  @IsInt()
  @Min(1)
  parentid?: number;

  /** Language of the text (optional; stored as the comment's locale). */
  @IsOptional()
  @IsString()
  @Length(2, 16)
  langid?: string;
}

export class UpdateCommentDto {
  @Trim()
  @IsString()
  @Length(12, 4096)
  text: string;
}

export class ListCommentsQueryDto extends PaginationQueryDto {
  @IsOptional()
  @QueryOrder('Sort by commentid')
  order: 'ASC' | 'DESC' = 'ASC';

  @IsOptional()
  @QueryInt({
    min: 0,
    description: 'Only comments edited at or after this UNIX time (modified_date is 0 until a first edit).',
  })
  modifiedSince?: number;

  @IsOptional()
  @IsIn(['guide', 'step'])
  context?: string;
}
