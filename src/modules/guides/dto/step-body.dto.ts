import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
  IsObject,
} from 'class-validator';
import { BULLETS, STEP_LINE_MAX_LENGTH, STEP_MAX_IMAGES, STEP_MAX_LINES } from '../guide-data';
import { Trim } from '../../../common/validation/string-decorators';
import { StepFormInputDto } from '../../step-forms/dto/step-form.dto';

export class StepLineInputDto {
  /** Wiki text, 1 to 350 characters. */
  @IsString()
  @Length(1, STEP_LINE_MAX_LENGTH)
  text: string;

  @IsIn(BULLETS, { message: `bullet must be one of ${BULLETS.join(', ')}` })
  bullet: string;

  /** 0 to 2; the first line is 0 and each line is at most one level deeper than the previous. */
  @IsInt()
  @Min(0)
  @Max(2)
  level: number;
}

export class StepMediaInputDto {
  /** Only `image` is supported. */
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value))
  @IsIn(['image'], { message: 'media.type must be image' })
  type: string;

  /** Up to 3 image ids; newly attached ones must be in the caller's media manager. */
  @IsArray()
  @ArrayMaxSize(STEP_MAX_IMAGES)
  @IsInt({ each: true })
  @Min(1, { each: true })
  data: number[];
}

export class StepLinesDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(STEP_MAX_LINES)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => StepLineInputDto)
  lines: StepLineInputDto[];
}

export class CreateStepDto extends StepLinesDto {
  /** 1-based position, 1 to the step count plus one; default: after the last step. */
  @IsOptional()
  @IsInt()
  @Min(1)
  orderby?: number;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => StepMediaInputDto)
  media?: StepMediaInputDto;

  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(255)
  title?: string;

  /** The step's form (an extension of the API); null removes it. A changed form makes a new step revision. */
  @ApiPropertyOptional({ type: StepFormInputDto, nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => StepFormInputDto)
  form?: StepFormInputDto | null;
}

export class UpdateStepDto {
  /**
   * A language other than the guide's source language edits the step's translation: only `title` and the
   * lines' `text` change (send the source's lines, same count, bullets and levels); `media` is shared.
   */
  @IsOptional()
  @Matches(/^[a-z]{2}$/, { message: 'langid must be two lower-case letters' })
  langid?: string;

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(STEP_MAX_LINES)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => StepLineInputDto)
  lines?: StepLineInputDto[];

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => StepMediaInputDto)
  media?: StepMediaInputDto;

  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(255)
  title?: string;

  /** The step's form (an extension of the API); null removes it. A changed form makes a new step revision. */
  @ApiPropertyOptional({ type: StepFormInputDto, nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => StepFormInputDto)
  form?: StepFormInputDto | null;
}

export class StepOrderDto {
  /** The guide's step ids in the new order (a permutation of them). */
  @IsArray()
  @IsInt({ each: true })
  stepids: number[];
}
