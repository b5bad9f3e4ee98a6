import { defineEvent } from '../../platform/events/domain-event';
import type { SignoffDto, WorkLogEntryDto } from './dto/work-log-response.dto';

const entry = (e: WorkLogEntryDto): [string, number] => ['work_log_entry', e.entryid];
const signoff = (s: SignoffDto): [string, number] => ['work_log_signoff', s.signoffid];

/** Work Order Status Changed, on finish and cancel (docs/enterprise/webhooks-events.md); payload: the W2 body. */
export const WorkOrderStatusChanged = defineEvent<WorkLogEntryDto>('work_order.status_changed', entry);

/** The other moves and writes of an entry (payload: the W2 body after the change). */
export const WorkLogEntryStarted = defineEvent<WorkLogEntryDto>('work_log.started', entry);
export const WorkLogEntryPaused = defineEvent<WorkLogEntryDto>('work_log.paused', entry);
export const WorkLogEntryResumed = defineEvent<WorkLogEntryDto>('work_log.resumed', entry);
export const WorkLogEntrySuspended = defineEvent<WorkLogEntryDto>('work_log.suspended', entry);
export const WorkLogEntryAssumed = defineEvent<WorkLogEntryDto>('work_log.assumed', entry);
/**
 * Values recorded into an entry: what was recorded, not the entry (its W2 body with every form of the guide is
 * several KB per write, and recording is not a move of the entry). The entry is `GET /work_log/{entryid}`.
 */
export interface WorkLogDataRecordedPayload {
  entryid: number;
  guideid: number;
  userid: number;
  date: number;
  values: { field_revisionid: number; field_guid: string; stepid: number; value: string }[];
  /** The step the write moved the entry to, and its new timing; absent when it did not move. */
  stepid?: number;
  timingid?: number;
}
export const WorkLogDataRecorded = defineEvent<WorkLogDataRecordedPayload>('work_log.data_recorded', (p) => [
  'work_log_entry',
  p.entryid,
]);
export const WorkLogEntryDeleted = defineEvent<WorkLogEntryDto>('work_log.deleted', entry);

export const WorkLogSignoffRequested = defineEvent<SignoffDto>('work_log.signoff_requested', signoff);
export const WorkLogSignoffDecided = defineEvent<SignoffDto>('work_log.signoff_decided', signoff);
