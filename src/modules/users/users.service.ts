import { isAdmin } from '../../common/auth/privileges';
import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { parsePrivileges } from '../../common/auth/privileges';
import { notFound } from '../../common/http/api-errors';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { parseTeamIds, UserFactsRegistry, type KnownUser } from './user-facts.registry';
import { WikiTextService } from '../wikitext/wikitext.service';
import { AVATAR_SOURCE, type AvatarSource } from './avatar-source';
import type { UserEntity } from './entities/user.entity';
import type { ListUsersQueryDto } from './dto/user-query.dto';
import type { UserDetailDto, UserLightDto, UserListItemDto, UserSummaryDto } from './dto/user-response.dto';
import type { NameSearchResultDto, UserSearchResultDto } from './dto/user-search.dto';
import { toUserDetail, toUserLight, toUserListItem, toUserSummary, type UserContext } from './user.mapper';
import { UsersRepository } from './users.repository';

export type { KnownUser };

/** userid → team ids of users read with their `teamIdsSql` column; lists not read or maybe cut are left out. */
function knownTeamIds(users: KnownUser[]): Map<number, number[]> {
  const known = new Map<number, number[]>();
  for (const { user, teamIds } of users) {
    const parsed = parseTeamIds(teamIds);
    if (parsed) known.set(user.userid, parsed);
  }
  return known;
}

