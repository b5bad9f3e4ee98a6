import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, LessThanOrEqual, Not } from 'typeorm';
import { insertReturningId } from '../../database/insert';
import { StepFormFieldEntity } from './entities/step-form-field.entity';
import { StepFormEntity } from './entities/step-form.entity';

@Injectable()
export class StepFormsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private manager(tx?: EntityManager): EntityManager {
    return tx ?? this.dataSource.manager;
  }

  insertForm(values: Omit<StepFormEntity, 'formRevisionid'>, tx: EntityManager): Promise<number> {
    return insertReturningId(tx, StepFormEntity, values);
  }

  async insertFields(fields: Omit<StepFormFieldEntity, 'fieldRevisionid'>[], tx: EntityManager): Promise<void> {
    if (fields.length) await tx.getRepository(StepFormFieldEntity).insert(fields);
  }

  fieldsOfForms(formRevisionids: number[], tx?: EntityManager): Promise<StepFormFieldEntity[]> {
    if (!formRevisionids.length) return Promise.resolve([]);
    return this.manager(tx)
      .getRepository(StepFormFieldEntity)
      .find({ where: { formRevisionid: In(formRevisionids) }, order: { formRevisionid: 'ASC', orderby: 'ASC' } });
  }

  /** Form revisions of a guide up to `max` (all when undefined), oldest first. */
  formsOfGuide(guideid: number, max?: number, tx?: EntityManager): Promise<StepFormEntity[]> {
    return this.manager(tx)
      .getRepository(StepFormEntity)
      .find({
        where: { guideid, ...(max !== undefined ? { formRevisionid: LessThanOrEqual(max) } : {}) },
        order: { formRevisionid: 'ASC' },
      });
  }

  async maxFormRevision(guideid: number, tx?: EntityManager): Promise<number> {
    const row = await this.manager(tx)
      .getRepository(StepFormEntity)
      .createQueryBuilder('f')
      .select('MAX(f.form_revisionid)', 'max')
      .where('f.guideid = :guideid', { guideid })
      .getRawOne<{ max: number | string | null }>();
    return Number(row?.max ?? 0);
  }

  /** Fields of this guide with these ids (any revision). */
  fieldsByIds(guideid: number, ids: number[], tx?: EntityManager): Promise<StepFormFieldEntity[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.manager(tx)
      .getRepository(StepFormFieldEntity)
      .find({ where: { guideid, fieldRevisionid: In(ids) } });
  }

  /** field_guids used by other steps (of any guide), among these. */
  async guidsOfOtherSteps(stepid: number, guids: string[], tx?: EntityManager): Promise<string[]> {
    if (!guids.length) return [];
    const rows = await this.manager(tx)
      .getRepository(StepFormFieldEntity)
      .find({ select: { fieldGuid: true }, where: { fieldGuid: In(guids), stepid: Not(stepid) } });
    return rows.map((r) => r.fieldGuid);
  }
}
