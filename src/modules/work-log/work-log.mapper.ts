import type { SignatureViewDto } from '../../platform/signatures/dto/signature-view.dto';
import type { EntryStepFormDto } from '../step-forms/dto/step-form.dto';
import type { UserLightDto } from '../users/dto/user-response.dto';
import type { FinishResultDto, SignoffDto, WorkDataDto, WorkLogEntryDto } from './dto/work-log-response.dto';
import type { WorkLogDataEntity } from './entities/work-log-data.entity';
import type { WorkLogEntryEntity } from './entities/work-log-entry.entity';
import type { WorkLogSignoffEntity } from './entities/work-log-signoff.entity';
import type { EntryChildren } from './work-log.repository';

/** The newest value per field_guid, in the order the fields were first recorded. */
export function newestValues(data: WorkLogDataEntity[]): WorkDataDto[] {
  const newest = new Map<string, WorkLogDataEntity>();
  for (const row of data) {
    const seen = newest.get(row.fieldGuid);
    if (!seen || row.dataid > seen.dataid) newest.set(row.fieldGuid, row);
  }
  return [...newest.values()].map((row) => ({
    label: row.label,
    value: row.value,
    field_revisionid: row.fieldRevisionid,
    stepid: row.stepid,
    field_guid: row.fieldGuid,
    date: row.date,
  }));
}

export function toEntry(
  entry: WorkLogEntryEntity,
  children: EntryChildren,
  now: number,
  forms?: EntryStepFormDto[],
): WorkLogEntryDto {
  return {
    id: entry.entryid,
    entryid: entry.entryid,
    guideid: entry.guideid,
    userid: entry.userid,
    workorderid: entry.workorderid,
    starttime: entry.starttime,
    endtime: entry.endtime,
    max_form_revisionid: entry.maxFormRevisionid,
    cancelled: entry.status === 'cancelled' ? 1 : 0,
    guide_revisionid: entry.guideRevisionid,
    duration: Math.max(0, (entry.endtime ?? now) - entry.starttime),
    status: entry.status,
    work_data: newestValues(children.data),
    timingid: entry.timingid,
    paused_seconds: entry.pausedSeconds + (entry.status === 'paused' && entry.pausedAt ? now - entry.pausedAt : 0),
    current_stepid: entry.currentStepid,
    timings: children.timings.map((t) => ({
      timingid: t.timingid,
      stepid: t.stepid,
      date_start: t.dateStart,
      date_end: t.dateEnd,
    })),
    signoffs: children.signoffs.map((s) => ({
      signoffid: s.signoffid,
      stepid: s.stepid,
      teamid: s.teamid,
      status: s.status,
    })),
    release: entry.releaseid ? { releaseid: entry.releaseid, version: entry.releaseVersion ?? '' } : null,
    ...(forms ? { forms } : {}),
  };
}

export function toFinishResult(entry: WorkLogEntryEntity): FinishResultDto {
  const endtime = entry.endtime ?? entry.starttime;
  return {
    endtime,
    max_form_revisionid: entry.maxFormRevisionid,
    guide_revisionid: entry.guideRevisionid,
    entryid: entry.entryid,
    status: entry.status,
    duration: Math.max(0, endtime - entry.starttime),
  };
}

export function toSignoff(
  signoff: WorkLogSignoffEntity,
  entry: WorkLogEntryEntity,
  teamName: string,
  users: Map<number, UserLightDto>,
  signature: SignatureViewDto | null,
): SignoffDto {
  return {
    signoffid: signoff.signoffid,
    entry: { entryid: entry.entryid, guideid: entry.guideid, workorderid: entry.workorderid, userid: entry.userid },
    stepid: signoff.stepid,
    team: { teamid: signoff.teamid, name: teamName },
    status: signoff.status,
    requested_by: users.get(signoff.requestedBy) as UserLightDto,
    requested_date: signoff.requestedDate,
    signer: signoff.signerUserid ? (users.get(signoff.signerUserid) ?? null) : null,
    signature,
    date: signoff.date,
  };
}
