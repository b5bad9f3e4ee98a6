import { Module } from '@nestjs/common';
import { MediaModule } from '../media/media.module';
import { StepFormsModule } from '../step-forms/step-forms.module';
import { TeamsModule } from '../teams/teams.module';
import { UsersModule } from '../users/users.module';
import { WorkLogExportService } from './work-log-export.service';
import { WorkLogSignoffsController } from './work-log-signoffs.controller';
import { WorkLogSignoffsService } from './work-log-signoffs.service';
import { WorkLogStepDataService } from './work-log-step-data.service';
import { WorkLogController } from './work-log.controller';
import { WorkLogDemoSeed } from './work-log-demo.seed';
import { WorkLogRepository } from './work-log.repository';
import { WorkLogService } from './work-log.service';

/** Operators' work-log entries, step data and supervisor sign-offs (docs/enterprise/work-log.md). Guides are reached through the DocumentRegistry. */
@Module({
  imports: [StepFormsModule, MediaModule, TeamsModule, UsersModule],
  controllers: [WorkLogSignoffsController, WorkLogController],
  providers: [
    WorkLogRepository,
    WorkLogService,
    WorkLogStepDataService,
    WorkLogSignoffsService,
    WorkLogExportService,
    WorkLogDemoSeed,
  ],
})
export class WorkLogModule {}
