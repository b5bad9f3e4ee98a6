import { ApiProperty } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { PRIVILEGES } from '../../../common/auth/privileges';
import { UserSummaryDto } from './user-response.dto';

export class CreateByEmailsDto {
  /** 1 to 200 e-mail addresses; each gets its own result. */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @MaxLength(255, { each: true })
  emails: string[];

  /** Privileges for the new accounts (default none: plain users). */
  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsIn(PRIVILEGES, { each: true, message: `each privilege must be one of ${PRIVILEGES.join(', ')}` })
  privileges?: string[];
}

export class CreateByEmailResultDto {
  email: string;
  /** created: a new account; exists: an account already has this address; invalid: not an e-mail address; duplicate: listed twice in this request. */
  @ApiProperty({ enum: ['created', 'exists', 'invalid', 'duplicate'] })
  status: 'created' | 'exists' | 'invalid' | 'duplicate';
  userid?: number;
  message?: string;
}

export class CreateByEmailsResponseDto {
  /** How many accounts were created. */
  created: number;
  /** One result per listed address, in the order given. */
  results: CreateByEmailResultDto[];
}

export class CreatedUserDto extends UserSummaryDto {
  email: string;
  /** The Admin who created the account. */
  created_by: number | null;
}

export class UniqueUsernamesDto {
  /** Names to check, 1 to 50. */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(255, { each: true })
  unique_usernames: string[];

  /** When true (authenticated callers), the first valid and available name becomes the caller's unique username. */
  @IsOptional()
  @IsBoolean()
  reserve?: boolean;
}

export class UniqueUsernameResultDto {
  /** The name as it would be stored (trimmed, lower-case). */
  unique_username: string;
  valid: boolean;
  available: boolean;
  message?: string;
}

export class UniqueUsernamesResponseDto {
  results: UniqueUsernameResultDto[];
  /** The name reserved for the caller, when `reserve` was asked and one was free; else null. */
  reserved: string | null;
}
