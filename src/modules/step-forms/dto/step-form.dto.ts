import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
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
import { INT32_MAX } from '../../../common/validation/input-guards';
import { Trim } from '../../../common/validation/string-decorators';
import { FIELD_TYPES, MAX_FIELDS } from '../step-form-values';

export class FormFieldInputDto {
  /** 16 letters or digits; keeps a field's identity across revisions. Omit for a new field. */
  @IsOptional()
  @Matches(/^[A-Za-z0-9]{16}$/, { message: 'field_guid must be 16 letters or digits' })
  field_guid?: string;

  @Trim()
  @IsString()
  @Length(1, 255)
  label: string;

  @ApiProperty({ enum: FIELD_TYPES })
  @IsIn(FIELD_TYPES, { message: `field_type must be one of ${FIELD_TYPES.join(', ')}` })
  field_type: string;

  @IsOptional()
  @IsBoolean()
  required?: boolean;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  placeholder?: string;

  @IsOptional()
  @IsBoolean()
  textarea?: boolean;

  /** Radios and Select: 1-100 distinct strings of 1-255 characters; other types ignore them. */
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  options?: string[];

  /** Numeric Input only (E): the unit shown beside the value. */
  @IsOptional()
  @IsString()
  @MaxLength(32)
  unit?: string;

  /** Numeric Input only (E): the smallest accepted value. */
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  min?: number;

  /** Numeric Input only (E): the largest accepted value. */
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  max?: number;
}

export class StepFormInputDto {
  @IsArray()
  @ArrayMaxSize(MAX_FIELDS)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => FormFieldInputDto)
  fields: FormFieldInputDto[];

  /** A team whose member must sign off this step before an entry can finish; null for none. */
  @ApiPropertyOptional({ type: 'integer', nullable: true })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  signoff_teamid?: number | null;
}

export class FormFieldDto {
  field_revisionid: number;
  /** 16 characters, stable across revisions. */
  field_guid: string;
  label: string;
  @ApiProperty({ enum: FIELD_TYPES })
  field_type: string;
  required: boolean;
  placeholder: string;
  textarea: boolean;
  options: string[];
  /** Numeric Input (E); null otherwise. */
  @ApiProperty({ type: String, nullable: true })
  unit: string | null;
  @ApiProperty({ type: Number, nullable: true })
  min: number | null;
  @ApiProperty({ type: Number, nullable: true })
  max: number | null;
}

export class StepFormDto {
  form_revisionid: number;
  @ApiProperty({ type: 'integer', nullable: true })
  signoff_teamid: number | null;
  @ApiProperty({ type: [FormFieldDto] })
  fields: FormFieldDto[];
}

/** A step's form as an entry shows it (the revision in force when the entry started). */
export class EntryStepFormDto extends StepFormDto {
  stepid: number;
}
