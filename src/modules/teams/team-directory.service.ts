import { callerHas } from '../../common/auth/privileges';
import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { InsufficientPrivilegesException, notFound, unprocessable } from '../../common/http/api-errors';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { nowSeconds } from '../../database/columns';
import { isUniqueViolation } from '../../database/errors';
import { TransactionService } from '../../database/transaction.service';
import { TeamJoined } from './team.events';
import { MediaService } from '../media/media.service';
import { wellFormed } from '../../common/validation/input-guards';
import type { UserLightDto } from '../users/dto/user-response.dto';
import { UsersService } from '../users/users.service';
import type { CreateTeamDto, ListTeamsQueryDto, TeamDto } from './dto/team.dto';
import type { TeamEntity } from './entities/team.entity';
import { TeamsRepository } from './teams.repository';

export const teamUrl = (publicUrl: string, team: { teamid: number; name: string }) =>
  `${publicUrl}/Team/${team.teamid}/${encodeURIComponent(wellFormed(team.name)).replace(/%20/g, '+')}`;

/** The teams endpoints: listing, members, creation and membership changes. */
@Injectable()
export class TeamDirectoryService {
  constructor(
    private readonly teams: TeamsRepository,
    private readonly users: UsersService,
    private readonly transactions: TransactionService,
    private readonly media: MediaService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(query: ListTeamsQueryDto): Promise<TeamDto[]> {
    const teams = await this.teams.listTeams(query.offset, query.limit, query.order, query.newMemberSince);
    const aggregates = await this.teams.aggregates(
      teams.map((t) => t.teamid),
      query.newMemberSince,
    );
    return teams.map((team) => this.toDto(team, aggregates.get(team.teamid)));
  }

  async members(teamid: number, order: 'ASC' | 'DESC'): Promise<UserLightDto[]> {
    await this.requireTeam(teamid);
    return this.memberList(teamid, order);
  }

  async create(dto: CreateTeamDto, caller: AuthenticatedUser): Promise<TeamDto> {
    if (await this.teams.findTeamByName(dto.name)) throw unprocessable('A team with that name already exists', 'name');
    try {
      const team = await this.teams.insertTeam({
        name: dto.name,
        description: dto.description ?? '',
        ownerUserid: null,
        createdByUserid: caller.userid,
        createdDate: nowSeconds(),
      });
      return this.toDto(team, undefined);
    } catch (error) {
      if (isUniqueViolation(error)) throw unprocessable('A team with that name already exists', 'name');
      throw error;
    }
  }

  /** Team managers (Moderator+ or the team's owner) add members; the first member becomes the owner. */
  async addMember(teamid: number, userid: number, caller: AuthenticatedUser): Promise<UserLightDto[]> {
    const team = await this.requireTeam(teamid);
    if (!callerHas(caller, 'Moderator') && team.ownerUserid !== caller.userid) {
      throw new InsufficientPrivilegesException(
        ['Admin', 'Moderator'],
        'Only the team owner or a Moderator may add members',
      );
    }
    await this.users.findEntity(userid);
    await this.transactions.run(async (tx) => {
      const added = await this.teams.addMember(teamid, userid, nowSeconds());
      if (!added) return;
      if (team.ownerUserid === null) await this.teams.setOwner(teamid, userid);
      tx.publish(TeamJoined({ teamid, userid }));
    });
    return this.memberList(teamid, 'ASC');
  }

  /** The member themself, the owner or a Moderator+ removes; a departing owner's place goes to the earliest member. */
  async removeMember(teamid: number, userid: number, caller: AuthenticatedUser): Promise<UserLightDto[]> {
    const team = await this.requireTeam(teamid);
    const allowed = caller.userid === userid || team.ownerUserid === caller.userid || callerHas(caller, 'Moderator');
    if (!allowed)
      throw new InsufficientPrivilegesException(
        ['Admin', 'Moderator'],
        'Only the member, the team owner or a Moderator may remove a member',
      );
    await this.transactions.run(async () => {
      const removed = await this.teams.removeMember(teamid, userid);
      if (removed && team.ownerUserid === userid) {
        await this.teams.setOwner(teamid, await this.teams.earliestMember(teamid));
      }
    });
    return this.memberList(teamid, 'ASC');
  }

  private async memberList(teamid: number, order: 'ASC' | 'DESC'): Promise<UserLightDto[]> {
    const ids = await this.teams.memberIds(teamid, order);
    const light = await this.users.lightUsers(ids);
    return ids.map((id) => light.get(id)).filter((u): u is UserLightDto => u !== undefined);
  }

  private async requireTeam(teamid: number): Promise<TeamEntity> {
    const team = await this.teams.findTeam(teamid);
    if (!team) throw notFound('Team');
    return team;
  }

  private toDto(
    team: TeamEntity,
    aggregate: { members: number; reputation: number; newest: number } | undefined,
  ): TeamDto {
    return {
      teamid: team.teamid,
      name: team.name,
      owner: team.ownerUserid,
      reputation: aggregate?.reputation ?? 0,
      image: this.media.defaultAvatar(),
      url: teamUrl(this.config.publicUrl, team),
      member_count: aggregate?.members ?? 0,
      description: team.description,
      new_member_since: aggregate?.newest ?? 0,
    };
  }
}
