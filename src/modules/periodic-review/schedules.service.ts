import { HttpStatus, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { callerHas } from '../../common/auth/privileges';
import { ApiException, notFound, unprocessable } from '../../common/http/api-errors';
import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../platform/clock/clock';
import type { CreateScheduleDto } from './dto/schedule-body.dto';
import type { ScheduleListQueryDto } from './dto/schedule-query.dto';
import type { ScheduleDetailDto, ScheduleDto } from './dto/schedule-response.dto';
import type { ReviewScheduleEntity } from './entities/review-schedule.entity';
import { ScheduleCreated, ScheduleDeleted } from './periodic-review.events';
import { PeriodicReviewRepository } from './periodic-review.repository';
import { DEFAULT_WINDOW_DAYS, recurrenceProblem } from './review-state';
import { ScheduleViewsService } from './schedule-views.service';

/** Schedules: P1-P4 (docs/enterprise/periodic-review.md). */
@Injectable()
export class SchedulesService {
  constructor(
    private readonly repository: PeriodicReviewRepository,
    private readonly views: ScheduleViewsService,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  /** P1. */
  async create(body: CreateScheduleDto, caller: AuthenticatedUser): Promise<ScheduleDetailDto> {
    const windowDays = body.completion_window_days ?? DEFAULT_WINDOW_DAYS;
    const problem = recurrenceProblem(body.recurrence, windowDays);
    if (problem) throw unprocessable(problem[1], problem[0]);
    if (body.default_reviewer_userid !== undefined && body.default_reviewer_teamid !== undefined) {
      throw unprocessable(
        'Send at most one of default_reviewer_userid and default_reviewer_teamid',
        'default_reviewer_teamid',
      );
    }
    if (
      body.default_reviewer_userid !== undefined &&
      !(await this.repository.existingUsers([body.default_reviewer_userid])).size
    ) {
      throw unprocessable('default_reviewer_userid is not a user', 'default_reviewer_userid');
    }
    if (
      body.default_reviewer_teamid !== undefined &&
      !(await this.repository.teamNames([body.default_reviewer_teamid])).size
    ) {
      throw unprocessable('default_reviewer_teamid is not a team', 'default_reviewer_teamid');
    }
    const r = body.recurrence;
    const prsid = await this.transactions.run(async (tx) => {
      const id = await this.repository.insertSchedule({
        name: body.name,
        recurrenceType: r.type,
        annualMonth: r.type === 'annual' ? r.month : null,
        annualDay: r.type === 'annual' ? r.day : null,
        intervalDays: r.type === 'interval' ? r.days : null,
        completionWindowDays: windowDays,
        defaultReviewerUserid: body.default_reviewer_userid ?? null,
        defaultTeamid: body.default_reviewer_teamid ?? null,
        createdByUserid: caller.userid,
        createdDate: this.clock.nowSeconds(),
        deletedDate: null,
      });
      const detail = await this.views.detail((await this.repository.liveSchedule(id))!, null);
      await this.audit.record({
        action: 'periodic_review.schedule_create',
        entity: ['periodic_review_schedule', id],
        after: detail,
      });
      tx.publish(ScheduleCreated(detail));
      return id;
    });
    return this.views.detail((await this.repository.liveSchedule(prsid))!, caller);
  }

  /** P2. */
  async list(query: ScheduleListQueryDto): Promise<ScheduleDto[]> {
    return this.views.schedules(await this.repository.pageSchedules(query.offset, query.limit, query.order));
  }

  /** A live schedule or 404. */
  async require(prsid: number): Promise<ReviewScheduleEntity> {
    const schedule = await this.repository.liveSchedule(prsid);
    if (!schedule) throw notFound('Schedule');
    return schedule;
  }

  /** P3. */
  async detail(prsid: number, caller: AuthenticatedUser): Promise<ScheduleDetailDto> {
    return this.views.detail(await this.require(prsid), caller);
  }

  /** P4: the creator or a Moderator+; frees the documents and keeps reviews and change requests. */
  async remove(prsid: number, caller: AuthenticatedUser): Promise<void> {
    const schedule = await this.require(prsid);
    if (schedule.createdByUserid !== caller.userid && !callerHas(caller, 'Moderator')) {
      throw new ApiException(HttpStatus.FORBIDDEN, 'Only the creator of a schedule or a Moderator may delete it');
    }
    const gone = await this.transactions.run(async (tx) => {
      const before = await this.views.detail(schedule, null);
      if (!(await this.repository.deleteSchedule(prsid, this.clock.nowSeconds()))) return true;
      await this.audit.record({
        action: 'periodic_review.schedule_delete',
        entity: ['periodic_review_schedule', prsid],
        before,
      });
      tx.publish(ScheduleDeleted(before));
      return false;
    });
    if (gone) throw notFound('Schedule');
  }
}
