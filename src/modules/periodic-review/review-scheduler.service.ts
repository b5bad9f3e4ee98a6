import { Injectable } from '@nestjs/common';
import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../platform/clock/clock';
import { MailQueue } from '../../platform/mail/mail-queue';
import { UsersService } from '../users/users.service';
import { ReviewDue, ReviewOverdue } from './periodic-review.events';
import { PeriodicReviewRepository } from './periodic-review.repository';
import { ScheduleViewsService } from './schedule-views.service';

export const REVIEW_TICK = 'periodic-review.tick';
export const TICK_BATCH = 500;

/**
 * The hourly task (ENTERPRISE §5.2 Scheduler): documents whose state differs from the stored
 * `notified_state` get it stored, their reviewer mailed and `periodic_review.due` / `.overdue` emitted,
 * once per change. Batches of TICK_BATCH by prdid, each in one transaction; the conditional update
 * keeps concurrent runs from mailing twice.
 */
@Injectable()
export class ReviewSchedulerService {
  constructor(
    private readonly repository: PeriodicReviewRepository,
    private readonly views: ScheduleViewsService,
    private readonly users: UsersService,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly mail: MailQueue,
    private readonly clock: Clock,
  ) {}

  async tick(): Promise<void> {
    const now = this.clock.nowSeconds();
    let after = 0;
    for (;;) {
      const batch = await this.repository.changedStates(now, after, TICK_BATCH);
      if (!batch.length) return;
      after = batch[batch.length - 1].row.prdid;
      await this.transactions.run(async (tx) => {
        const changed = [];
        for (const { row, state } of batch) {
          if (await this.repository.markNotified(row.prdid, row.notifiedState, state)) {
            changed.push({ row, state, from: row.notifiedState });
          }
        }
        const notify = changed.filter((c) => c.state !== 'scheduled');
        if (!notify.length) return;
        const schedules = await this.repository.schedulesByIds(notify.map((c) => c.row.prsid));
        const bodies = await this.views.documentsOf(
          notify.map((c) => ({ ...c.row, notifiedState: c.state })),
          schedules,
        );
        const emails = await this.users.emailsOf(bodies.flatMap((b) => (b.reviewer ? [b.reviewer.userid] : [])));
        for (const [i, body] of bodies.entries()) {
          const { state, from } = notify[i];
          await this.audit.record({
            action: `periodic_review.${state === 'open' ? 'due' : 'overdue'}`,
            entity: ['periodic_review_document', body.prdid],
            before: { notified_state: from },
            after: body,
          });
          tx.publish(state === 'open' ? ReviewDue(body) : ReviewOverdue(body));
          const to = body.reviewer ? emails.get(body.reviewer.userid) : undefined;
          if (to) {
            await this.mail.enqueue({
              to,
              subject: state === 'open' ? `Review due: ${body.title}` : `Review overdue: ${body.title}`,
              text:
                `${body.title} (${body.url}) ${state === 'open' ? 'is due for review by' : 'was due for review on'} ` +
                `${new Date(body.next_due_date * 1000).toISOString().slice(0, 10)} (UTC).`,
            });
          }
        }
      });
      if (batch.length < TICK_BATCH) return;
    }
  }
}
