import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { INT32_MAX } from '../../../common/validation/input-guards';
import { Trim } from '../../../common/validation/string-decorators';

export class CreateEntryDto {
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  guideid: number;

  /** 1-255 characters after trimming. */
  @Trim()
  @IsString()
  @Length(1, 255)
  workorderid: string;

  /** Accepted and ignored (Dozuki clients send it). */
  @ApiPropertyOptional()
  @IsOptional()
  join_code?: unknown;
}

export class CancelEntryDto {
  /** Why; recorded in the audit log. */
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  reason?: string;
}

export const MAX_STEP_DATA_KEYS = 100;

export class StepDataDto {
  /** `{"<field_revisionid>": value}`: 1 to 100 fields of this guide's step forms (any revision). */
  @ApiProperty({ type: 'object', additionalProperties: true, example: { '125': '12.5' } })
  @IsObject()
  @ValidateBy({
    name: 'fieldCount',
    validator: {
      validate: (value: unknown) => {
        const n = value && typeof value === 'object' ? Object.keys(value).length : 0;
        return n >= 1 && n <= MAX_STEP_DATA_KEYS;
      },
      defaultMessage: () => `fields must have 1 to ${MAX_STEP_DATA_KEYS} keys`,
    },
  })
  fields: Record<string, unknown>;

  /** Must equal the entry's newest timingid, or 409 with the entry. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  lasttimingid?: number;

  /** The step the operator is on; a different one closes the open timing and opens one for it. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  stepid?: number;
}

export class RequestSignoffDto {
  /** A step of the entry's guide whose form names a sign-off team. */
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  stepid: number;
}

export class SignSignoffDto {
  @ApiProperty({ enum: ['approve', 'reject'] })
  @IsIn(['approve', 'reject'], { message: 'decision must be approve or reject' })
  decision: string;

  /** The signer's password, re-entered. */
  @IsString()
  @Length(1, 1000)
  password: string;

  /** Required to reject. */
  @ValidateIf((o: SignSignoffDto) => o.decision === 'reject' || o.note !== undefined)
  @IsString()
  @Length(1, 5000, { message: 'note is required to reject (1-5000 characters)' })
  note?: string;
}
