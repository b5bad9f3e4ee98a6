import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One graded answer of a submitted session. Written once, never changed. */
@Entity({ name: 'quiz_submissions' })
@Index('idx_quiz_submissions_session', ['sessionid', 'submissionid'])
export class QuizSubmissionEntity {
  @PrimaryGeneratedColumn({ name: 'submissionid', type: 'int' })
  submissionid: number;

  @Column({ name: 'sessionid', type: 'int' })
  sessionid: number;

  @Column({ name: 'questionid', type: 'int' })
  questionid: number;

  @Column({ name: 'external_question_uid', type: 'varchar', length: 100 })
  externalQuestionUid: string;

  /** The answer as given (JSON null when unanswered). */
  @Column({ name: 'answer', type: 'json', nullable: true })
  answer: unknown;

  @Column({ name: 'is_correct', type: 'boolean' })
  isCorrect: boolean;

  @Column({ name: 'points', type: 'int' })
  points: number;
}
