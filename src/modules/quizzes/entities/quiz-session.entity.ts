import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';

/**
 * A user's attempt at a quiz (docs/enterprise/quizzes.md). It pins the quiz revision and the guide release in force.
 * `open_slot` is 1 while `in_progress`, else NULL: the unique index allows one open session per (user,
 * quiz, course stage) even under races (`stage_key` is the course_stageid, or 0 without one).
 */
@Entity({ name: 'quiz_sessions' })
@Index('uq_quiz_sessions_open', ['userid', 'quizid', 'stageKey', 'openSlot'], { unique: true })
@Index('idx_quiz_sessions_quiz', ['quizid', 'sessionid'])
@Index('idx_quiz_sessions_status', ['status', 'sessionid'])
export class QuizSessionEntity {
  @PrimaryGeneratedColumn({ name: 'sessionid', type: 'int' })
  sessionid: number;

  @Column({ name: 'quizid', type: 'int' })
  quizid: number;

  @Column({ name: 'quiz_revisionid', type: 'int' })
  quizRevisionid: number;

  @Column({ name: 'userid', type: 'int' })
  userid: number;

  @Column({ name: 'course_stageid', type: 'int', nullable: true })
  courseStageid: number | null;

  @Column({ name: 'stage_key', type: 'int' })
  stageKey: number;

  @Column({ name: 'open_slot', type: 'int', nullable: true })
  openSlot: number | null;

  @Column({ name: 'doctype', type: 'varchar', length: 8, nullable: true })
  doctype: string | null;

  @Column({ name: 'docid', type: 'int', nullable: true })
  docid: number | null;

  @Column({ name: 'status', type: 'varchar', length: 16 })
  status: string;

  /** `{external_question_uid: value}` */
  @Column({ name: 'answers', type: 'json' })
  answers: Record<string, unknown>;

  @Column({ name: 'score', type: 'int', nullable: true })
  score: number | null;

  @Column({ name: 'passed', type: 'boolean', nullable: true })
  passed: boolean | null;

  @Column({ name: 'passing_score', type: 'int' })
  passingScore: number;

  @Column({ name: 'guide_releaseid', type: 'int', nullable: true })
  guideReleaseid: number | null;

  @Column(unixTimeColumn({ name: 'started_date' }))
  startedDate: number;

  @Column(unixTimeColumn({ name: 'saved_date', nullable: true }))
  savedDate: number | null;

  @Column(unixTimeColumn({ name: 'submitted_date', nullable: true }))
  submittedDate: number | null;

  @Column({ name: 'invalidated_by', type: 'int', nullable: true })
  invalidatedBy: number | null;

  @Column(unixTimeColumn({ name: 'invalidated_date', nullable: true }))
  invalidatedDate: number | null;

  @Column({ name: 'invalidated_reason', type: 'text', nullable: true })
  invalidatedReason: string | null;
}