/** Reads of users, and the batch helpers other modules use to embed users in their responses. */
@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly facts: UserFactsRegistry,
    private readonly wikiText: WikiTextService,
    @Inject(AVATAR_SOURCE) private readonly avatars: AvatarSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Team ids and avatars for many users: two queries whatever their number. `knownTeams`: team ids already
   * read with the users (see lightUsers); only the others are queried.
   */
  async context(
    users: Pick<UserEntity, 'userid' | 'imageid'>[],
    knownTeams?: Map<number, number[]>,
  ): Promise<UserContext> {
    const imageids = [...new Set(users.map((u) => u.imageid).filter((id): id is number => id !== null))];
    const unknown = users.map((u) => u.userid).filter((userid) => !knownTeams?.has(userid));
    const [read, images] = await Promise.all([this.facts.teamIds(unknown), this.avatars.imageObjects(imageids)]);
    const teams = knownTeams ? new Map([...knownTeams, ...read]) : read;
    return { publicUrl: this.config.publicUrl, teams, images, defaultAvatar: this.avatars.defaultAvatar() };
  }

  /** A subquery of the team ids of the user whose id is `userColumn`, to read with users (see knownTeamIds). */
  teamIdsSql(userColumn: string): string | undefined {
    return this.facts.teamIdsSql(userColumn);
  }

  /** userid → e-mail address for mailing users (never for responses), in one query. */
  async emailsOf(userids: number[]): Promise<Map<number, string>> {
    const users = await this.users.findByIds([...new Set(userids)]);
    return new Map(users.filter((u) => u.email).map((u) => [u.userid, u.email]));
  }

  /**
   * Light user objects for ids (authors, commenters…): one statement for the users and their teams (avatars:
   * one more). `known`: users already read with another statement, not read again.
   */
  async lightUsers(userids: number[], known: KnownUser[] = []): Promise<Map<number, UserLightDto>> {
    const have = new Set(known.map((k) => k.user.userid));
    const ids = [...new Set(userids)].filter((id) => !have.has(id));
    const teamIdsSql = this.teamIdsSql('u.userid');
    const read: KnownUser[] = teamIdsSql
      ? await this.users.findByIdsWithTeams(ids, teamIdsSql)
      : (await this.users.findByIds(ids)).map((user) => ({ user, teamIds: undefined }));
    const all = [...known, ...read];
    const users = all.map((row) => row.user);
    const ctx = await this.context(users, knownTeamIds(all));
    return new Map(users.map((u) => [u.userid, toUserLight(u, ctx)]));
  }

  async summaries(users: UserEntity[]): Promise<UserSummaryDto[]> {
    const ctx = await this.context(users);
    return users.map((u) => toUserSummary(u, ctx));
  }

  async list(query: ListUsersQueryDto, caller?: AuthenticatedUser): Promise<UserListItemDto[]> {
    const admin = isAdmin(caller);
    const users = await this.users.list({
      offset: query.offset,
      limit: query.limit,
      order: query.order,
      joinedSince: query.joinedSince,
      enabled: admin ? query.enabled : true,
      banned: admin ? query.banned : false,
    });
    const ctx = await this.context(users);
    return users.map((u) => toUserListItem(u, ctx));
  }

  async findEntity(userid: number): Promise<UserEntity> {
    const user = await this.users.findById(userid);
    if (!user) throw notFound('User');
    return user;
  }

  /** A user as a caller (no token), for demo content created on their behalf. */
  async callerOf(userid: number): Promise<AuthenticatedUser> {
    const user = await this.findEntity(userid);
    return { userid: user.userid, username: user.username, privileges: parsePrivileges(user.privileges), tokenid: 0 };
  }

  /** The site's first Admin as a caller, for demo content created on its behalf. */
  async firstAdmin(): Promise<AuthenticatedUser | undefined> {
    const admin = await this.users.firstAdmin();
    return admin
      ? { userid: admin.userid, username: admin.username, privileges: parsePrivileges(admin.privileges), tokenid: 0 }
      : undefined;
  }

  /** The display name of a user, or undefined when there is no such user. */
  async usernameOf(userid: number): Promise<string | undefined> {
    return (await this.users.findById(userid))?.username;
  }

  /** Adds (or removes) reputation points; answers the new total (the reputation module owns the rules). */
  async addReputation(userid: number, points: number): Promise<number> {
    await this.users.addReputation(userid, points);
    return (await this.users.findById(userid))?.reputation ?? 0;
  }

  async detail(userid: number, caller?: AuthenticatedUser): Promise<UserDetailDto> {
    return this.detailOf(await this.findEntity(userid), caller);
  }

  async detailOf(user: UserEntity, caller?: AuthenticatedUser): Promise<UserDetailDto> {
    const [ctx, badges, about] = await Promise.all([
      this.context([user]),
      this.facts.badgeCounts([user.userid]),
      this.wikiText.render(user.aboutRaw),
    ]);
    return toUserDetail(user, ctx, {
      badgeCounts: badges.get(user.userid) ?? { bronze: 0, silver: 0, gold: 0, total: 0 },
      aboutRendered: about.rendered,
      isSelf: caller?.userid === user.userid,
      isAdmin: isAdmin(caller),
    });
  }

  async detailBy(kind: 'email' | 'sso' | 'employee', value: string, caller: AuthenticatedUser): Promise<UserDetailDto> {
    const user =
      kind === 'email'
        ? await this.users.findByEmail(value)
        : kind === 'sso'
          ? await this.users.findBySsoUserid(value)
          : await this.users.findByEmployeeId(value);
    if (!user) throw notFound('User');
    return this.detailOf(user, caller);
  }

  /**
   * A numeric term is a userid. Otherwise ranked: exact unique_username, exact username, exact e-mail
   * (Admins only), then partial matches in that order. Non-Admins never match e-mails nor see disabled
   * or banned accounts.
   */
  async search(
    term: string,
    options: { uniqueOnly: boolean; offset: number; limit: number },
    caller?: AuthenticatedUser,
  ): Promise<UserSearchResultDto> {
    const admin = isAdmin(caller);
    let found: { users: KnownUser[]; total: number };
    if (/^\d+$/.test(term.trim())) {
      const user = await this.users.findById(Number(term.trim()));
      const visible =
        user && (admin || (user.enabled && user.banned === 0)) && (!options.uniqueOnly || user.uniqueUsername !== null);
      found = visible
        ? { users: options.offset === 0 ? [{ user, teamIds: undefined }] : [], total: 1 }
        : { users: [], total: 0 };
    } else {
      found = await this.users.search(
        {
          term: term.trim(),
          includeEmail: admin,
          uniqueOnly: options.uniqueOnly,
          includeDisabled: admin,
          offset: options.offset,
          limit: options.limit,
        },
        this.teamIdsSql('page.userid'),
      );
    }
    const light = await this.lightUsers([], found.users);
    return {
      search: term,
      limit: options.limit,
      offset: options.offset,
      totalResults: found.total,
      moreResults: options.offset + found.users.length < found.total,
      results: found.users.map(({ user }) => light.get(user.userid) as UserLightDto),
    };
  }

  async searchNames(term: string, offset: number, limit: number): Promise<NameSearchResultDto> {
    const found = await this.users.searchNames(term.trim(), offset, limit);
    const ctx = await this.context(found.users);
    return {
      search: term,
      limit,
      offset,
      totalResults: found.total,
      moreResults: offset + found.users.length < found.total,
      results: found.users.map((u) => {
        const light = toUserLight(u, ctx);
        return {
          username: u.username,
          unique_username: u.uniqueUsername,
          image: light.image.mini ?? light.image.original ?? '',
        };
      }),
    };
  }
}
