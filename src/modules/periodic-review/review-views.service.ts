import { Injectable } from '@nestjs/common';
import { UsersService } from '../users/users.service';
import type { ChangeRequestDto, ReviewDto } from './dto/review-response.dto';
import type { ChangeRequestEntity } from './entities/change-request.entity';
import type { ReviewEntity } from './entities/review.entity';
import { PeriodicReviewRepository } from './periodic-review.repository';
import { toChangeRequestDto, toReviewDto } from './review.mapper';
import { ScheduleViewsService } from './schedule-views.service';

/** Builds Review and ChangeRequest bodies in batches (one query per level). */
@Injectable()
export class ReviewViewsService {
  constructor(
    private readonly repository: PeriodicReviewRepository,
    private readonly views: ScheduleViewsService,
    private readonly users: UsersService,
  ) {}

  async reviews(rows: ReviewEntity[]): Promise<ReviewDto[]> {
    if (!rows.length) return [];
    const ids = rows.map((r) => r.reviewid);
    const [requests, signatures, infos] = await Promise.all([
      this.repository.requestsOfReviews(ids),
      this.repository.signaturesByIds(rows.flatMap((r) => (r.signatureid === null ? [] : [r.signatureid]))),
      this.views.infos(rows),
    ]);
    const users = await this.users.lightUsers([
      ...rows.map((r) => r.userid),
      ...requests.flatMap((c) => [c.assigneeUserid, c.requestedByUserid]),
    ]);
    const requestOf = new Map(requests.map((c) => [c.reviewid, c]));
    const signatureOf = new Map(signatures.map((s) => [s.signatureid, s]));
    return rows.map((r) =>
      toReviewDto(
        r,
        infos.get(r.doctype)?.get(r.docid)?.title ?? '',
        users,
        r.signatureid === null ? undefined : signatureOf.get(r.signatureid),
        requestOf.get(r.reviewid),
      ),
    );
  }

  async one(reviewid: number): Promise<ReviewDto> {
    const [body] = await this.reviews(await this.repository.reviewsByIds([reviewid]));
    return body;
  }

  async requests(rows: ChangeRequestEntity[]): Promise<ChangeRequestDto[]> {
    if (!rows.length) return [];
    const [infos, users] = await Promise.all([
      this.views.infos(rows),
      this.users.lightUsers(rows.flatMap((c) => [c.assigneeUserid, c.requestedByUserid])),
    ]);
    return rows.map((c) => toChangeRequestDto(c, infos.get(c.doctype)?.get(c.docid)?.title ?? '', users));
  }
}
