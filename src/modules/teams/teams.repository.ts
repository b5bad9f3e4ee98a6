import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { TeamMemberEntity } from './entities/team-member.entity';
import { TeamEntity } from './entities/team.entity';

@Injectable()
export class TeamsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private manager(tx?: EntityManager): EntityManager {
    return tx ?? this.dataSource.manager;
  }

  /** userid → team ids, for many users in one query. */
  async teamIdsByUser(userids: number[], tx?: EntityManager): Promise<Map<number, number[]>> {
    const result = new Map<number, number[]>(userids.map((id) => [id, []]));
    if (!userids.length) return result;
    const rows = await this.manager(tx)
      .getRepository(TeamMemberEntity)
      .find({ select: { teamid: true, userid: true }, where: { userid: In(userids) }, order: { teamid: 'ASC' } });
    for (const row of rows) result.get(row.userid)?.push(row.teamid);
    return result;
  }

  findTeam(teamid: number, tx?: EntityManager): Promise<TeamEntity | null> {
    return this.manager(tx).getRepository(TeamEntity).findOneBy({ teamid });
  }

  async isMember(teamid: number, userid: number): Promise<boolean> {
    return (await this.manager().getRepository(TeamMemberEntity).countBy({ teamid, userid })) > 0;
  }
}
