import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { REGISTRATION_STATUSES, type RegistrationStatus } from '../entities/training-registration.entity';
import { LAUNCH_METHODS, type LaunchMethod } from '../entities/training-version.entity';

const MAX_ID = 2147483647;

/** T2. */
export class CreateTrainingDraftDto {
  /** 1-255 characters. */
  @IsString()
  @Length(1, 255)
  title: string;

  @IsOptional()
  @IsString()
  @MaxLength(65535)
  description?: string;

  /** A new draft of this existing module (default: a new module). */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  moduleid?: number;
}

/** T7: at least one field. */
export class UpdateTrainingDraftDto {
  @IsOptional()
  @IsString()
  @Length(1, 255)
  title?: string;

  @IsOptional()
  @IsString()
  @MaxLength(65535)
  description?: string;

  /** 0-100, or null to use the package's own. */
  @IsOptional()
  @ValidateIf((_o, value) => value !== null)
  @IsInt()
  @Min(0)
  @Max(100)
  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 0, maximum: 100 })
  mastery_score?: number | null;

  @IsOptional()
  @IsIn(LAUNCH_METHODS)
  @ApiPropertyOptional({ enum: LAUNCH_METHODS })
  launch_method?: LaunchMethod;
}

/** T6. */
export class PublishTrainingDto {
  /** Default: the draft. A superseded version rolls back to it. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  versionid?: number;
}

/** T8. */
export class CreateTrainingImportDto {
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  moduleid: number;
}

/** T9. */
export class StartImportByUrlDto {
  /** https (plain http only for hosts in TRAINING_URL_ALLOW), at most 2048 characters. */
  @IsString()
  @Length(1, 2048)
  @ApiProperty({ example: 'https://packages.example.com/safety-induction.zip' })
  url: string;
}

/** E: a commit from the player. */
export class CommitRegistrationDto {
  /** The runtime's data model (`cmi.core.*` of SCORM 1.2 or `cmi.*` of 2004); the fields below win over it. */
  @IsOptional()
  @IsObject()
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  cmi?: Record<string, unknown>;

  @IsOptional()
  @IsIn(REGISTRATION_STATUSES)
  @ApiPropertyOptional({ enum: REGISTRATION_STATUSES })
  status?: RegistrationStatus;

  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-1)
  @Max(1)
  score_scaled?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_ID)
  total_time_s?: number;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  location?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64000)
  suspend_data?: string;
}
