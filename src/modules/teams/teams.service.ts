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

  isMember(teamid: number, userid: number): Promise<boolean> {
    return this.teams.isMember(teamid, userid);
  }
}
