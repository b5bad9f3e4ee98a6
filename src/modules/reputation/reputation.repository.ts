import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { isUniqueViolation } from '../../database/errors';
import { ReputationAwardEntity } from './entities/reputation-award.entity';
import { UserBadgeEntity } from './entities/user-badge.entity';
import { Database } from '../../database/database';

@Injectable()
export class ReputationRepository {
  private readonly database: Database;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.database = new Database(dataSource);
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  private repo() {
    return this.manager.getRepository(UserBadgeEntity);
  }

  badgesOf(userids: number[]): Promise<UserBadgeEntity[]> {
    return userids.length ? this.repo().findBy({ userid: In(userids) }) : Promise.resolve([]);
  }

  async holdersPerBadge(): Promise<Map<number, number>> {
    const rows = await this.repo()
      .createQueryBuilder('b')
      .select('b.badgeid', 'badgeid')
      .addSelect('COUNT(*)', 'holders')
      .groupBy('b.badgeid')
      .getRawMany<{ badgeid: number; holders: string | number }>();
    return new Map(rows.map((r) => [Number(r.badgeid), Number(r.holders)]));
  }

  /** Inserts the badges the user does not hold yet; returns the newly earned ids. */
  async award(userid: number, badgeids: number[], now: number): Promise<number[]> {
    if (!badgeids.length) return [];
    const held = new Set((await this.repo().findBy({ userid, badgeid: In(badgeids) })).map((b) => b.badgeid));
    const fresh = badgeids.filter((id) => !held.has(id));
    if (fresh.length) {
      await this.repo().insert(fresh.map((badgeid) => ({ userid, badgeid, timesEarned: 1, earnedDate: now })));
    }
    return fresh;
  }

  /** Records an award unless the same (userid, kind, subject) exists; true when it was new. */
  async recordAward(award: Omit<ReputationAwardEntity, 'awardid'>): Promise<boolean> {
    const repo = this.manager.getRepository(ReputationAwardEntity);
    if (await repo.existsBy({ userid: award.userid, kind: award.kind, subject: award.subject })) return false;
    try {
      await repo.insert(award);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false; // recorded concurrently
      throw error;
    }
  }

  countAwards(userid: number, kind: string): Promise<number> {
    return this.manager.getRepository(ReputationAwardEntity).countBy({ userid, kind });
  }
}
