import { Module } from '@nestjs/common';
import { CoursesModule } from '../courses/courses.module';
import { TrainingModulesDemoSeed } from './training-modules-demo.seed';
import { TrainingImportsController } from './training-imports.controller';
import { TrainingImportJob } from './training-import-job';
import { TrainingImportMoves } from './training-import-moves';
import { TrainingImportUpload } from './training-import-upload';
import { TrainingImportsService } from './training-imports.service';
import { TrainingModulesController } from './training-modules.controller';
import { TrainingModulesRepository } from './training-modules.repository';
import { TrainingModulesService } from './training-modules.service';
import { TrainingPlayerPage } from './training-player.page';
import { TrainingPlayerService } from './training-player.service';

/**
 * External training modules (docs/enterprise/training-modules.md): modules and versions, imports run as jobs on the
 * platform runner, the player page and package files under TRAINING_CONTENT_URL (plain Fastify routes registered by
 * create-app, like the HTML pages), registrations, and a demo SCORM 1.2 package.
 */
@Module({
  imports: [CoursesModule],
  controllers: [TrainingModulesController, TrainingImportsController],
  providers: [
    TrainingModulesRepository,
    TrainingModulesService,
    TrainingImportMoves,
    TrainingImportJob,
    TrainingImportUpload,
    TrainingImportsService,
    TrainingPlayerService,
    TrainingPlayerPage,
    TrainingModulesDemoSeed,
  ],
  exports: [TrainingModulesService, TrainingImportsService, TrainingPlayerPage],
})
export class TrainingModulesModule {}
