import { Module } from '@nestjs/common';
import { TeamsModule } from '../teams/teams.module';
import { StepFormsRepository } from './step-forms.repository';
import { StepFormsService } from './step-forms.service';

/** Typed forms on guide steps (docs/enterprise/work-log.md): written by guide step edits, read by the work log. */
@Module({
  imports: [TeamsModule],
  providers: [StepFormsRepository, StepFormsService],
  exports: [StepFormsService],
})
export class StepFormsModule {}
