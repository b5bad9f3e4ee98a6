import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Database } from '../../database/database';
import { GuideTeamGrantEntity } from './entities/guide-team-grant.entity';
import { GuideUserGrantEntity } from './entities/guide-user-grant.entity';

/** Who may read a private guide besides its author and the privileged: user and team grants. */
@Injectable()
export class GuideGrantsRepository {
  private readonly database: Database;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.database = new Database(dataSource);
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  async grantedUserIds(guideid: number): Promise<number[]> {
    const rows = await this.manager
      .getRepository(GuideUserGrantEntity)
      .find({ where: { guideid }, order: { userid: 'ASC' } });
    return rows.map((row) => row.userid);
  }

  async grantedTeamIds(guideid: number): Promise<number[]> {
    const rows = await this.manager
      .getRepository(GuideTeamGrantEntity)
      .find({ where: { guideid }, order: { teamid: 'ASC' } });
    return rows.map((row) => row.teamid);
  }

  /** True when the grant is new. */
  async grant(kind: 'user' | 'team', guideid: number, id: number, date: number): Promise<boolean> {
    const entity = kind === 'user' ? GuideUserGrantEntity : GuideTeamGrantEntity;
    const key = kind === 'user' ? 'userid' : 'teamid';
    if (await this.manager.getRepository(entity).existsBy({ guideid, [key]: id })) return false;
    await this.manager
      .createQueryBuilder()
      .insert()
      .into(entity)
      .values({ guideid, [key]: id, date })
      .orIgnore()
      .execute();
    return true;
  }

  /** True when there was a grant to remove. */
  async revoke(kind: 'user' | 'team', guideid: number, id: number): Promise<boolean> {
    const result =
      kind === 'user'
        ? await this.manager.getRepository(GuideUserGrantEntity).delete({ guideid, userid: id })
        : await this.manager.getRepository(GuideTeamGrantEntity).delete({ guideid, teamid: id });
    return Boolean(result.affected);
  }
}
