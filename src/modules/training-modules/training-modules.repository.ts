import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, In, IsNull, LessThan } from 'typeorm';
import { insertReturningId } from '../../database/insert';
import { TrainingImportEntity, type ImportStatus } from './entities/training-import.entity';
import { TrainingModuleEntity } from './entities/training-module.entity';
import { TrainingRegistrationEntity, type RegistrationStatus } from './entities/training-registration.entity';
import { TrainingVersionEntity } from './entities/training-version.entity';
import { Database } from '../../database/database';

/** All SQL of training modules. Writes join the open transaction (Database). */
@Injectable()
export class TrainingModulesRepository {
  private readonly database: Database;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.database = new Database(dataSource);
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  // ------------------------------------------------------------ modules and versions

  findModule(moduleid: number): Promise<TrainingModuleEntity | null> {
    return this.manager.getRepository(TrainingModuleEntity).findOneBy({ moduleid });
  }

  insertModule(values: Omit<TrainingModuleEntity, 'moduleid'>): Promise<number> {
    return insertReturningId(this.manager, TrainingModuleEntity, values);
  }

  async updateModule(moduleid: number, values: Partial<TrainingModuleEntity>): Promise<void> {
    await this.manager.getRepository(TrainingModuleEntity).update({ moduleid }, values);
  }

