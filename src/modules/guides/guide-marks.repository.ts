import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Database } from '../../database/database';
import { isUniqueViolation } from '../../database/errors';
import { GuideCompletionEntity } from './entities/guide-completion.entity';
import { GuideFavoriteEntity } from './entities/guide-favorite.entity';
import { GuideEntity } from './entities/guide.entity';

/** A user's marks on guides (completions, favorites) and the guides they contributed to. */
@Injectable()
export class GuideMarksRepository {
  private readonly database: Database;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.database = new Database(dataSource);
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  /** Inserts the mark unless it exists; true when it was new. */
  async mark(
    kind: 'completion' | 'favorite',
    row: { guideid: number; userid: number; langid: string; date: number },
  ): Promise<boolean> {
    const repo =
      kind === 'completion'
        ? this.manager.getRepository(GuideCompletionEntity)
        : this.manager.getRepository(GuideFavoriteEntity);
    if (await repo.existsBy({ guideid: row.guideid, userid: row.userid })) return false;
    try {
      await repo.insert(row);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async unmark(kind: 'completion' | 'favorite', guideid: number, userid: number): Promise<void> {
    const entity = kind === 'completion' ? GuideCompletionEntity : GuideFavoriteEntity;
    await this.manager.getRepository(entity).delete({ guideid, userid });
  }

  /** Guide ids a user marked, completions by guideid ascending, favorites newest first. */
  async markedGuideIds(
    kind: 'completion' | 'favorite',
    userid: number,
    offset: number,
    limit: number,
  ): Promise<number[]> {
    const rows =
      kind === 'completion'
        ? await this.manager.getRepository(GuideCompletionEntity).find({
            select: { guideid: true },
            where: { userid },
            order: { guideid: 'ASC' },
            skip: offset,
            take: limit,
          })
        : await this.manager.getRepository(GuideFavoriteEntity).find({
            select: { guideid: true },
            where: { userid },
            order: { date: 'DESC', guideid: 'DESC' },
            skip: offset,
            take: limit,
          });
    return rows.map((row) => row.guideid);
  }

  /** Guides a user authored or saved a revision of, by guideid. */
  async contributedGuideIds(userid: number, order: 'ASC' | 'DESC', offset: number, limit: number): Promise<number[]> {
    const rows = await this.manager
      .createQueryBuilder(GuideEntity, 'g')
      .select('g.guideid', 'guideid')
      .where('g.authorid = :userid', { userid })
      .orWhere('g.guideid IN (SELECT gr.guideid FROM guide_revisions gr WHERE gr.userid = :userid)')
      .orderBy('g.guideid', order)
      .offset(offset)
      .limit(limit)
      .getRawMany<{ guideid: number }>();
    return rows.map((row) => Number(row.guideid));
  }
}
