import { HttpStatus, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { callerHas } from '../../common/auth/privileges';
import { ApiException, notFound } from '../../common/http/api-errors';
import { Clock } from '../../platform/clock/clock';
import { ResponseCache } from '../../platform/response-cache/response-cache';
import { UsersService } from '../users/users.service';
import { DOCTYPES, DocumentRegistry, type DocType } from '../../platform/documents/document-registry';
import type { ChangeRequestDto, ReviewDto } from './dto/review-response.dto';
import type { DocumentScheduleDto, ReviewDocumentDto } from './dto/schedule-response.dto';
import type { UserDocumentsQueryDto, UserRequestsQueryDto, UserReviewsQueryDto } from './dto/user-lists-query.dto';
import { PeriodicReviewRepository } from './periodic-review.repository';
import { ReviewDocumentsRepository } from './review-documents.repository';
import { ReviewViewsService } from './review-views.service';
import { ScheduleViewsService } from './schedule-views.service';
import { SchedulesService } from './schedules.service';

/** The tables a user's review documents (P6) are read from: their cached answers are kept until one changes. */
export const REVIEW_ANSWER_SOURCES = [
  'periodic_review_documents',
  'periodic_review_schedules',
  'guides',
  'wikis',
  'wiki_languages',
  'users',
  'team_members',
  // Avatars of the reviewers shown, when they have one.
  'images',
];

/** Per-user lists P5, P6, P12 (that user or Moderator+) and a document's schedule P13. */
@Injectable()
export class UserListsService {
  constructor(
    private readonly repository: PeriodicReviewRepository,
    private readonly reviewDocuments: ReviewDocumentsRepository,
    private readonly scheduleViews: ScheduleViewsService,
    private readonly reviewViews: ReviewViewsService,
    private readonly schedules: SchedulesService,
    private readonly registry: DocumentRegistry,
    private readonly clock: Clock,
    private readonly users: UsersService,
    private readonly answers: ResponseCache,
  ) {}

  /** 403 unless the caller is that user or a Moderator+, then 404 for an unknown user. */
  private async requireSelfOrModerator(userid: number, caller: AuthenticatedUser): Promise<void> {
    if (userid !== caller.userid && !callerHas(caller, 'Moderator')) {
      throw new ApiException(HttpStatus.FORBIDDEN, 'Only that user or a Moderator may see this');
    }
    if (!(await this.repository.existingUsers([userid])).size) throw notFound('User');
  }

  /** P5. */
  async reviews(userid: number, query: UserReviewsQueryDto, caller: AuthenticatedUser): Promise<ReviewDto[]> {
    await this.requireSelfOrModerator(userid, caller);
    return this.reviewViews.reviews(
      await this.repository.pageReviewsBy(userid, query.offset, query.limit, query.order),
    );
  }

  /**
   * P6: the page in one statement (schedules, document labels and reviewers joined), then the reviewers' teams;
   * beside the page, when the next of the user's documents changes state (a cached page is kept until then).
   */
  async documents(
    userid: number,
    query: UserDocumentsQueryDto,
    caller: AuthenticatedUser,
  ): Promise<ReviewDocumentDto[]> {
    if (userid !== caller.userid && !callerHas(caller, 'Moderator')) {
      throw new ApiException(HttpStatus.FORBIDDEN, 'Only that user or a Moderator may see this');
    }
    const now = this.clock.nowSeconds();
    const labels = new Map(DOCTYPES.map((doctype) => [doctype, this.registry.of(doctype).labelSql('d.docid')]));
    const [rows, next] = await Promise.all([
      this.reviewDocuments.pageLabelledDocumentsReviewedBy(
        userid,
        query.state,
        now,
        query.offset,
        query.limit,
        labels,
        this.users.teamIdsSql('u.userid'),
      ),
      this.reviewDocuments.nextStateChangeReviewedBy(userid, now),
    ]);
    if (next !== null) this.answers.expiresAt(next * 1000);
    // Documents name only existing users; an empty page may be an unknown user (404).
    if (!rows.length && !(await this.repository.existingUsers([userid])).size) throw notFound('User');
    return this.scheduleViews.labelledDocuments(rows);
  }

  /** P12. */
  async requests(userid: number, query: UserRequestsQueryDto, caller: AuthenticatedUser): Promise<ChangeRequestDto[]> {
    await this.requireSelfOrModerator(userid, caller);
    return this.reviewViews.requests(
      await this.repository.pageRequestsOf(userid, query.status, query.offset, query.limit),
    );
  }

  /** P13: readers of the document; 404 when it is gone, unreadable or in no schedule. */
  async documentSchedule(doctype: DocType, docid: number, caller: AuthenticatedUser): Promise<DocumentScheduleDto> {
    await this.registry.requireReadable(caller, doctype, docid);
    const [row] = await this.repository.membershipsOf(doctype, [docid]);
    if (!row) throw notFound('Review document');
    const schedule = await this.schedules.require(row.prsid);
    const [[body], [document]] = await Promise.all([
      this.scheduleViews.schedules([schedule]),
      this.scheduleViews.documentsOf([row], [schedule]),
    ]);
    return { schedule: body, document };
  }
}
