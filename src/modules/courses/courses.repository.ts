import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { CourseStageEntity } from './entities/course-stage.entity';
import { Database } from '../../database/database';

/** All SQL of course stages. */
@Injectable()
export class CoursesRepository {
  private readonly database: Database;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.database = new Database(dataSource);
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  private get stages() {
    return this.manager.getRepository(CourseStageEntity);
  }

  async insert(stage: Omit<CourseStageEntity, 'courseStageid'>): Promise<CourseStageEntity> {
    const result = await this.stages.insert(stage);
    return { ...stage, courseStageid: Number(result.identifiers[0].courseStageid) };
  }

  find(courseStageid: number): Promise<CourseStageEntity | null> {
    return this.stages.findOneBy({ courseStageid });
  }

  forQuiz(quizid: number): Promise<CourseStageEntity[]> {
    return this.stages.find({ where: { quizid }, order: { courseStageid: 'ASC' } });
  }

  forModule(moduleid: number): Promise<CourseStageEntity[]> {
    return this.stages.find({ where: { moduleid }, order: { courseStageid: 'ASC' } });
  }
}
