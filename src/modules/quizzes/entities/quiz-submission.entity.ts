import { Column, Entity, Index, PrimaryGeneratedColumn, type ValueTransformer } from 'typeorm';

/**
 * Answers may be bare JSON strings, which MySQL's driver hands back already parsed and TypeORM would parse
 * a second time ("4 " → 4): they are stored wrapped as `{"value": …}`.
 */
const wrapped: ValueTransformer = {
  to: (value: unknown) => ({ value: value ?? null }),
  from: (stored: unknown) => (stored as { value?: unknown } | null)?.value ?? null,
};

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

  /** The answer as given (null when unanswered), stored as `{"value": answer}`. */
  @Column({ name: 'answer', type: 'json', nullable: true, transformer: wrapped })
  answer: unknown;

  @Column({ name: 'is_correct', type: 'boolean' })
  isCorrect: boolean;

  @Column({ name: 'points', type: 'int' })
  points: number;
}
