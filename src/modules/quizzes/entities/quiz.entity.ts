import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';

export const QUIZ_STATUSES = ['active', 'disabled', 'deleted'] as const;
export type QuizStatus = (typeof QUIZ_STATUSES)[number];

/** A quiz (docs/enterprise/quizzes.md). Its questions live in immutable revisions; deletes are soft (status `deleted`). */
@Entity({ name: 'quizzes' })
@Index('idx_quizzes_status', ['status', 'quizid'])
@Index('idx_quizzes_guide', ['guideid'])
@Index('idx_quizzes_category', ['category'])
export class QuizEntity {
  @PrimaryGeneratedColumn({ name: 'quizid', type: 'int' })
  quizid: number;

  @Column({ name: 'title', type: 'varchar', length: 255 })
  title: string;

  /** '' when none. */
  @Column({ name: 'category', type: 'varchar', length: 255, default: '' })
  category: string;

  @Column({ name: 'status', type: 'varchar', length: 16 })
  status: QuizStatus;

  /** The primary guide (docs/enterprise/quizzes.md, Primary guide), or null. */
  @Column({ name: 'guideid', type: 'int', nullable: true })
  guideid: number | null;

  @Column({ name: 'default_passing_score', type: 'int' })
  defaultPassingScore: number;

  /** The current revision. */
  @Column({ name: 'quiz_revisionid', type: 'int' })
  quizRevisionid: number;

  @Column({ name: 'version', type: 'int' })
  version: number;

  /** The current revision's release date (revisions are released when created). */
  @Column(unixTimeColumn({ name: 'released_date' }))
  releasedDate: number;

  /** Sessions ever submitted (QuizListItem.quizzes_submitted). */
  @Column({ name: 'submitted_count', type: 'int', default: 0 })
  submittedCount: number;

  @Column({ name: 'created_by', type: 'int' })
  createdBy: number;

  @Column(unixTimeColumn({ name: 'created_date' }))
  createdDate: number;

  @Column(unixTimeColumn({ name: 'modified_date' }))
  modifiedDate: number;
}
