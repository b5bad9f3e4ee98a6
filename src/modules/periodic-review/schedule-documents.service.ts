import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { callerHas } from '../../common/auth/privileges';
import { ApiException, notFound, unprocessable } from '../../common/http/api-errors';
import { isUniqueViolation } from '../../database/errors';
import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../platform/clock/clock';
import { DOCTYPES, DocumentRegistry, type DocType } from '../../platform/documents/document-registry';
import type { AddDocumentsDto, ScheduleDocumentInputDto } from './dto/schedule-body.dto';
import type { ScheduleConflictItemDto, ScheduleDetailDto } from './dto/schedule-response.dto';
import type { ReviewDocumentEntity } from './entities/review-document.entity';
import { DocumentScheduled, DocumentUnscheduled } from './periodic-review.events';
import { recurrenceOf } from './periodic-review.mapper';
import { PeriodicReviewRepository } from './periodic-review.repository';
import { nextDueDate } from './review-state';
import { ScheduleViewsService } from './schedule-views.service';
import { SchedulesService } from './schedules.service';

const docName = (doctype: DocType) => (doctype === 'GUIDE' ? 'Guide' : 'Wiki');

/** Documents in schedules: P7-P9 (docs/enterprise/periodic-review.md). */
@Injectable()
export class ScheduleDocumentsService {
  constructor(
    private readonly repository: PeriodicReviewRepository,
    private readonly schedules: SchedulesService,
    private readonly views: ScheduleViewsService,
    private readonly documents: DocumentRegistry,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  /** P7: all or nothing; documents already in this schedule are no-ops. */
  async add(body: AddDocumentsDto, caller: AuthenticatedUser): Promise<ScheduleDetailDto> {
    const schedule = await this.schedules.require(body.prsid);
    const wanted = this.unique(body.documents);
    await this.requireEditable(
      caller,
      wanted.map((d) => [d.doctype, d.docid]),
    );
    const conflicts = await this.conflicts(wanted, body.prsid);
    if (conflicts.length) throw this.conflict(conflicts);
    const reviewers = [...new Set(wanted.flatMap((d) => (d.reviewer_userid === undefined ? [] : [d.reviewer_userid])))];
    const existing = await this.repository.existingUsers(reviewers);
    const unknown = wanted.findIndex((d) => d.reviewer_userid !== undefined && !existing.has(d.reviewer_userid));
    if (unknown >= 0) {
      const index = body.documents.indexOf(wanted[unknown]);
      throw unprocessable('reviewer_userid is not a user', `documents.${index}.reviewer_userid`, index);
    }
    try {
      await this.transactions.run(async (tx) => {
        const present = new Set(
          (await this.memberships(wanted)).filter((m) => m.prsid === body.prsid).map((m) => `${m.doctype}:${m.docid}`),
        );
        const now = this.clock.nowSeconds();
        const added: ReviewDocumentEntity[] = [];
        for (const d of wanted) {
          if (present.has(`${d.doctype}:${d.docid}`)) continue;
          const values: Omit<ReviewDocumentEntity, 'prdid'> = {
            prsid: body.prsid,
            doctype: d.doctype,
            docid: d.docid,
            reviewerUserid: d.reviewer_userid ?? null,
            memberSlot: 1,
            addedDate: now,
            lastReviewedDate: null,
            nextDueDate: nextDueDate(recurrenceOf(schedule), now),
            notifiedState: 'scheduled',
            removedDate: null,
          };
          added.push({ prdid: await this.repository.insertDocument(values), ...values });
        }
        for (const body of await this.views.documentsOf(added, [schedule])) {
          await this.audit.record({
            action: 'periodic_review.document_add',
            entity: ['periodic_review_document', body.prdid],
            after: body,
          });
          tx.publish(DocumentScheduled(body));
        }
      });
    } catch (error) {
      // A concurrent call put one of the documents in another schedule first.
      if (!isUniqueViolation(error)) throw error;
      throw this.conflict(await this.conflicts(wanted, body.prsid));
    }
    return this.schedules.detail(body.prsid, caller);
  }

  /** P8, P9: all or nothing. */
  async remove(prdids: number[], caller: AuthenticatedUser): Promise<void> {
    const ids = [...new Set(prdids)];
    const rows = await this.repository.liveDocuments(ids);
    const readable = await this.views.readableRows(caller, rows);
    if (readable.length !== ids.length) throw notFound('Review document');
    if (!callerHas(caller, 'Moderator')) {
      const schedules = new Map(
        (await this.repository.schedulesByIds(rows.map((r) => r.prsid))).map((s) => [s.prsid, s]),
      );
      const notOwned = rows.filter((r) => schedules.get(r.prsid)?.createdByUserid !== caller.userid);
      const editable = await this.editableSets(
        caller,
        notOwned.map((r) => [r.doctype, r.docid]),
      );
      const denied = notOwned.find((r) => !editable.get(r.doctype)?.has(r.docid));
      if (denied) {
        throw new ApiException(
          HttpStatus.FORBIDDEN,
          `Only editors of the document, the schedule's creator or a Moderator may remove it (prdid ${denied.prdid})`,
        );
      }
    }
    await this.transactions.run(async (tx) => {
      const schedules = await this.repository.schedulesByIds(rows.map((r) => r.prsid));
      const bodies = await this.views.documentsOf(rows, schedules);
      if ((await this.repository.removeDocuments(ids, this.clock.nowSeconds())) !== ids.length) {
        throw notFound('Review document');
      }
      for (const body of bodies) {
        await this.audit.record({
          action: 'periodic_review.document_remove',
          entity: ['periodic_review_document', body.prdid],
          before: body,
        });
        tx.publish(DocumentUnscheduled(body));
      }
    });
  }

  private unique(documents: ScheduleDocumentInputDto[]): ScheduleDocumentInputDto[] {
    const seen = new Set<string>();
    return documents.filter((d) => {
      const key = `${d.doctype}:${d.docid}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /** 404 for a document that is gone or unreadable, then 403 unless the caller edits every one. */
  private async requireEditable(caller: AuthenticatedUser, docs: [DocType, number][]): Promise<void> {
    for (const doctype of DOCTYPES) {
      const ids = [...new Set(docs.filter(([t]) => t === doctype).map(([, id]) => id))];
      if (!ids.length) continue;
      const provider = this.documents.of(doctype);
      const [found, readable] = await Promise.all([provider.find(ids), provider.readable(caller, ids)]);
      if (ids.some((id) => !found.has(id) || !readable.has(id))) throw notFound(docName(doctype));
    }
    const editable = await this.editableSets(caller, docs);
    const denied = docs.find(([t, id]) => !editable.get(t)?.has(id));
    if (denied) {
      throw new ApiException(
        HttpStatus.FORBIDDEN,
        `Only editors of every document may do this (not of ${denied[0].toLowerCase()} ${denied[1]})`,
      );
    }
  }

  private async editableSets(caller: AuthenticatedUser, docs: [DocType, number][]): Promise<Map<DocType, Set<number>>> {
    const result = new Map<DocType, Set<number>>();
    for (const doctype of DOCTYPES) {
      const ids = [...new Set(docs.filter(([t]) => t === doctype).map(([, id]) => id))];
      result.set(doctype, ids.length ? await this.documents.of(doctype).editable(caller, ids) : new Set());
    }
    return result;
  }

  private async memberships(docs: ScheduleDocumentInputDto[]): Promise<ReviewDocumentEntity[]> {
    const result: ReviewDocumentEntity[] = [];
    for (const doctype of DOCTYPES) {
      const ids = docs.filter((d) => d.doctype === doctype).map((d) => d.docid);
      result.push(...(await this.repository.membershipsOf(doctype, ids)));
    }
    return result;
  }

  private async conflicts(docs: ScheduleDocumentInputDto[], prsid: number): Promise<ScheduleConflictItemDto[]> {
    return (await this.memberships(docs))
      .filter((m) => m.prsid !== prsid)
      .map((m) => ({ doctype: m.doctype, docid: m.docid, prsid: m.prsid }));
  }

  private conflict(conflicts: ScheduleConflictItemDto[]): HttpException {
    return new HttpException(
      { error: true, message: 'A document is in another schedule', conflicts },
      HttpStatus.CONFLICT,
    );
  }
}
