import { Module } from '@nestjs/common';
import { CoursesRepository } from './courses.repository';
import { CoursesService } from './courses.service';

/** Course stages: written by seeds and factories, read by quizzes and training modules. No routes. */
@Module({
  providers: [CoursesRepository, CoursesService],
  exports: [CoursesService],
})
export class CoursesModule {}
