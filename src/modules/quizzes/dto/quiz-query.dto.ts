import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PaginationQueryDto } from '../../../common/validation/pagination.dto';
import { QueryInt, QueryOrder } from '../../../common/validation/query-decorators';
import { SESSION_STATUSES } from '../quiz-session.state-machine';

export const QUIZ_LIST_SORTS = [
  'guideid',
  'category',
  'quiz_title',
  'guide_title',
  'release_date',
  'sessions_submitted',
] as const;
export type QuizListSort = (typeof QUIZ_LIST_SORTS)[number];

export class QuizListQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({
    enum: QUIZ_LIST_SORTS,
    default: 'release_date',
    description: 'release_date sorts by quiz_last_released, sessions_submitted by quizzes_submitted.',
  })
  @IsOptional()
  @IsIn(QUIZ_LIST_SORTS, { message: `sort must be one of ${QUIZ_LIST_SORTS.join(', ')}` })
  sort: QuizListSort = 'release_date';

  @ApiPropertyOptional({ enum: ['ASC', 'DESC'], default: 'DESC', description: 'Sort direction (DESC by default here)' })
  @IsOptional()
  @QueryOrder('Sort direction (default DESC on this endpoint)')
  order: 'ASC' | 'DESC' = 'DESC';

  @ApiPropertyOptional({ description: 'Exact category.' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  category?: string;

  @ApiPropertyOptional({ description: 'Substring of the quiz title or the guide title (case-insensitive).' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  search?: string;
}

export class QuizDetailQueryDto {
  @IsOptional()
  @QueryInt({ min: 1, description: 'Another revision of this quiz (a revision of another quiz is 404).' })
  revisionid?: number;

  @ApiPropertyOptional({ enum: ['survey'], description: '`survey` answers the bare survey JSON.' })
  @IsOptional()
  @IsIn(['survey'], { message: 'format must be survey' })
  format?: string;
}

export class SessionListQueryDto extends PaginationQueryDto {
  @IsOptional()
  @QueryInt({ min: 1, description: "Sessions of this user (another user's needs Moderator+). Default: yours." })
  userid?: number;

  @IsOptional()
  @QueryInt({ min: 1, description: 'Sessions of this quiz.' })
  quizid?: number;

  @ApiPropertyOptional({ enum: SESSION_STATUSES })
  @IsOptional()
  @IsIn(SESSION_STATUSES, { message: `status must be one of ${SESSION_STATUSES.join(', ')}` })
  status?: string;

  @IsOptional()
  @QueryOrder('By sessionid')
  order: 'ASC' | 'DESC' = 'ASC';
}

/** DELETE /quizzes/associations may carry its input in the query: `?guideid=1&quizids=2,3`. */
export class AssociationsQueryDto {
  @IsOptional()
  @QueryInt({ min: 1, description: 'With quizids, when there is no body.' })
  guideid?: number;

  @ApiPropertyOptional({ type: 'string', description: 'Comma-separated quiz ids, when there is no body.' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (Array.isArray(value) ? value.join(',') : value))
  @IsString()
  @MaxLength(2000)
  quizids?: string;
}
