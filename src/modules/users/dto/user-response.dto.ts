import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Image object (docs/resources.md); avatars always carry at least id, guid and original. */
export class AvatarImageDto {
  id: number;
  guid?: string;
  mini?: string;
  thumbnail?: string;
  @ApiPropertyOptional({ name: '140x105' })
  '140x105'?: string;
  @ApiPropertyOptional({ name: '200x150' })
  '200x150'?: string;
  standard?: string;
  @ApiPropertyOptional({ name: '440x330' })
  '440x330'?: string;
  medium?: string;
  large?: string;
  huge?: string;
  original?: string;
}

export class BadgeCountsDto {
  bronze: number;
  silver: number;
  gold: number;
  total: number;
}

/** Light user object embedded in other resources and search results. */
export class UserLightDto {
  userid: number;
  /** Display name. */
  username: string;
  unique_username: string | null;
  /** UNIX timestamp. */
  join_date: number;
  image: AvatarImageDto;
  reputation: number;
  url: string;
  /** Team ids. */
  teams: number[];
}

/** Item of GET /users, and a user's summary elsewhere. */
export class UserSummaryDto extends UserLightDto {
  @ApiProperty({ type: [String], example: ['Author'] })
  privileges: string[];
}

/** Item of GET /users: the summary plus account state. */
export class UserListItemDto extends UserSummaryDto {
  enabled: boolean;
  /** 0 when not banned, else the UNIX time of the ban. */
  banned: number;
}

/** GET /users/{userid}, GET /user and the lookups. Private fields only for the user and Admins. */
export class UserDetailDto extends UserSummaryDto {
  /** Count of certifications earned (training modules); 0 until that module exists. */
  certification_count: number;
  badge_counts: BadgeCountsDto;
  summary: string;
  about_raw: string;
  /** Sanitized HTML rendered from about_raw. */
  about_rendered: string;
  langid: string;
  /** Highest privilege held (User when none). */
  greatest_privilege: string;
  /** Only to the user and to Admins. */
  email?: string;
  /** Only to Admins. */
  enabled?: boolean;
  /** Only to Admins. */
  banned?: number;
  /** Only to Admins. */
  sso_userid?: string | null;
  /** Only to Admins. */
  employee_id?: string | null;
}

export class UserWithTokenDto extends UserDetailDto {
  /** Send as `Authorization: api <authToken>`. Returned only by login and registration. */
  authToken: string;
}