  /** Sets the draft pointer only where there is none (one draft per module, even under races). */
  async claimDraft(moduleid: number, versionid: number, now: number): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(TrainingModuleEntity)
      .set({ draftVersionid: versionid, modifiedDate: now })
      .where('moduleid = :moduleid AND draft_versionid IS NULL', { moduleid })
      .execute();
    return (result.affected ?? 0) === 1;
  }

  /** Moves the pointers if they are still what the caller read. */
  async publishPointers(
    moduleid: number,
    expected: { current: number | null; draft: number | null },
    next: { current: number; draft: number | null; title?: string; description?: string },
    now: number,
  ): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(TrainingModuleEntity)
      .set({
        currentVersionid: next.current,
        draftVersionid: next.draft,
        modifiedDate: now,
        ...(next.title !== undefined ? { title: next.title } : {}),
        ...(next.description !== undefined ? { description: next.description } : {}),
      })
      .where(
        `moduleid = :moduleid AND ${expected.current === null ? 'current_versionid IS NULL' : 'current_versionid = :current'} AND ${
          expected.draft === null ? 'draft_versionid IS NULL' : 'draft_versionid = :draft'
        }`,
        { moduleid, current: expected.current, draft: expected.draft },
      )
      .execute();
    return (result.affected ?? 0) === 1;
  }

  /** Modules with a current version, by moduleid; `search`: every word in the title. */
  async currentModules(filter: {
    search?: string;
    order: 'ASC' | 'DESC';
    offset: number;
    limit: number;
  }): Promise<TrainingModuleEntity[]> {
    const query = this.manager
      .createQueryBuilder(TrainingModuleEntity, 'm')
      .where('m.current_versionid IS NOT NULL')
      .orderBy('m.moduleid', filter.order)
      .offset(filter.offset)
      .limit(filter.limit);
    const words = (filter.search ?? '').split(/\s+/).filter(Boolean).slice(0, 10);
    words.forEach((word, i) =>
      query.andWhere(`LOWER(m.title) LIKE :w${i} ESCAPE '!'`, {
        [`w${i}`]: `%${word.toLowerCase().replace(/[!%_]/g, '!$&')}%`,
      }),
    );
    return query.getMany();
  }

  findVersion(versionid: number): Promise<TrainingVersionEntity | null> {
    return this.manager.getRepository(TrainingVersionEntity).findOneBy({ versionid });
  }

  async versions(versionids: (number | null)[]): Promise<Map<number, TrainingVersionEntity>> {
    const ids = [...new Set(versionids.filter((id): id is number => id !== null))];
    if (!ids.length) return new Map();
    const rows = await this.manager.getRepository(TrainingVersionEntity).findBy({ versionid: In(ids) });
    return new Map(rows.map((v) => [v.versionid, v]));
  }

  insertVersion(values: Omit<TrainingVersionEntity, 'versionid'>): Promise<number> {
    return insertReturningId(this.manager, TrainingVersionEntity, values);
  }

  /** Updates a version only while it has the expected status; false when it moved meanwhile. */
  async updateVersion(versionid: number, status: string, values: Partial<TrainingVersionEntity>): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(TrainingVersionEntity)
      .set(values)
      .where('versionid = :versionid AND status = :status', { versionid, status })
      .execute();
    return (result.affected ?? 0) === 1;
  }

  // ------------------------------------------------------------ imports

  findImport(importid: number): Promise<TrainingImportEntity | null> {
    return this.manager.getRepository(TrainingImportEntity).findOneBy({ importid });
  }

  runningImport(moduleid: number): Promise<TrainingImportEntity | null> {
    return this.manager.getRepository(TrainingImportEntity).findOneBy({ moduleid, runningSlot: 1 });
  }

  insertImport(values: Omit<TrainingImportEntity, 'importid'>): Promise<number> {
    return insertReturningId(this.manager, TrainingImportEntity, values);
  }

  imports(
    moduleid: number,
    page: { order: 'ASC' | 'DESC'; offset: number; limit: number },
  ): Promise<TrainingImportEntity[]> {
    return this.manager.getRepository(TrainingImportEntity).find({
      where: { moduleid },
      order: { importid: page.order },
      skip: page.offset,
      take: page.limit,
    });
  }

  /** `UPDATE … WHERE importid AND status = from`: false when another move won. */
  async moveImport(importid: number, from: ImportStatus, values: Partial<TrainingImportEntity>): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(TrainingImportEntity)
      .set(values)
      .where('importid = :importid AND status = :from', { importid, from })
      .execute();
    return (result.affected ?? 0) === 1;
  }

  /** Progress while working; only while the import is still in `status`. */
  async progress(
    importid: number,
    status: ImportStatus,
    values: Pick<TrainingImportEntity, 'percent' | 'bytesDone'> & Partial<TrainingImportEntity>,
  ): Promise<boolean> {
    return this.moveImport(importid, status, values);
  }

  importsIn(statuses: ImportStatus[]): Promise<TrainingImportEntity[]> {
    return this.manager.getRepository(TrainingImportEntity).findBy({ status: In(statuses) });
  }

  /** Working imports with no sign of life since `before` (or none at all). */
  silentImports(statuses: ImportStatus[], before: number): Promise<TrainingImportEntity[]> {
    return this.manager.getRepository(TrainingImportEntity).find({
      where: [
        { status: In(statuses), heartbeatDate: LessThan(before) },
        { status: In(statuses), heartbeatDate: IsNull() },
      ],
    });
  }

  /** Marks these imports alive and worked on by `owner`, while they are still in one of `statuses`. */
  async touchImports(importids: number[], statuses: ImportStatus[], at: number, owner: string): Promise<void> {
    if (!importids.length) return;
    await this.manager
      .getRepository(TrainingImportEntity)
      .update({ importid: In(importids), status: In(statuses) }, { heartbeatDate: at, ownerInstance: owner });
  }

  // ------------------------------------------------------------ registrations

  findRegistration(registrationid: string): Promise<TrainingRegistrationEntity | null> {
    return this.manager.getRepository(TrainingRegistrationEntity).findOneBy({ registrationid });
  }

  /** The caller's newest open (not finished) registration of a version. */
  openRegistration(userid: number, versionid: number, preview: boolean): Promise<TrainingRegistrationEntity | null> {
    return this.manager
      .createQueryBuilder(TrainingRegistrationEntity, 'r')
      .where('r.userid = :userid AND r.versionid = :versionid AND r.preview = :preview', { userid, versionid, preview })
      .andWhere("r.status IN ('not_attempted', 'incomplete')")
      .orderBy('r.started_date', 'DESC')
      .getOne();
  }

  async insertRegistration(values: TrainingRegistrationEntity): Promise<void> {
    await this.manager
      .createQueryBuilder()
      .insert()
      .into(TrainingRegistrationEntity)
      .values(values)
      .updateEntity(false)
      .execute();
  }

  /** A commit: conditional on the status read, so two commits cannot move it backwards. */
  async commitRegistration(
    registrationid: string,
    from: RegistrationStatus,
    values: Partial<TrainingRegistrationEntity>,
  ): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(TrainingRegistrationEntity)
      .set(values)
      .where('registrationid = :registrationid AND status = :from', { registrationid, from })
      .execute();
    return (result.affected ?? 0) === 1;
  }

  /** Registrations of a module by status, previews not counted. */
  async registrationCounts(moduleid: number): Promise<Map<RegistrationStatus, number>> {
    const rows = await this.manager
      .createQueryBuilder(TrainingRegistrationEntity, 'r')
      .select('r.status', 'status')
      .addSelect('COUNT(*)', 'n')
      .where('r.moduleid = :moduleid AND r.preview = :preview', { moduleid, preview: false })
      .groupBy('r.status')
      .getRawMany<{ status: RegistrationStatus; n: string | number }>();
    return new Map(rows.map((row) => [row.status, Number(row.n)]));
  }
}
