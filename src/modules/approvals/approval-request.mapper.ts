import type { UserLightDto } from '../users/dto/user-response.dto';
import type { UserContext } from '../users/user.mapper';
import { toUserLight } from '../users/user.mapper';
import { toReleaseDto } from '../releases/release.mapper';
import { toSignatureView } from '../../platform/signatures/signature.service';
import type { ApprovalRequestDto, RequestStageDto } from './dto/request-response.dto';
import type { RequestViewRow } from './approval-requests.repository';

/**
 * Request bodies from the rows of one view statement (a row per stage and signature, in request
 * order): the A8/A9 answers and the event payloads alike.
 */
export function toApprovalRequests(rows: RequestViewRow[], users: UserContext): ApprovalRequestDto[] {
  const bodies = new Map<number, ApprovalRequestDto>();
  const stages = new Map<string, RequestStageDto>();
  const light = (columns: RequestViewRow['requester']): UserLightDto => toUserLight(columns, users);
  for (const row of rows) {
    const { request, stage } = row;
    let body = bodies.get(request.approvalRequestid);
    if (!body) {
      const requestedBy = light(row.requester);
      body = {
        approval_requestid: request.approvalRequestid,
        status: request.status,
        releaseid: request.releaseid,
        release: toReleaseDto(row.release!, requestedBy),
        doctype: request.doctype,
        docid: request.docid,
        document_title: request.documentTitle,
        requested_by: requestedBy,
        init_date: request.initDate,
        end_date: request.endDate,
        process: {
          approval_processid: request.approvalProcessid,
          approval_process_revisionid: request.approvalProcessRevisionid,
          name: request.processName,
        },
        current_stage: request.currentStage,
        stage_count: request.stageCount,
        stages: [],
        eligible: false,
      };
      bodies.set(request.approvalRequestid, body);
    }
    const key = `${request.approvalRequestid}:${stage.orderby}`;
    let view = stages.get(key);
    if (!view) {
      view = {
        orderby: stage.orderby,
        status: stage.status,
        init_date: stage.initDate,
        end_date: stage.endDate,
        user: row.stageUser ? light(row.stageUser) : null,
        team: stage.teamid === null ? null : { teamid: stage.teamid, name: row.teamName ?? '' },
        required_signatures: stage.requiredSignatures,
        signatures: [],
      };
      stages.set(key, view);
      body.stages.push(view);
    }
    if (row.signature && row.decision)
      view.signatures.push({ ...toSignatureView(row.signature), decision: row.decision });
    if (row.callerCanSign) body.eligible = true;
  }
  return [...bodies.values()];
}

/** Every user a view shows (requesters, stage users), for one batch of teams and avatars. */
export const usersOf = (rows: RequestViewRow[]) => {
  const seen = new Map<number, RequestViewRow['requester']>();
  for (const row of rows) {
    seen.set(row.requester.userid, row.requester);
    if (row.stageUser) seen.set(row.stageUser.userid, row.stageUser);
  }
  return [...seen.values()];
};
