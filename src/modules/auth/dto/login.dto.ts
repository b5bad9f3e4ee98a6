import { IsEmail, IsOptional, IsString, Length, Matches, MaxLength, MinLength } from 'class-validator';
import { UNIQUE_USERNAME, UNIQUE_USERNAME_RULE } from '../../users/dto/update-user.dto';
import { MIN_PASSWORD_LENGTH } from '../../../common/security/password';
import { Trim, TrimLower } from '../../../common/validation/string-decorators';

export class LoginDto {
  @Trim()
  @IsString()
  @MaxLength(255)
  email: string;

  @IsString()
  @MaxLength(1024)
  password: string;
}

export class RegisterDto {
  @TrimLower()
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(255)
  email: string;

  /** Display name. */
  @Trim()
  @IsString()
  @Length(1, 255)
  username: string;

  @IsOptional()
  @TrimLower()
  @Matches(UNIQUE_USERNAME, { message: UNIQUE_USERNAME_RULE })
  unique_username?: string;

  @IsString()
  @MinLength(MIN_PASSWORD_LENGTH, { message: `password must be at least ${MIN_PASSWORD_LENGTH} characters` })
  @MaxLength(1024)
  password: string;
}
