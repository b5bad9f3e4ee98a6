import { ApiProperty } from '@nestjs/swagger';

export class BadgeDto {
  badgeid: number;
  name: string;
  @ApiProperty({ enum: ['bronze', 'silver', 'gold'] })
  type: string;
  category: string;
  description: string;
  /** Whether it can be earned more than once. */
  multiple: boolean;
  /** How many users hold it. */
  num_users: number;
  icon: string | null;
  image: string;
  secondary_color: string;
}

export class UserBadgeDto {
  earned: boolean;
  times_earned: number;
  /** UNIX time it was first earned, or null. */
  date: number | null;
  badge: BadgeDto;
}
