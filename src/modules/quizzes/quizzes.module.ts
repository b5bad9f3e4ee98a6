import { Module } from '@nestjs/common';
import { CoursesModule } from '../courses/courses.module';
import { UsersModule } from '../users/users.module';
import { QuizAssociationsController } from './quiz-associations.controller';
import { QuizAccess } from './quiz-access.service';
import { QuizAssociationsService } from './quiz-associations.service';
import { QuizSessionsController } from './quiz-sessions.controller';
import { QuizSessionsRepository } from './quiz-sessions.repository';
import { QuizSessionsService } from './quiz-sessions.service';
import { QuizzesController } from './quizzes.controller';
import { QuizzesDemoSeed } from './quizzes-demo.seed';
import { QuizzesRepository } from './quizzes.repository';
import { QuizzesService } from './quizzes.service';

/**
 * Quizzes (docs/enterprise/quizzes.md): survey-builder definitions with immutable revisions, associations with guides,
 * wikis and course stages, and graded sessions. Guides and wikis are reached through the DocumentRegistry,
 * releases through the ReleaseDirectory. Controllers with static paths come before the one with `{quizid}`.
 */
@Module({
  imports: [CoursesModule, UsersModule],
  controllers: [QuizSessionsController, QuizAssociationsController, QuizzesController],
  providers: [
    QuizzesRepository,
    QuizSessionsRepository,
    QuizAccess,
    QuizzesService,
    QuizAssociationsService,
    QuizSessionsService,
    QuizzesDemoSeed,
  ],
  exports: [QuizzesService],
})
export class QuizzesModule {}
