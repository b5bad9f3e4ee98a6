import { Injectable } from '@nestjs/common';
import { DemoSeed } from '../../database/seed/demo-seed.decorator';
import { DemoSeedRegistry } from '../../database/seed/demo-seed.registry';
import { Clock } from '../../platform/clock/clock';
import { DocumentRegistry } from '../../platform/documents/document-registry';
import { UsersService } from '../users/users.service';
import { DAY_SECONDS } from './review-state';
import { ScheduleDocumentsService } from './schedule-documents.service';
import { SchedulesService } from './schedules.service';

/** The wiki page the demo puts on a review schedule (a demo WIKI page). */
export const DEMO_REVIEWED_PAGE = 'Getting Started';
const DUE_IN_DAYS = 7;

/**
 * Periodic review on a new site: an annual schedule whose date is a week after the seed, reviewed by the
 * demo Moderator, with one wiki page in it, so its 30-day completion window is open at once and the
 * Moderator has a document due.
 */
@Injectable()
export class PeriodicReviewDemoSeed {
  constructor(
    private readonly seeds: DemoSeedRegistry,
    private readonly schedules: SchedulesService,
    private readonly scheduleDocuments: ScheduleDocumentsService,
    private readonly documents: DocumentRegistry,
    private readonly users: UsersService,
    private readonly clock: Clock,
  ) {}

  @DemoSeed({ name: 'periodic review', order: 70 })
  async run(): Promise<void> {
    const [adminid, moderatorid] = this.seeds.get<number[]>('demo.userids') ?? [];
    if (!adminid || !moderatorid) return;
    const wikis = this.documents.of('WIKI');
    const found = await wikis.find(await wikis.searchTitles(DEMO_REVIEWED_PAGE, 5));
    const page = [...found.values()].find((doc) => doc.title === DEMO_REVIEWED_PAGE);
    if (!page) return;
    const caller = await this.users.callerOf(adminid);
    const due = new Date((this.clock.nowSeconds() + DUE_IN_DAYS * DAY_SECONDS) * 1000);
    const schedule = await this.schedules.create(
      {
        name: 'Demo annual review',
        recurrence: { type: 'annual', month: due.getUTCMonth() + 1, day: due.getUTCDate() },
        completion_window_days: 30,
        default_reviewer_userid: moderatorid,
      },
      caller,
    );
    await this.scheduleDocuments.add(
      { prsid: schedule.prsid, documents: [{ doctype: 'WIKI', docid: page.docid }] },
      caller,
    );
  }
}
