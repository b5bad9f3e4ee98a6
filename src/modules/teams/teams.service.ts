import { Injectable } from '@nestjs/common';
import { TeamsRepository } from './teams.repository';

/** Team membership, as other modules need it (the teams endpoints live in TeamsController). */
@Injectable()
export class TeamsService {
  constructor(private readonly teams: TeamsRepository) {}

  teamIdsByUser(userids: number[]): Promise<Map<number, number[]>> {
    return this.teams.teamIdsByUser(userids);
  }

  async teamIdsOf(userid: number): Promise<number[]> {
    return (await this.teams.teamIdsByUser([userid])).get(userid) ?? [];
  }

  async firstTeam(): Promise<{ teamid: number; name: string } | undefined> {
    const team = await this.teams.firstTeam();
    return team ? { teamid: team.teamid, name: team.name } : undefined;
  }

  async teamNameOf(teamid: number): Promise<string | undefined> {
    return (await this.teams.findTeam(teamid))?.name;
  }

  /** A team's name and owner (null when there is no such team). */
  async findTeam(teamid: number): Promise<{ teamid: number; name: string; ownerUserid: number | null } | null> {
    const team = await this.teams.findTeam(teamid);
    return team ? { teamid: team.teamid, name: team.name, ownerUserid: team.ownerUserid } : null;
  }

  /** The members' userids, by join order. */
  memberIds(teamid: number): Promise<number[]> {
    return this.teams.memberIds(teamid, 'ASC');
  }

  isMember(teamid: number, userid: number): Promise<boolean> {
    return this.teams.isMember(teamid, userid);
  }
}
