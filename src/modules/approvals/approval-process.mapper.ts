import type { UserLightDto } from '../users/dto/user-response.dto';
import type { ApprovalProcessDto, ProcessStageDto, TeamRefDto } from './dto/process-response.dto';
import type { ApprovalProcessStageEntity } from './entities/approval-process-stage.entity';
import type { ApprovalProcessEntity } from './entities/approval-process.entity';
import type { ApprovalProcessRevisionEntity } from './entities/approval-process-revision.entity';

/** What the process mapper needs besides the rows; loaded in batches by the service. */
export interface ProcessContext {
  users: Map<number, UserLightDto>;
  teams: Map<number, { name: string }>;
  documentCounts: Map<number, number>;
}

export const toTeamRef = (teamid: number | null, teams: Map<number, { name: string }>): TeamRefDto | null =>
  teamid === null ? null : { teamid, name: teams.get(teamid)?.name ?? '' };

export function toProcessStage(stage: ApprovalProcessStageEntity, ctx: ProcessContext): ProcessStageDto {
  return {
    approval_process_stageid: stage.approvalProcessStageid,
    orderby: stage.orderby,
    user: stage.userid === null ? null : (ctx.users.get(stage.userid) ?? null),
    team: toTeamRef(stage.teamid, ctx.teams),
    required_signatures: stage.requiredSignatures,
  };
}

export function toApprovalProcess(
  process: ApprovalProcessEntity,
  revision: ApprovalProcessRevisionEntity,
  stages: ApprovalProcessStageEntity[],
  ctx: ProcessContext,
): ApprovalProcessDto {
  return {
    approval_processid: process.approvalProcessid,
    approval_process_revisionid: revision.approvalProcessRevisionid,
    name: revision.name,
    site_default: process.siteDefault,
    stages: stages.map((stage) => toProcessStage(stage, ctx)),
    documents_count: ctx.documentCounts.get(process.approvalProcessid) ?? 0,
    created_date: process.createdDate,
    modified_date: process.modifiedDate,
  };
}
