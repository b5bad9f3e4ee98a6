import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Database } from '../../database/database';
import { insertReturningId } from '../../database/insert';
import { placeholders, SqlReader, type SqlRow } from '../../database/sql-reader';
import { GuideRevisionEntity } from './entities/guide-revision.entity';
import { GuideStepRevisionEntity } from './entities/guide-step-revision.entity';
import { GuideStepEntity } from './entities/guide-step.entity';
import { GuideTranslationEntity } from './entities/guide-translation.entity';
import { parseStored, type GuideData, type StoredItem } from './guide-data';
import type { DocumentLayout } from './guide-fragments';
import { revisionColumns, storedRevision, type StoredRevision } from './guide-rows';

/** A guide's revisions (with their stored documents), translations, steps and step revisions. */
@Injectable()
export class GuideRevisionsRepository {
  private readonly database: Database;
  private readonly sql: SqlReader;
  private readonly hydrateTranslation: (row: SqlRow) => GuideTranslationEntity;
  private readonly translationColumns: string;
  /** findRevisions' select list, built once. */
  private allRevisionColumns?: string;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.database = new Database(dataSource);
    this.sql = new SqlReader(dataSource);
    this.hydrateTranslation = this.sql.hydrator(GuideTranslationEntity);
    this.translationColumns = dataSource
      .getMetadata(GuideTranslationEntity)
      .columns.map((c) => `t.${c.databaseName}`)
      .join(', ');
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  private get isMysql(): boolean {
    return this.dataSource.options.type !== 'better-sqlite3';
  }

  insertRevision(revision: Omit<GuideRevisionEntity, 'revisionid'>): Promise<number> {
    return insertReturningId(
      this.manager,
      GuideRevisionEntity,
      revision as QueryDeepPartialEntity<GuideRevisionEntity>,
    );
  }

  /**
   * Revisions by id, in one statement, with everything a read shows and stored text as stored (as the guide
   * rows carry it: the documents' JSON unparsed, so that reads can keep their cut pieces by revision).
   */
  async findRevisions(revisionids: number[]): Promise<Map<number, StoredRevision>> {
    if (!revisionids.length) return new Map();
    const ids = [...new Set(revisionids)];
    this.allRevisionColumns ??= revisionColumns('r', ['summary', 'full'], this.isMysql);
    const rows = await this.sql.rows(
      `SELECT ${this.allRevisionColumns} FROM guide_revisions r WHERE r.revisionid IN (${placeholders(ids)})`,
      ids,
    );
    return new Map(rows.map((raw) => [Number(raw.r_revisionid), storedRevision(raw, 'r') as StoredRevision]));
  }

  findRevision(revisionid: number): Promise<GuideRevisionEntity | null> {
    return this.manager.getRepository(GuideRevisionEntity).findOneBy({ revisionid });
  }

  async saveDocument(
    revisionid: number,
    rendered: { document: unknown; summary: unknown; layout: string | null },
    renderKey: string,
  ): Promise<void> {
    await this.manager.getRepository(GuideRevisionEntity).update(
      { revisionid },
      {
        document: rendered.document as object,
        summary: (rendered.summary ?? null) as object,
        layout: rendered.layout,
        renderKey,
      },
    );
  }

  async saveLayout(revisionid: number, layout: DocumentLayout): Promise<void> {
    await this.manager.getRepository(GuideRevisionEntity).update({ revisionid }, { layout: JSON.stringify(layout) });
  }

  // ---- translations ----

  /** Every translation row of a guide, by langid. */
  async translationsOf(guideid: number): Promise<GuideTranslationEntity[]> {
    const rows = await this.sql.rows(
      `SELECT ${this.translationColumns} FROM guide_translations t WHERE t.guideid = ? ORDER BY t.langid ASC`,
      [guideid],
    );
    return rows.map(this.hydrateTranslation);
  }

  findTranslation(guideid: number, langid: string): Promise<GuideTranslationEntity | null> {
    return this.manager.getRepository(GuideTranslationEntity).findOneBy({ guideid, langid });
  }

  async insertTranslation(row: GuideTranslationEntity): Promise<void> {
    await this.manager.getRepository(GuideTranslationEntity).insert(row);
  }

  async advanceTranslation(
    guideid: number,
    langid: string,
    expectedHead: number,
    changes: Partial<GuideTranslationEntity>,
  ): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(GuideTranslationEntity)
      .set(changes)
      .where('guideid = :guideid AND langid = :langid AND head_revisionid = :expectedHead', {
        guideid,
        langid,
        expectedHead,
      })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  // ---- steps ----

  insertStep(guideid: number): Promise<number> {
    return insertReturningId(this.manager, GuideStepEntity, { guideid, revisionid: 0, deleted: false });
  }

  /** The guide's steps that are not deleted. */
  async liveStepIds(guideid: number): Promise<number[]> {
    const rows = await this.manager
      .getRepository(GuideStepEntity)
      .find({ select: { stepid: true }, where: { guideid, deleted: false }, order: { stepid: 'ASC' } });
    return rows.map((r) => r.stepid);
  }

  findStep(stepid: number): Promise<GuideStepEntity | null> {
    return this.manager.getRepository(GuideStepEntity).findOneBy({ stepid });
  }

  findSteps(stepids: number[]): Promise<GuideStepEntity[]> {
    if (!stepids.length) return Promise.resolve([]);
    return this.manager.getRepository(GuideStepEntity).findBy({ stepid: In(stepids) });
  }

  /** Conditional update of a step's head revision (0 rows: stale). */
  async advanceStep(stepid: number, expected: number, changes: Partial<GuideStepEntity>): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(GuideStepEntity)
      .set(changes)
      .where('stepid = :stepid AND revisionid = :expected', { stepid, expected })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  insertStepRevision(row: Omit<GuideStepRevisionEntity, 'revisionid'>): Promise<number> {
    return insertReturningId(
      this.manager,
      GuideStepRevisionEntity,
      row as QueryDeepPartialEntity<GuideStepRevisionEntity>,
    );
  }

  findStepRevisions(revisionids: number[]): Promise<GuideStepRevisionEntity[]> {
    if (!revisionids.length) return Promise.resolve([]);
    return this.manager.getRepository(GuideStepRevisionEntity).findBy({ revisionid: In(revisionids) });
  }

  /** Guide ids of steps. */
  async guideIdsOfSteps(stepids: number[]): Promise<Map<number, number>> {
    const steps = await this.findSteps(stepids);
    return new Map(steps.map((step) => [step.stepid, step.guideid]));
  }

  /** The parts and tools of revisions (from their saved state), by revisionid: one statement. */
  async revisionItems(revisionids: number[]): Promise<Map<number, { parts: StoredItem[]; tools: StoredItem[] }>> {
    if (!revisionids.length) return new Map();
    const ids = [...new Set(revisionids)];
    const rows = await this.sql.rows(
      `SELECT revisionid, data FROM guide_revisions WHERE revisionid IN (${placeholders(ids)})`,
      ids,
    );
    return new Map(
      rows.map((raw) => {
        const data = parseStored<Partial<GuideData> | null>(raw.data) ?? {};
        return [Number(raw.revisionid), { parts: data.parts ?? [], tools: data.tools ?? [] }];
      }),
    );
  }
}
