import { createHash } from 'node:crypto';
import { HttpStatus, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ApiException, notFound, RevisionConflictException, unprocessable } from '../../common/http/api-errors';
import { canonicalJson } from '../../common/security/canonical-json';
import { TransactionService, type Transaction } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../platform/clock/clock';
import { DocumentRegistry, type DocumentInfo } from '../../platform/documents/document-registry';
import { SignatureService, type SignerProof } from '../../platform/signatures/signature.service';
import type { CreateReviewDto } from './dto/review-body.dto';
import type { ReviewDto } from './dto/review-response.dto';
import type { ReviewDocumentEntity } from './entities/review-document.entity';
import type { ReviewOutcome, ReviewSource } from './entities/review.entity';
import type { ReviewScheduleEntity } from './entities/review-schedule.entity';
import { ReviewCompleted } from './periodic-review.events';
import { effectiveReviewerId, recurrenceOf } from './periodic-review.mapper';
import { PeriodicReviewRepository } from './periodic-review.repository';
import { nextDueDate, reviewState } from './review-state';
import { ReviewViewsService } from './review-views.service';
import { ScheduleViewsService } from './schedule-views.service';

/** What a review records, from P11 or from a release that confirms the review. */
export interface ReviewRecord {
  source: ReviewSource;
  outcome: ReviewOutcome;
  notes: string;
  revisionid: number;
  recordHash: string;
  releaseid: number | null;
  changeRequest?: { assigneeUserid: number; description: string };
}

