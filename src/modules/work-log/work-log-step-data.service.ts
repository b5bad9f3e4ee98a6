import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { RevisionConflictException, ValidationFailedException, type FieldError } from '../../common/http/api-errors';
import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../platform/clock/clock';
import { MediaService } from '../media/media.service';
import { parseValue } from '../step-forms/step-form-values';
import { StepFormsService } from '../step-forms/step-forms.service';
import type { StepDataDto } from './dto/work-log-body.dto';
import type { WorkLogEntryDto } from './dto/work-log-response.dto';
import type { WorkLogDataEntity } from './entities/work-log-data.entity';
import type { WorkLogEntryEntity } from './entities/work-log-entry.entity';
import { transition, type EntryStatus } from './work-log-entry.state-machine';
import { WorkLogDataRecorded } from './work-log.events';
import { WorkLogRepository } from './work-log.repository';
import { WorkLogService } from './work-log.service';

/**
 * `PUT /work_log/{entryid}/stepData` (docs/enterprise/work-log.md): values are checked against their field revision,
 * appended (never overwritten) and audited with the timing move, in one transaction.
 */
@Injectable()
export class WorkLogStepDataService {
  constructor(
    private readonly entries: WorkLogRepository,
    private readonly workLog: WorkLogService,
    private readonly forms: StepFormsService,
    private readonly media: MediaService,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  async record(entryid: number, body: StepDataDto, caller: AuthenticatedUser): Promise<WorkLogEntryDto> {
    const entry = await this.workLog.visible(entryid, caller);
    this.workLog.assertOwner(entry, caller);
    if (!transition(entry.status as EntryStatus, 'record')) throw await this.workLog.conflict(entryid);
    if (body.lasttimingid !== undefined && body.lasttimingid !== entry.timingid)
      throw await this.workLog.conflict(entryid);
    const { rows, formsToken } = await this.validate(entry, body, caller);
    const now = this.clock.nowSeconds();
    return this.transactions.run(async (tx) => {
      const changes: Partial<WorkLogEntryEntity> = {};
      const moves = body.stepid !== undefined && body.stepid !== entry.currentStepid;
      if (moves) {
        if (entry.timingid) await this.entries.closeTiming(entry.timingid, now);
        changes.currentStepid = body.stepid;
        changes.timingid = await this.entries.insertTiming({
          entryid,
          stepid: body.stepid!,
          dateStart: now,
          dateEnd: null,
        });
      }
      const expect = body.lasttimingid ?? (moves ? (entry.timingid ?? undefined) : undefined);
      if (!(await this.entries.updateEntry(entryid, 'started', changes, expect))) {
        throw new RevisionConflictException(await this.workLog.detailById(entryid));
      }
      const recorded = rows.map((row) => ({ ...row, entryid, userid: caller.userid, date: now }));
      await this.entries.insertData(recorded);
      const after = await this.workLog.detail({ ...entry, ...changes }, formsToken);
      const move = moves ? { stepid: body.stepid!, timingid: changes.timingid! } : {};
      await this.audit.record({
        action: 'work_log.record',
        entity: ['work_log_entry', entryid],
        after: {
          values: recorded.map((r) => ({
            field_revisionid: r.fieldRevisionid,
            field_guid: r.fieldGuid,
            value: r.value,
          })),
          ...move,
        },
      });
      tx.publish(
        WorkLogDataRecorded({
          entryid,
          guideid: entry.guideid,
          userid: caller.userid,
          date: now,
          values: recorded.map((r) => ({
            field_revisionid: r.fieldRevisionid,
            field_guid: r.fieldGuid,
            stepid: r.stepid,
            value: r.value,
          })),
          ...move,
        }),
      );
      return after;
    });
  }

  /**
   * 422 for unknown keys, bad values, media the caller does not own and a stepid outside the guide. Answers the
   * rows to insert and the step-forms token read with the fields (for the answer's forms).
   */
  private async validate(
    entry: WorkLogEntryEntity,
    body: StepDataDto,
    caller: AuthenticatedUser,
  ): Promise<{ rows: Omit<WorkLogDataEntity, 'dataid' | 'entryid' | 'userid' | 'date'>[]; formsToken: string | null }> {
    const keys = Object.keys(body.fields);
    const ids = keys.filter((k) => /^\d{1,10}$/.test(k) && Number(k) <= 2147483647).map(Number);
    const [{ value: fields, token: formsToken }, stepids] = await Promise.all([
      this.forms.fieldsByIds(entry.guideid, ids),
      body.stepid !== undefined ? this.forms.stepIds(entry.guideid) : Promise.resolve([]),
    ]);
    const byId = new Map(fields.map((f) => [f.fieldRevisionid, f]));
    const errors: FieldError[] = [];
    const rows: Omit<WorkLogDataEntity, 'dataid' | 'entryid' | 'userid' | 'date'>[] = [];
    for (const key of keys) {
      const field = /^\d{1,10}$/.test(key) ? byId.get(Number(key)) : undefined;
      if (!field) {
        errors.push({ message: 'Not a field of this guide', field: `fields.${key}` });
        continue;
      }
      const parsed = parseValue(
        { fieldType: field.fieldType, options: field.options, minValue: field.minValue, maxValue: field.maxValue },
        body.fields[key],
      );
      if (!parsed.ok) {
        errors.push({ message: parsed.message, field: `fields.${key}` });
        continue;
      }
      if (parsed.mediaid !== undefined && !(await this.mediaUsable(field.fieldType, caller.userid, parsed.mediaid))) {
        errors.push({
          message: 'Not in your media manager',
          field: `fields.${key}`,
        });
        continue;
      }
      rows.push({
        fieldRevisionid: field.fieldRevisionid,
        fieldGuid: field.fieldGuid,
        stepid: field.stepid,
        label: field.label,
        value: parsed.value,
      });
    }
    if (body.stepid !== undefined && !stepids.includes(body.stepid)) {
      errors.push({ message: 'Not a step of this guide', field: 'stepid' });
    }
    if (errors.length) throw new ValidationFailedException(errors);
    return { rows, formsToken };
  }

  private async mediaUsable(fieldType: string, userid: number, id: number): Promise<boolean> {
    const check =
      fieldType === 'Image'
        ? this.media.assertImagesUsableBy(userid, [id])
        : fieldType === 'Document'
          ? this.media.assertDocumentsUsableBy(userid, [id])
          : Promise.resolve();
    return check.then(
      () => true,
      () => false,
    );
  }
}
