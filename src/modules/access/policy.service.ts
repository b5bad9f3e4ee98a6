import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { hasPrivilege, privilegesAtLeast, type Privilege } from '../../common/auth/privileges';
import { InsufficientPrivilegesException } from '../../common/http/api-errors';
import { TeamsService } from '../teams/teams.service';

/** What the policy needs to know about a guide; the guides module supplies it. */
export interface GuideAccessFacts {
  authorid: number;
  public: boolean;
  grantedUserIds: readonly number[];
  grantedTeamIds: readonly number[];
}

export interface WikiAccessFacts {
  namespace: string;
  /** For USER pages the userid, for TEAM pages the teamid, as the title. */
  title: string;
}

/**
 * The one place that answers "may this caller do X to this document" (docs/api-conventions.md). Controllers never
 * compare user ids themselves. A caller's team ids are loaded once per request and remembered.
 */
@Injectable()
export class PolicyService {
  private readonly teamCache = new WeakMap<AuthenticatedUser, Promise<number[]>>();

  constructor(private readonly teams: TeamsService) {}

  has(user: AuthenticatedUser | undefined, privilege: Privilege): boolean {
    return user !== undefined && hasPrivilege(user.privileges, privilege);
  }

  /** Throws 403 with requiredPrivileges unless the caller holds `privilege`. */
  require(user: AuthenticatedUser | undefined, privilege: Privilege): void {
    if (!this.has(user, privilege)) throw new InsufficientPrivilegesException(privilegesAtLeast(privilege));
  }

  teamIdsOf(user: AuthenticatedUser): Promise<number[]> {
    let ids = this.teamCache.get(user);
    if (!ids) {
      ids = this.teams.teamIdsOf(user.userid);
      this.teamCache.set(user, ids);
    }
    return ids;
  }

  private async isGranted(user: AuthenticatedUser, guide: GuideAccessFacts): Promise<boolean> {
    if (guide.authorid === user.userid || guide.grantedUserIds.includes(user.userid)) return true;
    if (!guide.grantedTeamIds.length) return false;
    const teamIds = await this.teamIdsOf(user);
    return guide.grantedTeamIds.some((id) => teamIds.includes(id));
  }

  async canReadGuide(user: AuthenticatedUser | undefined, guide: GuideAccessFacts): Promise<boolean> {
    if (guide.public) return true;
    if (!user) return false;
    return this.has(user, 'Moderator') || this.isGranted(user, guide);
  }

  async canEditGuide(user: AuthenticatedUser | undefined, guide: GuideAccessFacts): Promise<boolean> {
    if (!user) return false;
    return this.has(user, 'Moderator') || this.isGranted(user, guide);
  }

  canDeleteGuide(user: AuthenticatedUser | undefined, guide: GuideAccessFacts): boolean {
    return user !== undefined && (guide.authorid === user.userid || this.has(user, 'Moderator'));
  }

  canCreateGuide(user: AuthenticatedUser | undefined): boolean {
    return this.has(user, 'Author');
  }

  /** Author+; a USER page also by its user; a TEAM page also by the team's members. */
  async canEditWiki(user: AuthenticatedUser | undefined, wiki: WikiAccessFacts): Promise<boolean> {
    if (!user) return false;
    if (this.has(user, 'Author')) return true;
    if (wiki.namespace === 'USER') return wiki.title === String(user.userid);
    if (wiki.namespace === 'TEAM' && /^\d+$/.test(wiki.title)) {
      return (await this.teamIdsOf(user)).includes(Number(wiki.title));
    }
    return false;
  }

  /** Delete a wiki, move a category, tag a wiki. */
  canModerate(user: AuthenticatedUser | undefined): boolean {
    return this.has(user, 'Moderator');
  }

  /** E-mail addresses and Admin-only lookups. */
  isAdmin(user: AuthenticatedUser | undefined): boolean {
    return this.has(user, 'Admin');
  }
}
