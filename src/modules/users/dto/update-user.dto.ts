import {
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { PRIVILEGES } from '../../../common/auth/privileges';
import { Trim, TrimLower } from '../../../common/validation/string-decorators';

export const UNIQUE_USERNAME = /^[a-z0-9_]{3,30}$/;
export const UNIQUE_USERNAME_RULE = 'unique_username must be 3 to 30 characters of a-z, 0-9 and _';

/**
 * PATCH /users/{userid}. Profile fields: the user or an Admin. Account fields (email, privileges,
 * enabled, banned, sso_userid, employee_id, password without current_password): Admins only (403).
 */
export class UpdateUserDto {
  @IsOptional()
  @Trim()
  @IsString()
  @Length(1, 255)
  username?: string;

  /** null removes it. */
  @IsOptional()
  @TrimLower()
  @ValidateIf((_o, v) => v !== null)
  @Matches(UNIQUE_USERNAME, { message: UNIQUE_USERNAME_RULE })
  unique_username?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  summary?: string;

  @IsOptional()
  @IsString()
  @MaxLength(65535)
  about_raw?: string;

  @IsOptional()
  @IsString()
  @Matches(/^[a-z]{2}([_-][A-Za-z]{2})?$/, { message: 'langid must be a language id such as en or pt_BR' })
  langid?: string;

  /** Avatar image id (from the caller's media manager); null for the default avatar. */
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsInt()
  @Min(1)
  image?: number | null;

  /** A new password; a user changing their own needs current_password. */
  @IsOptional()
  @IsString()
  @MinLength(10, { message: 'password must be at least 10 characters' })
  @MaxLength(1024)
  password?: string;

  @IsOptional()
  @IsString()
  current_password?: string;

  @IsOptional()
  @TrimLower()
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(255)
  email?: string;

  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsIn(PRIVILEGES, { each: true, message: `each privilege must be one of ${PRIVILEGES.join(', ')}` })
  privileges?: string[];

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  /** true bans now, false lifts the ban. */
  @IsOptional()
  @IsBoolean()
  banned?: boolean;

  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString()
  @Length(1, 255)
  sso_userid?: string | null;

  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString()
  @Length(1, 255)
  employee_id?: string | null;
}

export const ADMIN_ONLY_FIELDS = ['email', 'privileges', 'enabled', 'banned', 'sso_userid', 'employee_id'] as const;
