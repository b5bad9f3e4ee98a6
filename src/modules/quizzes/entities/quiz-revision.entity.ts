import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';

/** One immutable revision of a quiz's survey (survey-builder JSON, with correct answers). Never updated. */
@Entity({ name: 'quiz_revisions' })
@Index('uq_quiz_revisions_version', ['quizid', 'version'], { unique: true })
export class QuizRevisionEntity {
  @PrimaryGeneratedColumn({ name: 'quiz_revisionid', type: 'int' })
  quizRevisionid: number;

  @Column({ name: 'quizid', type: 'int' })
  quizid: number;

  @Column({ name: 'version', type: 'int' })
  version: number;

  @Column({ name: 'survey', type: 'json' })
  survey: Record<string, unknown>;

  @Column({ name: 'userid', type: 'int' })
  userid: number;

  @Column(unixTimeColumn({ name: 'released_date' }))
  releasedDate: number;
}
