import { DynamicModule, Module, type Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { AccessGuard } from './common/auth/access.guard';
import { AllExceptionsFilter } from './common/http/all-exceptions.filter';
import type { RootLogger } from './common/http/log-root';
import { RouteTable } from './common/http/route-table';
import { ApiValidationPipe } from './common/validation/api-validation.pipe';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { DatabaseModule } from './database/database.module';
import { PlatformModule, type PlatformOptions } from './platform/platform.module';
import { AccessModule } from './modules/access/access.module';
import { AuthModule } from './modules/auth/auth.module';
import { HealthModule } from './modules/health/health.module';
import { OperationsModule } from './modules/operations/operations.module';
import { PagesModule } from './modules/pages/pages.module';
import { TrainingModulesModule } from './modules/training-modules/training-modules.module';
import { IconsModule } from './modules/icons/icons.module';
import { TeamsApiModule } from './modules/teams/teams-api.module';
import { UsersModule } from './modules/users/users.module';
import { ReputationModule } from './modules/reputation/reputation.module';
import { CoursesModule } from './modules/courses/courses.module';
import { WikiTextModule } from './modules/wikitext/wikitext.module';
import { CommentsModule } from './modules/comments/comments.module';
import { GuidesModule } from './modules/guides/guides.module';
import { ReleasesModule } from './modules/releases/releases.module';
import { WorkLogModule } from './modules/work-log/work-log.module';
import { PeriodicReviewModule } from './modules/periodic-review/periodic-review.module';
import { QuizzesModule } from './modules/quizzes/quizzes.module';
import { MediaModule } from './modules/media/media.module';
import { TagsModule } from './modules/tags/tags.module';
import { ViewHistoryModule } from './modules/view-history/view-history.module';
import { WikisModule } from './modules/wikis/wikis.module';
import { ApprovalsModule } from './modules/approvals/approvals.module';
import { SearchModule } from './modules/search/search.module';

export interface AppModuleOptions {
  config: AppConfig;
  routes: RouteTable;
  log?: RootLogger;
  extraModules?: Type[];
  platform?: PlatformOptions;
}

@Module({})
export class AppModule {
  static forRoot({ config, routes, log, extraModules = [], platform }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config, log),
        DatabaseModule,
        PlatformModule.forRoot(platform),
        RateLimitModule,
        WikiTextModule,
        AuthModule,
        AccessModule,
        HealthModule,
        OperationsModule,
        UsersModule,
        ReputationModule,
        CoursesModule,
        TeamsApiModule,
        IconsModule,
        MediaModule,
        TagsModule,
        ViewHistoryModule,
        WikisModule,
        CommentsModule,
        GuidesModule,
        ReleasesModule,
        ApprovalsModule,
        WorkLogModule,
        PagesModule,
        PeriodicReviewModule,
        SearchModule,
        QuizzesModule,
        TrainingModulesModule,
        ...extraModules,
      ],
      providers: [
        { provide: RouteTable, useValue: routes },
        { provide: APP_GUARD, useClass: AccessGuard },
        { provide: APP_PIPE, useClass: ApiValidationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}
