import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, Not } from 'typeorm';
import { insertReturningId } from '../../database/insert';
import { placeholders, SqlReader, type SqlRow } from '../../database/sql-reader';
import { tokenColumn, versionTokenSql } from '../../platform/versions/content-versions';
import { StepFormFieldEntity } from './entities/step-form-field.entity';
import { StepFormEntity } from './entities/step-form.entity';
import { Database } from '../../database/database';

/** Rows with the version token their statement read beside them. */
export interface Versioned<T> {
  value: T;
  token: string | null;
}

const tokenOf = (rows: SqlRow[]): string | null => tokenColumn(rows[0]?.version_token);

/** All SQL of step forms; the reads every work-log detail and step-data write makes are hand-written. */
@Injectable()
export class StepFormsRepository {
  private readonly sql: SqlReader;
  private readonly formColumns: string;
  private readonly fieldColumns: string;
  private readonly hydrateForm: (row: SqlRow) => StepFormEntity;
  private readonly hydrateField: (row: SqlRow) => StepFormFieldEntity;

  private readonly database: Database;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.database = new Database(dataSource);
    this.sql = new SqlReader(dataSource);
    this.formColumns = this.sql.columns(StepFormEntity, 'f');
    this.fieldColumns = this.sql.columns(StepFormFieldEntity, 'x');
    this.hydrateForm = this.sql.hydrator(StepFormEntity, 'f_');
    this.hydrateField = this.sql.hydrator(StepFormFieldEntity, 'x_');
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  insertForm(values: Omit<StepFormEntity, 'formRevisionid'>): Promise<number> {
    return insertReturningId(this.manager, StepFormEntity, values);
  }

  async insertFields(fields: Omit<StepFormFieldEntity, 'fieldRevisionid'>[]): Promise<void> {
    if (fields.length) await this.manager.getRepository(StepFormFieldEntity).insert(fields);
  }

  /**
   * Form revisions of a guide up to `max`, oldest first, with the `step-forms` version token read in the same
   * statement (null when no row came back or there is no token).
   */
  async formsOfGuide(guideid: number, max: number): Promise<Versioned<StepFormEntity[]>> {
    const rows = await this.sql.rows(
      `SELECT ${this.formColumns}, ${versionTokenSql('step-forms')} AS version_token
         FROM step_forms f WHERE f.guideid = ? AND f.form_revisionid <= ?
        ORDER BY f.form_revisionid`,
      [guideid, max],
    );
    return { value: rows.map(this.hydrateForm), token: tokenOf(rows) };
  }

  /** The fields of these form revisions in order, with the `step-forms` version token read in the same statement. */
  async fieldsOfForms(formRevisionids: number[]): Promise<Versioned<StepFormFieldEntity[]>> {
    if (!formRevisionids.length) return { value: [], token: null };
    const rows = await this.sql.rows(
      `SELECT ${this.fieldColumns}, ${versionTokenSql('step-forms')} AS version_token
         FROM step_form_fields x WHERE x.form_revisionid IN (${placeholders(formRevisionids)})
        ORDER BY x.form_revisionid, x.orderby`,
      formRevisionids,
    );
    return { value: rows.map(this.hydrateField), token: tokenOf(rows) };
  }

  async maxFormRevision(guideid: number): Promise<number> {
    const row = await this.manager
      .getRepository(StepFormEntity)
      .createQueryBuilder('f')
      .select('MAX(f.form_revisionid)', 'max')
      .where('f.guideid = :guideid', { guideid })
      .getRawOne<{ max: number | string | null }>();
    return Number(row?.max ?? 0);
  }

  /** Fields of this guide with these ids (any revision), with the `step-forms` version token read beside them. */
  async fieldsByIds(guideid: number, ids: number[]): Promise<Versioned<StepFormFieldEntity[]>> {
    if (!ids.length) return { value: [], token: null };
    const rows = await this.sql.rows(
      `SELECT ${this.fieldColumns}, ${versionTokenSql('step-forms')} AS version_token
         FROM step_form_fields x WHERE x.guideid = ? AND x.field_revisionid IN (${placeholders(ids)})`,
      [guideid, ...ids],
    );
    return { value: rows.map(this.hydrateField), token: tokenOf(rows) };
  }

  /** field_guids used by other steps (of any guide), among these. */
  async guidsOfOtherSteps(stepid: number, guids: string[]): Promise<string[]> {
    if (!guids.length) return [];
    const rows = await this.manager
      .getRepository(StepFormFieldEntity)
      .find({ select: { fieldGuid: true }, where: { fieldGuid: In(guids), stepid: Not(stepid) } });
    return rows.map((r) => r.fieldGuid);
  }
}
