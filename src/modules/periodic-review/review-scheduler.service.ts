import { setImmediate } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../platform/clock/clock';
import { MailQueue } from '../../platform/mail/mail-queue';
import { UsersService } from '../users/users.service';
import { ReviewDue, ReviewOverdue } from './periodic-review.events';
import { PeriodicReviewRepository } from './periodic-review.repository';
import { ReviewDocumentsRepository } from './review-documents.repository';
import { ScheduleViewsService } from './schedule-views.service';

export const REVIEW_TICK = 'periodic-review.tick';
export const TICK_BATCH = 500;

/**
 * The hourly task (docs/enterprise/periodic-review.md, Scheduler): documents whose state differs from the stored
 * `notified_state` get it stored, their reviewer mailed and `periodic_review.due` / `.overdue` emitted,
 * once per change. Batches of TICK_BATCH by prdid, each in one transaction with a bounded number of
 * statements (the states re-read under lock and updated per new state, the audit rows, events and mail
 * jobs in multi-row INSERTs), so concurrent runs never mail twice.
 */
@Injectable()
export class ReviewSchedulerService {
  constructor(
    private readonly repository: PeriodicReviewRepository,
    private readonly reviewDocuments: ReviewDocumentsRepository,
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
      const batch = await this.reviewDocuments.changedStates(now, after, TICK_BATCH);
      if (!batch.length) return;
      after = batch[batch.length - 1].row.prdid;
      await this.transactions.run(async (tx) => {
        const moved = await this.reviewDocuments.markNotifiedMany(
          batch.map(({ row, state }) => ({ prdid: row.prdid, from: row.notifiedState, to: state })),
        );
        const notify = batch
          .filter(({ row, state }) => moved.has(row.prdid) && state !== 'scheduled')
          .map(({ row, state }) => ({ row, state, from: row.notifiedState }));
        if (!notify.length) return;
        const schedules = await this.repository.schedulesByIds(notify.map((c) => c.row.prsid));
        const bodies = await this.views.documentsOf(
          notify.map((c) => ({ ...c.row, notifiedState: c.state })),
          schedules,
        );
        const emails = await this.users.emailsOf(bodies.flatMap((b) => (b.reviewer ? [b.reviewer.userid] : [])));
        await this.audit.recordMany(
          bodies.map((body, i) => ({
            action: `periodic_review.${notify[i].state === 'open' ? 'due' : 'overdue'}`,
            entity: ['periodic_review_document', body.prdid] as [string, number],
            before: { notified_state: notify[i].from },
            after: body,
          })),
        );
        const mails = [];
        for (const [i, body] of bodies.entries()) {
          const open = notify[i].state === 'open';
          tx.publish(open ? ReviewDue(body) : ReviewOverdue(body));
          const to = body.reviewer ? emails.get(body.reviewer.userid) : undefined;
          if (to) {
            mails.push({
              to,
              subject: open ? `Review due: ${body.title}` : `Review overdue: ${body.title}`,
              text:
                `${body.title} (${body.url}) ${open ? 'is due for review by' : 'was due for review on'} ` +
                `${new Date(body.next_due_date * 1000).toISOString().slice(0, 10)} (UTC).`,
            });
          }
        }
        await this.mail.enqueueMany(mails);
      });
      if (batch.length < TICK_BATCH) return;
      // On SQLite every statement completes synchronously, so without a turn of the event loop here the whole
      // task would run as one chain of microtasks and hold every HTTP request until its last batch.
      await setImmediate();
    }
  }
}
