import { Module, OnModuleInit } from '@nestjs/common';
import { ReviewDirectory } from '../../platform/documents/review-directory';
import { Scheduler } from '../../platform/jobs/scheduler';
import { PeriodicReviewDemoSeed } from './periodic-review-demo.seed';
import { PeriodicReviewHooks } from './periodic-review-hooks';
import { UsersModule } from '../users/users.module';
import { PeriodicReviewController } from './periodic-review.controller';
import { PeriodicReviewRepository } from './periodic-review.repository';
import { ReviewDocumentsRepository } from './review-documents.repository';
import { REVIEW_TICK, ReviewSchedulerService } from './review-scheduler.service';
import { ReviewSearchService } from './review-search.service';
import { ReviewViewsService } from './review-views.service';
import { ReviewsService } from './reviews.service';
import { ScheduleDocumentsService } from './schedule-documents.service';
import { ScheduleViewsService } from './schedule-views.service';
import { SchedulesService } from './schedules.service';
import { UserListsService } from './user-lists.service';

/**
 * Periodic review (docs/enterprise/periodic-review.md): schedules and the documents in them. Reaches guides and wikis
 * through the DocumentRegistry only; runs the hourly reminder task and provides the platform ReviewDirectory (through
 * which a release going live resolves the document's change requests).
 */
@Module({
  imports: [UsersModule],
  controllers: [PeriodicReviewController],
  providers: [
    PeriodicReviewRepository,
    ReviewDocumentsRepository,
    ScheduleViewsService,
    SchedulesService,
    ScheduleDocumentsService,
    ReviewViewsService,
    ReviewsService,
    UserListsService,
    ReviewSchedulerService,
    PeriodicReviewHooks,
    ReviewSearchService,
    PeriodicReviewDemoSeed,
  ],
})
export class PeriodicReviewModule implements OnModuleInit {
  constructor(
    private readonly scheduler: Scheduler,
    private readonly reviewScheduler: ReviewSchedulerService,
    private readonly directory: ReviewDirectory,
    private readonly hooks: PeriodicReviewHooks,
  ) {}

  onModuleInit(): void {
    this.scheduler.add({ name: REVIEW_TICK, every: '0 * * * *', run: () => this.reviewScheduler.tick() });
    this.directory.provide(this.hooks);
  }
}
