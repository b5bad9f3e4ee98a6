import { createHash } from 'node:crypto';
import { HttpStatus, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { isAdmin } from '../../common/auth/privileges';
import {
  ApiException,
  notFound,
  RevisionConflictException,
  unprocessable,
  ValidationFailedException,
} from '../../common/http/api-errors';
import { canonicalJson } from '../../common/security/canonical-json';
import { isUniqueViolation } from '../../database/errors';
import { TransactionService, type Transaction } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../platform/clock/clock';
import { DocumentRegistry, type DocType } from '../../platform/documents/document-registry';
import { SignatureService, type SignerProof } from '../../platform/signatures/signature.service';
import { ReleasesService } from '../releases/releases.service';
import {
  ApprovalRequestApproved,
  ApprovalRequestRejected,
  ApprovalRequestSigned,
  ApprovalRequestStageApproved,
} from './approval.events';
import { isRefusal, transition, type Outcome } from './approval-request.state-machine';
import { ApprovalRequestsRepository } from './approval-requests.repository';
import { ApprovalRequestsService } from './approval-requests.service';
import type { SignRequestDto } from './dto/request-body.dto';
import type { ApprovalRequestEntity } from './entities/approval-request.entity';
import type { ApprovalRequestDto, SignCodeSentDto } from './dto/request-response.dto';

export const SUBJECT = 'approval_request';

/** Another signature moved the request first: everything is rolled back and the answer is 409. */
class LostRace extends Error {}

/** What one A10 request signs. */
interface Signing {
  approvalRequestid: number;
  stage: number;
  body: SignRequestDto;
  note: string;
  proof: SignerProof;
  caller: AuthenticatedUser;
}

/** The shape checks of A10's body (422); answers the trimmed note. */
function checkBody(body: SignRequestDto): string {
  if ((body.password === undefined) === (body.sign_token === undefined)) {
    throw new ValidationFailedException([{ message: 'Send exactly one of password or sign_token', field: 'password' }]);
  }
  const note = body.note?.trim() ?? '';
  if (body.decision === 'reject' && !note) throw unprocessable('A rejection needs a note', 'note');
  return note;
}

const EVENTS = {
  stage_approved: ApprovalRequestStageApproved,
  approved: ApprovalRequestApproved,
  rejected: ApprovalRequestRejected,
} as const;

/** A10 and A11: approve or reject with an electronic signature, and one-time sign codes. */
@Injectable()
export class ApprovalSigningService {
  constructor(
    private readonly requests: ApprovalRequestsRepository,
    private readonly views: ApprovalRequestsService,
    private readonly releases: ReleasesService,
    private readonly signatures: SignatureService,
    private readonly documents: DocumentRegistry,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  /**
   * A10. Order (docs/enterprise/approvals.md): shape 422 → 404 → 409 not pending → 403 not eligible → the
   * signature (403 wrong secret, 429 locked), verified outside any transaction → the move, under the
   * request's row lock, with the signature, audit row, events and mail in one transaction.
   */
  async sign(approvalRequestid: number, body: SignRequestDto, caller: AuthenticatedUser): Promise<ApprovalRequestDto> {
    const note = checkBody(body);
    const stage = await this.assertCanSign(approvalRequestid, caller);
    const proof = await this.signatures.verify(
      caller,
      { password: body.password, sign_token: body.sign_token },
      { subjectType: SUBJECT, subjectId: approvalRequestid, stage },
    );
    const moved = await this.transactions
      .run((tx) => this.signLocked(tx, { approvalRequestid, stage, body, note, proof, caller }))
      .catch((error: unknown) => {
        if (error instanceof LostRace) return null;
        throw error;
      });
    if (!moved) throw new RevisionConflictException(await this.views.get(approvalRequestid, caller));
    return moved;
  }

  /** The signature and its move, under the request's row lock; a lost race rolls it all back (LostRace). */
  private async signLocked(tx: Transaction, signing: Signing): Promise<ApprovalRequestDto> {
    const { approvalRequestid, stage, body, note, caller } = signing;
    const open = await this.lockOpenStage(signing);
    const before: ApprovalRequestDto = { ...this.views.bodyOf(open.rows, open.users), eligible: false };
    await this.recordSignature(signing, open.request);
    const approvals =
      open.signed.filter((row) => row.decision === 'approve').length + (body.decision === 'approve' ? 1 : 0);
    const outcome = transition(open.request.status, body.decision, {
      approvals,
      requiredSignatures: open.stage.requiredSignatures,
      isLastStage: stage === open.request.stageCount,
      hasNote: note !== '',
    });
    if (isRefusal(outcome)) {
      if (outcome.refused === 'note_required') throw unprocessable('A rejection needs a note', 'note');
      throw new LostRace();
    }
    const opensNext = await this.applyOutcome(signing, open.request, outcome);
    // The answer is read here, in the transaction that made it (one read, on the primary; the users shown are
    // those read before); the audit row and events carry the same body without the caller's `eligible`.
    const answer = this.views.bodyOf(await this.views.rowsOf(approvalRequestid, caller.userid, 'all'), open.users);
    const after: ApprovalRequestDto = { ...answer, eligible: false };
    await this.audit.record({
      action: `approval_request.${body.decision}`,
      entity: [SUBJECT, approvalRequestid],
      before,
      after,
      reason: note || null,
    });
    tx.publish(ApprovalRequestSigned(after));
    if (outcome.event && outcome.event !== 'cancelled') tx.publish(EVENTS[outcome.event](after));
    if (opensNext) {
      const next = open.rows.find((row) => row.stage.orderby === stage + 1)?.stage;
      if (next) await this.views.mailSigners(after, next);
    }
    if (outcome.request !== 'pending') await this.views.mailRequester(after, note);
    return answer;
  }

  /**
   * Locks the request and reads its rows under the lock (every stage signature is written under it, so they
   * stay true): LostRace unless the stage is still open and the caller has not signed it.
   */
  private async lockOpenStage({ approvalRequestid, stage, caller }: Signing) {
    const request = await this.requests.lockRequest(approvalRequestid);
    if (!request || request.status !== 'pending' || request.currentStage !== stage) throw new LostRace();
    const rows = await this.views.rowsOf(approvalRequestid, caller.userid, 'all');
    const current = rows.find((row) => row.stage.orderby === stage)?.stage;
    if (!current || current.status !== 'pending') throw new LostRace();
    const signed = rows.filter((row) => row.stage.orderby === stage && row.signature && row.decision);
    if (signed.some((row) => row.signature!.userid === caller.userid)) throw new LostRace();
    return { request, rows, stage: current, signed, users: await this.views.usersOf(rows) };
  }

  private async recordSignature(signing: Signing, request: ApprovalRequestEntity): Promise<void> {
    const { approvalRequestid, stage, body, note, proof, caller } = signing;
    const signature = await this.signatures.record(proof, {
      type: SUBJECT,
      id: approvalRequestid,
      meaning: body.decision === 'approve' ? 'approval' : 'rejection',
      note,
      recordHash: await this.recordHash(request.doctype as DocType, request.docid, request.revisionid),
    });
    try {
      await this.requests.insertStageSignature({
        approvalRequestid,
        orderby: stage,
        userid: caller.userid,
        signatureid: signature.signatureid,
        decision: body.decision,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new LostRace();
      throw error;
    }
  }

  /** The stage and request moves of the outcome and its release effects; answers whether the next stage opened. */
  private async applyOutcome(
    { approvalRequestid, stage }: Signing,
    request: ApprovalRequestEntity,
    outcome: Outcome,
  ): Promise<boolean> {
    const now = this.clock.nowSeconds();
    if (outcome.stage !== 'pending') {
      await this.requests.moveStage(approvalRequestid, stage, 'pending', { status: outcome.stage, endDate: now });
    }
    const opensNext = outcome.effects.includes('open_next_stage');
    if (opensNext) {
      await this.requests.moveStage(approvalRequestid, stage + 1, 'waiting', { status: 'pending', initDate: now });
    }
    if (outcome.request !== 'pending' || opensNext) {
      const closed = outcome.request !== 'pending';
      const changed = await this.requests.moveRequest(approvalRequestid, request, {
        status: outcome.request,
        currentStage: closed ? null : stage + 1,
        endDate: closed ? now : null,
      });
      if (!changed) throw new LostRace();
    }
    if (outcome.effects.includes('release_released')) await this.releases.markReleased(request.releaseid);
    if (outcome.effects.includes('release_rejected')) await this.releases.markRejected(request.releaseid);
    return opensNext;
  }

  /** A11: mails a 6-digit code for the open stage (docs/enterprise/approvals.md, Sign codes). */
  async issueCode(approvalRequestid: number, caller: AuthenticatedUser): Promise<SignCodeSentDto> {
    const stage = await this.assertCanSign(approvalRequestid, caller);
    const sent = await this.signatures.issueCode(
      caller,
      { subjectType: SUBJECT, subjectId: approvalRequestid, stage },
      `approval request ${approvalRequestid}`,
    );
    return { delivery: 'email', expires_date: sent.expires_date };
  }

  /**
   * 404 unless involved; 409 (the request) unless pending; 403 unless eligible. Answers the open stage. The
   * request's rows alone decide; the body (with its users' teams and avatars) is read only for a 409.
   */
  private async assertCanSign(approvalRequestid: number, caller: AuthenticatedUser): Promise<number> {
    const rows = await this.views.rowsOf(approvalRequestid, caller.userid, isAdmin(caller) ? 'all' : 'mine');
    if (!rows.length) throw notFound('Approval request');
    const { status, currentStage } = rows[0].request;
    if (status !== 'pending' || currentStage === null) {
      throw new RevisionConflictException(this.views.bodyOf(rows, await this.views.usersOf(rows)));
    }
    if (!rows.some((row) => row.callerCanSign)) throw new ApiException(HttpStatus.FORBIDDEN, 'Not eligible to sign');
    return currentStage;
  }

  /** SHA-256 of the signed revision's canonical content: a later change of that content is detectable. */
  private async recordHash(doctype: DocType, docid: number, revisionid: number): Promise<string> {
    const revision = await this.documents.of(doctype).revision(docid, revisionid);
    return createHash('sha256')
      .update(canonicalJson(revision?.content ?? null))
      .digest('hex');
  }
}
