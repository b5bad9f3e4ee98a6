import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A question of a quiz, keyed by its survey element name (`external_question_uid`): the id stays the same
 * across revisions. `removed` marks questions the current revision no longer has.
 */
@Entity({ name: 'quiz_questions' })
@Index('uq_quiz_questions_uid', ['quizid', 'externalQuestionUid'], { unique: true })
export class QuizQuestionEntity {
  @PrimaryGeneratedColumn({ name: 'questionid', type: 'int' })
  questionid: number;

  @Column({ name: 'quizid', type: 'int' })
  quizid: number;

  @Column({ name: 'external_question_uid', type: 'varchar', length: 100 })
  externalQuestionUid: string;

  @Column({ name: 'title', type: 'text' })
  title: string;

  @Column({ name: 'type', type: 'varchar', length: 32 })
  type: string;

  @Column({ name: 'orderby', type: 'int' })
  orderby: number;

  @Column({ name: 'removed', type: 'boolean', default: false })
  removed: boolean;
}
