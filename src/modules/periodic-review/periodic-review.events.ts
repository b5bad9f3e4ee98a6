import { defineEvent } from '../../platform/events/domain-event';
import type { ReviewDocumentDto, ScheduleDetailDto } from './dto/schedule-response.dto';
import type { ReviewDto } from './dto/review-response.dto';

const schedule = (s: ScheduleDetailDto): [string, number] => ['periodic_review_schedule', s.prsid];
const document = (d: ReviewDocumentDto): [string, number] => ['periodic_review_document', d.prdid];

/** A schedule was created (payload: the ScheduleDetail P1 answers). */
export const ScheduleCreated = defineEvent<ScheduleDetailDto>('periodic_review.schedule_created', schedule);
/** A schedule was deleted; its documents are free again. */
export const ScheduleDeleted = defineEvent<ScheduleDetailDto>('periodic_review.schedule_deleted', schedule);
/** A document joined a schedule. */
export const DocumentScheduled = defineEvent<ReviewDocumentDto>('periodic_review.document_added', document);
/** A document left its schedule. */
export const DocumentUnscheduled = defineEvent<ReviewDocumentDto>('periodic_review.document_removed', document);
/** The scheduler saw a document's window open (docs/enterprise/webhooks-events.md). */
export const ReviewDue = defineEvent<ReviewDocumentDto>('periodic_review.due', document);
/** The scheduler saw a document pass its due date (docs/enterprise/webhooks-events.md). */
export const ReviewOverdue = defineEvent<ReviewDocumentDto>('periodic_review.overdue', document);
/** A review was recorded, by P11 or by a confirming release (docs/enterprise/webhooks-events.md; payload: the Review). */
export const ReviewCompleted = defineEvent<ReviewDto>('periodic_review.completed', (r) => [
  'periodic_review',
  r.reviewid,
]);
