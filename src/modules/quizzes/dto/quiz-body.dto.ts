import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { INT32_MAX } from '../../../common/validation/input-guards';
import { Trim } from '../../../common/validation/string-decorators';

/** An id in a body: an integer in 1..2^31-1. */
const BodyId = () => (target: object, key: string) => {
  IsInt()(target, key);
  Min(1)(target, key);
  Max(INT32_MAX)(target, key);
};

const BodyIds = (max: number) => (target: object, key: string) => {
  IsArray()(target, key);
  ArrayMinSize(1)(target, key);
  ArrayMaxSize(max)(target, key);
  IsInt({ each: true })(target, key);
  Min(1, { each: true })(target, key);
  Max(INT32_MAX, { each: true })(target, key);
};

export class CreateQuizDto {
  /** 1-255 characters after trimming. */
  @Trim()
  @IsString()
  @Length(1, 255)
  title: string;

  /** Default: the primary guide's category, else ''. */
  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(255)
  category?: string;

  /** The primary guide (you must be able to edit it); also associates the quiz with it. */
  @IsOptional()
  @BodyId()
  guideid?: number;

  /** 0-100, default 80. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(100)
  default_passing_score?: number;

  /** false creates the quiz `disabled`. Default true. */
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  /** Survey-builder JSON (0-100 pages here). Default `{pages: []}`. */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  survey?: Record<string, unknown>;
}

export class ImportQuizDto {
  /** Survey-builder JSON with 1-100 pages; every question has a name and a correctAnswer. */
  @ApiProperty({ type: 'object', additionalProperties: true })
  @IsObject()
  survey: Record<string, unknown>;

  /** Default: survey.title. */
  @IsOptional()
  @Trim()
  @IsString()
  @Length(1, 255)
  title?: string;

  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(255)
  category?: string;

  @IsOptional()
  @BodyId()
  guideid?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(100)
  default_passing_score?: number;
}

export const GET_QUIZZES_SORTS = [
  'quizid',
  'title',
  'category',
  'created_date',
  'modified_date',
  'released_date',
] as const;

export class GetQuizzesFiltersDto {
  @IsOptional()
  @IsString()
  @MaxLength(255)
  category?: string;

  @ApiPropertyOptional({ enum: ['active', 'disabled'] })
  @IsOptional()
  @IsIn(['active', 'disabled'], { message: 'filters.status must be active or disabled' })
  status?: string;

  @IsOptional()
  @BodyId()
  guideid?: number;
}

export class GetQuizzesSortDto {
  @ApiProperty({ enum: GET_QUIZZES_SORTS })
  @IsIn(GET_QUIZZES_SORTS, { message: `sort.property must be one of ${GET_QUIZZES_SORTS.join(', ')}` })
  property: string;

  @ApiPropertyOptional({ enum: ['ASC', 'DESC'], default: 'ASC' })
  @IsOptional()
  @IsIn(['ASC', 'DESC', 'asc', 'desc'], { message: 'sort.direction must be ASC or DESC' })
  direction?: string;
}

export class GetQuizzesDto {
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(INT32_MAX)
  offset?: number;

  /** 1-200 (larger values are treated as 200), default 20. */
  @IsOptional()
  @IsInt()
  @Min(1)
  limit?: number;

  /** Substring of the title (case-insensitive). */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  search?: string;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => GetQuizzesFiltersDto)
  filters?: GetQuizzesFiltersDto;

  /** Default: quizid ASC. */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => GetQuizzesSortDto)
  sort?: GetQuizzesSortDto;
}

export class DeleteQuizzesDto {
  /** 1-100 quiz ids. */
  @BodyIds(100)
  quizids: number[];
}

export class AssociationsBodyDto {
  @BodyId()
  guideid: number;

  /** 1-100 quiz ids. */
  @BodyIds(100)
  quizids: number[];
}

export class AttachGuideDto {
  @BodyId()
  quizid: number;

  @BodyId()
  guideid: number;
}

export class AttachWikiDto {
  @BodyId()
  quizid: number;

  @BodyId()
  wikiid: number;
}

export class AttemptDto {
  @BodyId()
  quizid: number;

  /** The course stage trained for: its passing score applies when it links this quiz and sets one. */
  @IsOptional()
  @BodyId()
  course_stageid?: number;

  /** The context: a guide you may read (at most one of guideid and wikiid). */
  @IsOptional()
  @BodyId()
  guideid?: number;

  /** The context: a wiki you may read. */
  @IsOptional()
  @BodyId()
  wikiid?: number;
}

export class QuestionInputDto {
  /** The survey element name, 1-100 characters. */
  @IsString()
  @Length(1, 100)
  external_question_uid: string;

  @IsString()
  @Length(1, 2000)
  title: string;

  /** A survey-builder question type (needed for a new uid). */
  @IsOptional()
  @IsString()
  @Length(1, 32)
  type?: string;

  @ApiPropertyOptional({ type: 'array', items: {} })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(500)
  choices?: unknown[];

  /** Needed for a new uid; ignored for an existing one (only its title changes). */
  @ApiPropertyOptional({ description: 'Any JSON value' })
  @IsOptional()
  correctAnswer?: unknown;
}

export class QuestionsBodyDto {
  @BodyId()
  quizid: number;

  /** 1-500 questions. */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => QuestionInputDto)
  questions: QuestionInputDto[];
}

export class SessionIdDto {
  @BodyId()
  sessionid: number;
}

export class SaveSessionDto {
  @BodyId()
  sessionid: number;

  /** `{external_question_uid: value}`, merged into the saved answers. */
  @ApiProperty({ type: 'object', additionalProperties: true })
  @IsObject()
  answers: Record<string, unknown>;
}

export class SubmitSessionDto {
  @BodyId()
  sessionid: number;

  /** Merged into the saved answers before grading. */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  answers?: Record<string, unknown>;
}

export class BulkCancelDto {
  /** 1-500 session ids. */
  @BodyIds(500)
  sessionids: number[];
}

export class InvalidateDto {
  /** Why; recorded on each session and in the audit log. */
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  reason?: string;
}

/** DELETE /quizzes/associations: in the body, or in the query (`?guideid=1&quizids=2,3`). */
export class DissociateBodyDto {
  @IsOptional()
  @BodyId()
  guideid?: number;

  /** 1-100 quiz ids. */
  @IsOptional()
  @BodyIds(100)
  quizids?: number[];
}
