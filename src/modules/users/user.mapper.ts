import { highestPrivilege, parsePrivileges } from '../../common/auth/privileges';
import type { UserEntity, UserLightColumns } from './entities/user.entity';
import type {
  AvatarImageDto,
  BadgeCountsDto,
  UserDetailDto,
  UserLightDto,
  UserListItemDto,
  UserSummaryDto,
} from './dto/user-response.dto';
import { userUrl } from './user-urls';

/** What the mappers need besides the row; loaded in batches by the service. */
export interface UserContext {
  publicUrl: string;
  teams: Map<number, number[]>;
  images: Map<number, AvatarImageDto>;
  defaultAvatar: AvatarImageDto;
}

export function toUserLight(user: UserLightColumns, ctx: UserContext): UserLightDto {
  return {
    userid: user.userid,
    username: user.username,
    unique_username: user.uniqueUsername,
    join_date: user.joinDate,
    image: (user.imageid !== null && ctx.images.get(user.imageid)) || ctx.defaultAvatar,
    reputation: user.reputation,
    url: userUrl(ctx.publicUrl, user.userid, user.username),
    teams: ctx.teams.get(user.userid) ?? [],
  };
}

export function toUserSummary(user: UserEntity, ctx: UserContext): UserSummaryDto {
  return { ...toUserLight(user, ctx), privileges: displayPrivileges(user.privileges) };
}

export function toUserListItem(user: UserEntity, ctx: UserContext): UserListItemDto {
  return { ...toUserSummary(user, ctx), enabled: user.enabled, banned: user.banned };
}

export interface DetailExtras {
  badgeCounts: BadgeCountsDto;
  aboutRendered: string;
  /** The caller is this user (sees e-mail). */
  isSelf: boolean;
  /** The caller is an Admin (sees e-mail and account fields). */
  isAdmin: boolean;
}

export function toUserDetail(user: UserEntity, ctx: UserContext, extras: DetailExtras): UserDetailDto {
  const detail: UserDetailDto = {
    ...toUserSummary(user, ctx),
    certification_count: 0,
    badge_counts: extras.badgeCounts,
    summary: user.summary,
    about_raw: user.aboutRaw,
    about_rendered: extras.aboutRendered,
    langid: user.langid,
    greatest_privilege: highestPrivilege(parsePrivileges(user.privileges)),
  };
  if (extras.isSelf || extras.isAdmin) detail.email = user.email;
  if (extras.isAdmin) {
    detail.enabled = user.enabled;
    detail.banned = user.banned;
    detail.sso_userid = user.ssoUserid;
    detail.employee_id = user.employeeId;
  }
  return detail;
}

/** Stored privileges, highest first; an account with none shows an empty list (as iFixit does). */
export function displayPrivileges(stored: string): string[] {
  const order = ['Admin', 'Moderator', 'Author', 'User'];
  const held = parsePrivileges(stored);
  return order.filter((p) => held.includes(p as never));
}
