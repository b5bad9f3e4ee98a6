import { Injectable } from '@nestjs/common';
import type { CourseStageEntity } from './entities/course-stage.entity';
import { CoursesRepository } from './courses.repository';

export type CourseStage = CourseStageEntity;

/**
 * Course stages (docs/enterprise/quizzes.md), shared by quizzes (passing scores, course assignments) and external
 * training modules (usage). Stages are created by the demo seed and test factories only.
 */
@Injectable()
export class CoursesService {
  constructor(private readonly courses: CoursesRepository) {}

  createStage(stage: Omit<CourseStage, 'courseStageid'>): Promise<CourseStage> {
    return this.courses.insert(stage);
  }

  stage(courseStageid: number): Promise<CourseStage | null> {
    return this.courses.find(courseStageid);
  }

  stagesForQuiz(quizid: number): Promise<CourseStage[]> {
    return this.courses.forQuiz(quizid);
  }

  stagesForModule(moduleid: number): Promise<CourseStage[]> {
    return this.courses.forModule(moduleid);
  }
}