/** P11 and the review a confirming release records (docs/enterprise/periodic-review.md). */
@Injectable()
export class ReviewsService {
  constructor(
    private readonly repository: PeriodicReviewRepository,
    private readonly scheduleViews: ScheduleViewsService,
    private readonly views: ReviewViewsService,
    private readonly documents: DocumentRegistry,
    private readonly signatures: SignatureService,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  /** P11. */
  async review(body: CreateReviewDto, caller: AuthenticatedUser): Promise<ReviewDto> {
    if (body.prdid === undefined && (body.doctype === undefined || body.docid === undefined)) {
      throw unprocessable('Send prdid, or doctype and docid', 'prdid');
    }
    if (body.outcome === 'changes_requested' && !body.change_request) {
      throw unprocessable('change_request.description is required for changes_requested', 'change_request.description');
    }
    const { row, schedule, info } = await this.target(body, caller);
    const reviewerId = effectiveReviewerId(row, schedule, info);
    if (reviewerId !== caller.userid && !(await this.mayReviewOtherwise(row, schedule, caller))) {
      throw new ApiException(HttpStatus.FORBIDDEN, 'Only the reviewer or an editor of the document may review it');
    }
    await this.requireReviewable(row, schedule);
    const assigneeUserid = body.change_request?.assignee_userid ?? info.authorid ?? caller.userid;
    if (body.change_request?.assignee_userid !== undefined) {
      if (!(await this.repository.existingUsers([assigneeUserid])).size) {
        throw unprocessable('change_request.assignee_userid is not a user', 'change_request.assignee_userid');
      }
    }
    const revision = await this.documents.of(row.doctype).revision(row.docid, info.revisionid);
    const recordHash = createHash('sha256')
      .update(canonicalJson(revision?.content ?? null))
      .digest('hex');
    const proof = await this.signatures.verify(
      caller,
      { password: body.password },
      { subjectType: 'periodic_review_document', subjectId: row.prdid, stage: 'review' },
    );
    const reviewid = await this.transactions.run((tx) =>
      this.record(tx, row, schedule, proof, {
        source: 'review',
        outcome: body.outcome,
        notes: body.notes ?? '',
        revisionid: info.revisionid,
        recordHash,
        releaseid: null,
        changeRequest:
          body.outcome === 'changes_requested' && body.change_request
            ? { assigneeUserid, description: body.change_request.description }
            : undefined,
      }),
    );
    if (reviewid === null) await this.requireReviewable(row, schedule, true);
    return this.views.one(reviewid!);
  }

  /**
   * Records a review inside `tx`: the signature, the review row, the next due date, a change request or
   * the resolution of open ones, audit rows and the `periodic_review.completed` event. Null when a
   * concurrent review moved the due date first.
   */
  async record(
    tx: Transaction,
    row: ReviewDocumentEntity,
    schedule: ReviewScheduleEntity,
    proof: SignerProof,
    review: ReviewRecord,
  ): Promise<number | null> {
    const now = this.clock.nowSeconds();
    const next = nextDueDate(recurrenceOf(schedule), now, row.nextDueDate);
    if (!(await this.repository.markReviewed(row.prdid, row.nextDueDate, now, next))) return null;
    const signature = await this.signatures.record(proof, {
      type: 'periodic_review_document',
      id: row.prdid,
      meaning: 'review',
      note: review.notes.slice(0, 5000),
      recordHash: review.recordHash,
    });
    const reviewid = await this.repository.insertReview({
      prdid: row.prdid,
      doctype: row.doctype,
      docid: row.docid,
      revisionid: review.revisionid,
      userid: proof.userid,
      outcome: review.outcome,
      notes: review.notes,
      source: review.source,
      releaseid: review.releaseid,
      signatureid: signature.signatureid,
      createdDate: now,
    });
    // A confirming release resolves change requests when it goes live (in that transaction), not before.
    if (review.outcome === 'no_changes' && review.source === 'review') await this.resolveOpenRequests(row, null, now);
    if (review.changeRequest) {
      const requestid = await this.repository.insertChangeRequest({
        reviewid,
        doctype: row.doctype,
        docid: row.docid,
        assigneeUserid: review.changeRequest.assigneeUserid,
        requestedByUserid: proof.userid,
        description: review.changeRequest.description,
        status: 'open',
        resolvedByReleaseid: null,
        createdDate: now,
        resolvedDate: null,
      });
      const [request] = await this.views.requests(await this.repository.requestsByIds([requestid]));
      await this.audit.record({
        action: 'periodic_review.change_request_open',
        entity: ['periodic_review_change_request', requestid],
        after: request,
      });
    }
    const body = await this.views.one(reviewid);
    await this.audit.record({ action: 'periodic_review.review', entity: ['periodic_review', reviewid], after: body });
    tx.publish(ReviewCompleted(body));
    return reviewid;
  }

  /** Resolves the document's change requests opened by `openedBy` (releaseid null: by a `no_changes` review). */
  async resolveOpenRequests(
    doc: Pick<ReviewDocumentEntity, 'doctype' | 'docid'>,
    releaseid: number | null,
    now: number,
    openedBy = now,
  ): Promise<void> {
    const open = (await this.repository.openRequestsOf(doc.doctype, doc.docid)).filter(
      (c) => c.createdDate <= openedBy,
    );
    if (!open.length) return;
    const ids = open.map((c) => c.requestid);
    const before = await this.views.requests(open);
    await this.repository.resolveRequests(ids, releaseid, now);
    const after = await this.views.requests(await this.repository.requestsByIds(ids));
    for (const [i, body] of after.entries()) {
      await this.audit.record({
        action: 'periodic_review.change_request_resolve',
        entity: ['periodic_review_change_request', body.requestid],
        before: before[i],
        after: body,
      });
    }
  }

  /** The scheduled document addressed by P11: 404 when gone or unreadable, 409 when not scheduled. */
  private async target(
    body: CreateReviewDto,
    caller: AuthenticatedUser,
  ): Promise<{ row: ReviewDocumentEntity; schedule: ReviewScheduleEntity; info: DocumentInfo }> {
    let row: ReviewDocumentEntity | undefined;
    if (body.prdid !== undefined) {
      [row] = await this.repository.liveDocuments([body.prdid]);
      if (!row) throw notFound('Review document');
      await this.documents.requireReadable(caller, row.doctype, row.docid);
    } else {
      await this.documents.requireReadable(caller, body.doctype!, body.docid!);
      [row] = await this.repository.membershipsOf(body.doctype!, [body.docid!]);
      if (!row) throw new ApiException(HttpStatus.CONFLICT, 'The document is not in a review schedule');
    }
    const [schedule] = await this.repository.schedulesByIds([row.prsid]);
    const info = (await this.documents.of(row.doctype).find([row.docid])).get(row.docid);
    if (!info) throw notFound(row.doctype === 'GUIDE' ? 'Guide' : 'Wiki');
    return { row, schedule, info };
  }

  /** Members of the schedule's default team and editors of the document may review too. */
  private async mayReviewOtherwise(
    row: ReviewDocumentEntity,
    schedule: ReviewScheduleEntity,
    caller: AuthenticatedUser,
  ): Promise<boolean> {
    if (
      schedule.defaultTeamid !== null &&
      (await this.repository.isTeamMember(schedule.defaultTeamid, caller.userid))
    ) {
      return true;
    }
    return (await this.documents.of(row.doctype).editable(caller, [row.docid])).has(row.docid);
  }

  /** 409 with the ReviewDocument unless the review is open or overdue (or `reload`: a concurrent review won). */
  private async requireReviewable(
    row: ReviewDocumentEntity,
    schedule: ReviewScheduleEntity,
    reload = false,
  ): Promise<void> {
    const current = reload ? (await this.repository.liveDocuments([row.prdid]))[0] : row;
    if (!current) throw notFound('Review document');
    if (
      !reload &&
      reviewState(this.clock.nowSeconds(), row.nextDueDate, schedule.completionWindowDays) !== 'scheduled'
    ) {
      return;
    }
    const [body] = await this.scheduleViews.documentsOf([current], [schedule]);
    throw new RevisionConflictException(body);
  }
}
