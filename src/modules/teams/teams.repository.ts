import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { placeholders, SqlReader, type SqlRow } from '../../database/sql-reader';
import { TeamMemberEntity } from './entities/team-member.entity';
import { TeamEntity } from './entities/team.entity';
import { Database } from '../../database/database';

@Injectable()
export class TeamsRepository {
  private readonly sql: SqlReader;
  /** Membership rows with only `teamid` and `userid` set, as `find({ select: { teamid, userid } })` gives them. */
  private readonly toMembership: (row: SqlRow) => TeamMemberEntity;
  /** `SELECT m.teamid, m.userid FROM team_members m WHERE m.userid IN (`: the fixed head of teamIdsByUser. */
  private readonly teamIdsByUserHead: string;

  private readonly database: Database;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.database = new Database(dataSource);
    this.sql = new SqlReader(dataSource);
    this.toMembership = this.sql.hydrator(TeamMemberEntity);
    const columns = dataSource
      .getMetadata(TeamMemberEntity)
      .columns.filter((c) => c.propertyName === 'teamid' || c.propertyName === 'userid')
      .map((c) => `m.${c.databaseName}`)
      .join(', ');
    this.teamIdsByUserHead = `SELECT ${columns} FROM team_members m WHERE m.userid IN (`;
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  /**
   * userid → team ids, for many users in one query. Hand-written SQL: a hot read, where building the query
   * cost more than running it; its text varies only with the number of users.
   */
  async teamIdsByUser(userids: number[]): Promise<Map<number, number[]>> {
    const result = new Map<number, number[]>(userids.map((id) => [id, []]));
    if (!userids.length) return result;
    const sql = `${this.teamIdsByUserHead}${placeholders(userids)}) ORDER BY m.teamid ASC`;
    const rows = (await this.sql.rows(sql, userids)).map(this.toMembership);
    for (const row of rows) result.get(row.userid)?.push(row.teamid);
    return result;
  }

  firstTeam(): Promise<TeamEntity | null> {
    return this.manager.getRepository(TeamEntity).findOne({ where: {}, order: { teamid: 'ASC' } });
  }

  findTeam(teamid: number): Promise<TeamEntity | null> {
    return this.manager.getRepository(TeamEntity).findOneBy({ teamid });
  }

  async isMember(teamid: number, userid: number): Promise<boolean> {
    return (await this.manager.getRepository(TeamMemberEntity).countBy({ teamid, userid })) > 0;
  }

  async listTeams(
    offset: number,
    limit: number,
    order: 'ASC' | 'DESC',
    newMemberSince?: number,
  ): Promise<TeamEntity[]> {
    const query = this.manager.getRepository(TeamEntity).createQueryBuilder('t');
    if (newMemberSince !== undefined) {
      query.where('EXISTS (SELECT 1 FROM team_members m WHERE m.teamid = t.teamid AND m.joined_date >= :since)', {
        since: newMemberSince,
      });
    }
    return query.orderBy('t.teamid', order).offset(offset).limit(limit).getMany();
  }

  /** Member count, reputation sum and newest join per team, over enabled, unbanned members. */
  async aggregates(
    teamids: number[],
    newMemberSince?: number,
  ): Promise<Map<number, { members: number; reputation: number; newest: number }>> {
    const result = new Map<number, { members: number; reputation: number; newest: number }>();
    if (!teamids.length) return result;
    const query = this.manager
      .getRepository(TeamMemberEntity)
      .createQueryBuilder('m')
      .innerJoin('m.user', 'u')
      .select('m.teamid', 'teamid')
      .addSelect('COUNT(*)', 'members')
      .addSelect('COALESCE(SUM(u.reputation), 0)', 'reputation')
      .addSelect('MAX(m.joined_date)', 'newest')
      .where('m.teamid IN (:...teamids)', { teamids })
      .andWhere('u.enabled = :enabled AND u.banned = 0', { enabled: true })
      .groupBy('m.teamid');
    if (newMemberSince !== undefined) query.andWhere('m.joined_date >= :since', { since: newMemberSince });
    const rows = await query.getRawMany<{ teamid: number; members: string; reputation: string; newest: string }>();
    for (const row of rows) {
      result.set(Number(row.teamid), {
        members: Number(row.members),
        reputation: Number(row.reputation),
        newest: Number(row.newest),
      });
    }
    return result;
  }

  /** Members' user ids (enabled, unbanned), ordered by userid. */
  async memberIds(teamid: number, order: 'ASC' | 'DESC'): Promise<number[]> {
    const rows = await this.manager
      .getRepository(TeamMemberEntity)
      .createQueryBuilder('m')
      .innerJoin('m.user', 'u')
      .select('m.userid', 'userid')
      .where('m.teamid = :teamid', { teamid })
      .andWhere('u.enabled = :enabled AND u.banned = 0', { enabled: true })
      .orderBy('m.userid', order)
      .getRawMany<{ userid: number }>();
    return rows.map((r) => Number(r.userid));
  }

  findTeamByName(name: string): Promise<TeamEntity | null> {
    return this.manager.getRepository(TeamEntity).findOneBy({ name });
  }

  insertTeam(team: Omit<TeamEntity, 'teamid'>): Promise<TeamEntity> {
    const repo = this.manager.getRepository(TeamEntity);
    return repo.save(repo.create(team));
  }

  /** Adds a member unless present; true when added. */
  async addMember(teamid: number, userid: number, joinedDate: number): Promise<boolean> {
    const repo = this.manager.getRepository(TeamMemberEntity);
    if (await repo.existsBy({ teamid, userid })) return false;
    await repo.insert({ teamid, userid, joinedDate });
    return true;
  }

  async removeMember(teamid: number, userid: number): Promise<boolean> {
    const result = await this.manager.getRepository(TeamMemberEntity).delete({ teamid, userid });
    return (result.affected ?? 0) > 0;
  }

  /** The member who joined first (ties by userid), to inherit ownership. */
  async earliestMember(teamid: number): Promise<number | null> {
    const row = await this.manager
      .getRepository(TeamMemberEntity)
      .findOne({ where: { teamid }, order: { joinedDate: 'ASC', userid: 'ASC' } });
    return row?.userid ?? null;
  }

  async setOwner(teamid: number, ownerUserid: number | null): Promise<void> {
    await this.manager.getRepository(TeamEntity).update({ teamid }, { ownerUserid });
  }
}
