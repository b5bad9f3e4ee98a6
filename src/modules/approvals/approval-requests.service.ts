import { HttpStatus, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { isAdmin } from '../../common/auth/privileges';
import { ApiException, notFound } from '../../common/http/api-errors';
import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../platform/clock/clock';
import { DocumentRegistry } from '../../platform/documents/document-registry';
import { MailQueue } from '../../platform/mail/mail-queue';
import type { GatedRelease, ResolvedProcess } from '../releases/approval-gate';
import type { UserContext } from '../users/user.mapper';
import { UsersService } from '../users/users.service';
import { ApprovalRequestCancelled, ApprovalRequestSubmitted } from './approval.events';
import { toApprovalRequests, usersOf } from './approval-request.mapper';
import { isRefusal, transition } from './approval-request.state-machine';
import { ApprovalProcessesRepository } from './approval-processes.repository';
import { ApprovalRequestsRepository, type RequestFilter, type RequestViewRow } from './approval-requests.repository';
import type { ListRequestsQueryDto } from './dto/request-body.dto';
import type { ApprovalRequestDto } from './dto/request-response.dto';
import type { ApprovalRequestStageEntity } from './entities/approval-request-stage.entity';

const SYSTEM = 0;

/** The tables an approval-request list (A8) is read from: its cached answers are kept until one of them changes. */
export const APPROVAL_ANSWER_SOURCES = [
  'approval_requests',
  'approval_request_stages',
  'approval_stage_signatures',
  'signatures',
  'releases',
  'users',
  'teams',
  'team_members',
  // Avatars of the users shown, when they have one.
  'images',
];

/** Approval requests: reads (A8, A9), opening on release and cancelling with it (the approval gate). */
@Injectable()
export class ApprovalRequestsService {
  constructor(
    private readonly requests: ApprovalRequestsRepository,
    private readonly processes: ApprovalProcessesRepository,
    private readonly users: UsersService,
    private readonly documents: DocumentRegistry,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly mail: MailQueue,
    private readonly clock: Clock,
  ) {}

  /** A8: one statement for the page, one for the users' teams (and one for avatars, when any). */
  async list(query: ListRequestsQueryDto, caller: AuthenticatedUser): Promise<ApprovalRequestDto[]> {
    if (query.eligibility === 'all' && !isAdmin(caller)) {
      throw new ApiException(HttpStatus.FORBIDDEN, 'Only an Admin may list all approval requests', {
        requiredPrivileges: ['Admin'],
      });
    }
    return this.views(
      {
        status: query.status,
        doctype: query.doctype,
        docid: query.docid,
        eligibility: query.eligibility,
        order: query.order,
        offset: query.offset,
        limit: query.limit,
      },
      caller.userid,
    );
  }

  /** A9: Admins, the requester and anyone named in a stage; 404 for everyone else. */
  async get(approvalRequestid: number, caller: AuthenticatedUser): Promise<ApprovalRequestDto> {
    return this.bodyWithUsers(await this.rowsOf(approvalRequestid, caller.userid, isAdmin(caller) ? 'all' : 'mine'));
  }

  /** The body as events carry it (no caller: `eligible` is false). */
  async body(approvalRequestid: number): Promise<ApprovalRequestDto> {
    return this.bodyWithUsers(await this.rowsOf(approvalRequestid, SYSTEM, 'all'));
  }

  /**
   * The view rows of one request with `eligible` worked out for `callerid`: `mine` only if the caller is
   * involved (A9's visibility), `all` whoever asks. For a signature, which reads a request several times.
   */
  rowsOf(approvalRequestid: number, callerid: number, eligibility: 'mine' | 'all'): Promise<RequestViewRow[]> {
    return this.requests.view({ approvalRequestid, eligibility, order: 'ASC', offset: 0, limit: 1 }, callerid);
  }

  /** Teams and avatars of the users a request's rows show; they stay the same while the request moves. */
  usersOf(rows: RequestViewRow[]): Promise<UserContext> {
    return this.users.context(usersOf(rows));
  }

  private async bodyWithUsers(rows: RequestViewRow[]): Promise<ApprovalRequestDto> {
    if (!rows.length) throw notFound('Approval request');
    return this.bodyOf(rows, await this.usersOf(rows));
  }

  /** The body of one request's rows (rowsOf). */
  bodyOf(rows: RequestViewRow[], users: UserContext): ApprovalRequestDto {
    const [body] = toApprovalRequests(rows, users);
    if (!body) throw notFound('Approval request');
    return body;
  }

  private async views(filter: RequestFilter, callerid: number): Promise<ApprovalRequestDto[]> {
    const rows = await this.requests.view(filter, callerid);
    if (!rows.length) return [];
    return toApprovalRequests(rows, await this.users.context(usersOf(rows)));
  }

  /** The gate's `open`, inside the release's transaction: stage 1 pending, the rest waiting, stage-1 signers mailed. */
  async open(release: GatedRelease, resolved: ResolvedProcess): Promise<number> {
    return this.transactions.run(async (tx) => {
      const revision = await this.processes.findRevision(resolved.approval_process_revisionid);
      const stages = (await this.processes.stagesOf([resolved.approval_process_revisionid])).get(
        resolved.approval_process_revisionid,
      );
      if (!revision || !stages?.length)
        throw new Error(`Approval process revision ${resolved.approval_process_revisionid} has no stages`);
      const document = (await this.documents.of(release.doctype).find([release.docid])).get(release.docid);
      const now = this.clock.nowSeconds();
      const approvalRequestid = await this.requests.insertRequest({
        status: 'pending',
        releaseid: release.releaseid,
        doctype: release.doctype,
        docid: release.docid,
        langid: release.langid,
        revisionid: release.revisionid,
        documentTitle: (document?.title ?? '').slice(0, 255),
        requestedBy: release.userid,
        approvalProcessid: resolved.approval_processid,
        approvalProcessRevisionid: resolved.approval_process_revisionid,
        processName: revision.name,
        currentStage: 1,
        stageCount: stages.length,
        initDate: now,
        endDate: null,
      });
      await this.requests.insertStages(
        stages.map((stage) => ({
          approvalRequestid,
          orderby: stage.orderby,
          status: stage.orderby === 1 ? 'pending' : 'waiting',
          userid: stage.userid,
          teamid: stage.teamid,
          requiredSignatures: stage.requiredSignatures,
          initDate: stage.orderby === 1 ? now : null,
          endDate: null,
        })),
      );
      const body = await this.body(approvalRequestid);
      // The release learns its request id after this call returns; the payload already says it.
      body.release.approval_requestid = approvalRequestid;
      await this.audit.record({
        action: 'approval_request.create',
        entity: ['approval_request', approvalRequestid],
        after: body,
      });
      tx.publish(ApprovalRequestSubmitted(body));
      await this.mailSigners(body, stages[0]);
      return approvalRequestid;
    });
  }

  /** The gate's `cancel`: the release was deleted while pending; the open stage is skipped. */
  async cancel(approvalRequestid: number): Promise<void> {
    await this.transactions.run(async (tx) => {
      const request = await this.requests.lockRequest(approvalRequestid);
      if (!request) return;
      const outcome = transition(request.status, 'cancel', {
        approvals: 0,
        requiredSignatures: 1,
        isLastStage: false,
        hasNote: false,
      });
      if (isRefusal(outcome)) return;
      const before = await this.body(approvalRequestid);
      const now = this.clock.nowSeconds();
      if (request.currentStage !== null) {
        await this.requests.moveStage(approvalRequestid, request.currentStage, 'pending', {
          status: outcome.stage,
          endDate: now,
        });
      }
      await this.requests.moveRequest(approvalRequestid, request, {
        status: outcome.request,
        currentStage: null,
        endDate: now,
      });
      const after = await this.body(approvalRequestid);
      await this.audit.record({
        action: 'approval_request.cancel',
        entity: ['approval_request', approvalRequestid],
        before,
        after,
      });
      tx.publish(ApprovalRequestCancelled(after));
    });
  }

  /** Mails a stage's signers (never the requester, who may not sign) that their signature is wanted. */
  async mailSigners(
    body: ApprovalRequestDto,
    stage: Pick<ApprovalRequestStageEntity, 'userid' | 'teamid'>,
  ): Promise<void> {
    const signers = await this.requests.signersOf(stage);
    await this.mail.enqueueMany(
      signers
        .filter((signer) => signer.userid !== body.requested_by.userid && signer.email)
        .map((signer) => ({
          to: signer.email!,
          subject: `Approval requested: ${body.document_title}`,
          text:
            `${body.requested_by.username} asks for your signature on release ${body.release.version} of ` +
            `"${body.document_title}" (approval request ${body.approval_requestid}, stage ${body.current_stage} of ${body.stage_count}).`,
        })),
    );
  }

  /** Mails the requester how their request ended. */
  async mailRequester(body: ApprovalRequestDto, note: string | undefined): Promise<void> {
    const email = await this.requests.emailOf(body.requested_by.userid);
    if (!email) return;
    await this.mail.enqueue({
      to: email,
      subject: `Approval request ${body.status}: ${body.document_title}`,
      text:
        `Your approval request ${body.approval_requestid} for "${body.document_title}" was ${body.status}.` +
        (note ? `\nNote: ${note}` : ''),
    });
  }
}
