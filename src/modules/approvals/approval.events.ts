import { defineEvent } from '../../platform/events/domain-event';
import type { ApprovalProcessDto } from './dto/process-response.dto';
import type { ApprovalRequestDto } from './dto/request-response.dto';

const process = (p: ApprovalProcessDto): [string, number] => ['approval_process', p.approval_processid];
const request = (r: ApprovalRequestDto): [string, number] => ['approval_request', r.approval_requestid];

export const ApprovalProcessCreated = defineEvent<ApprovalProcessDto>('approval_process.created', process);
export const ApprovalProcessUpdated = defineEvent<ApprovalProcessDto>('approval_process.updated', process);

/** A document's `all`/`major` slots changed (A6, A7, the guide fields of PATCH /guides/{guideid}). */
export interface ApprovalAssignmentPayload {
  doctype: 'GUIDE' | 'WIKI';
  docid: number;
  all: number | null;
  major: number | null;
}
export const ApprovalAssignmentChanged = defineEvent<ApprovalAssignmentPayload>('approval_assignment.changed', (a) => [
  a.doctype.toLowerCase(),
  a.docid,
]);

/** The payload is the request as A9 answers it (docs/enterprise/webhooks-events.md). */
export const ApprovalRequestSubmitted = defineEvent<ApprovalRequestDto>('approval_request.submitted', request);
export const ApprovalRequestStageApproved = defineEvent<ApprovalRequestDto>('approval_request.stage_approved', request);
export const ApprovalRequestApproved = defineEvent<ApprovalRequestDto>('approval_request.approved', request);
export const ApprovalRequestRejected = defineEvent<ApprovalRequestDto>('approval_request.rejected', request);
export const ApprovalRequestCancelled = defineEvent<ApprovalRequestDto>('approval_request.cancelled', request);
/** A signature was given on the open stage (whether or not it completed the stage). */
export const ApprovalRequestSigned = defineEvent<ApprovalRequestDto>('approval_request.signed', request);
