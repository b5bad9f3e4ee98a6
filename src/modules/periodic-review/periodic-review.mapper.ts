import type { DocumentLabel } from '../../platform/documents/document-registry';
import type { UserLightDto } from '../users/dto/user-response.dto';
import type { ReviewDocumentDto, ScheduleDto } from './dto/schedule-response.dto';
import type { ReviewDocumentEntity } from './entities/review-document.entity';
import type { ReviewScheduleEntity } from './entities/review-schedule.entity';
import { reviewState, windowOpensDate, type Recurrence } from './review-state';

export function recurrenceOf(s: ReviewScheduleEntity): Recurrence {
  return s.recurrenceType === 'annual'
    ? { type: 'annual', month: s.annualMonth ?? 1, day: s.annualDay ?? 1 }
    : { type: 'interval', days: s.intervalDays ?? 2 };
}

/** The effective reviewer: the document's, else the schedule's default reviewer, else the document's author. */
export const effectiveReviewerId = (
  d: ReviewDocumentEntity,
  s: ReviewScheduleEntity,
  info: DocumentLabel | null | undefined,
): number | null => d.reviewerUserid ?? s.defaultReviewerUserid ?? info?.authorid ?? null;

export function toScheduleDto(
  s: ReviewScheduleEntity,
  users: Map<number, UserLightDto>,
  teams: Map<number, string>,
  documentsCount: number,
): ScheduleDto {
  const user = (id: number | null) => (id === null ? null : (users.get(id) ?? null));
  return {
    prsid: s.prsid,
    name: s.name,
    recurrence: recurrenceOf(s),
    completion_window_days: s.completionWindowDays,
    default_reviewer: user(s.defaultReviewerUserid),
    default_team: s.defaultTeamid === null ? null : { teamid: s.defaultTeamid, name: teams.get(s.defaultTeamid) ?? '' },
    documents_count: documentsCount,
    created_by: user(s.createdByUserid),
    created_date: s.createdDate,
  };
}

export function toReviewDocumentDto(
  d: ReviewDocumentEntity,
  s: ReviewScheduleEntity,
  info: DocumentLabel | null | undefined,
  users: Map<number, UserLightDto>,
  now: number,
): ReviewDocumentDto {
  const reviewerId = effectiveReviewerId(d, s, info);
  return {
    prdid: d.prdid,
    prsid: d.prsid,
    doctype: d.doctype,
    docid: d.docid,
    title: info?.title ?? '',
    url: info?.url ?? '',
    reviewer: reviewerId === null ? null : (users.get(reviewerId) ?? null),
    next_due_date: d.nextDueDate,
    window_opens_date: windowOpensDate(d.nextDueDate, s.completionWindowDays),
    last_reviewed_date: d.lastReviewedDate,
    state: reviewState(now, d.nextDueDate, s.completionWindowDays),
  };
}
