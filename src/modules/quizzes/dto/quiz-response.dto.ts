import { ApiProperty } from '@nestjs/swagger';
import { QUIZ_STATUSES } from '../entities/quiz.entity';
import { SESSION_STATUSES } from '../quiz-session.state-machine';

/** Quiz list item (docs/resources.md). */
export class QuizListItemDto {
  quizid: number;
  quiz_title: string;
  guideid: number;
  guide_title: string;
  /** The version of the guide's newest `released` release, or "". */
  guide_release_version: string;
  /** Sessions ever submitted. */
  quizzes_submitted: number;
  category: string;
  /** The current revision's released_date. */
  quiz_last_released: number;
}

export class CategoryDto {
  name: string;
}

/** Quiz (docs/enterprise/quizzes.md). */
export class QuizDto {
  quizid: number;
  title: string;
  category: string;
  @ApiProperty({ enum: QUIZ_STATUSES })
  status: string;
  /** The primary guide. */
  @ApiProperty({ type: 'integer', nullable: true })
  guideid: number | null;
  default_passing_score: number;
  quiz_revisionid: number;
  version: number;
  released_date: number;
  /** The creator's userid. */
  created_by: number;
  created_date: number;
  modified_date: number;
}

/** Quiz plus the revision's survey-builder JSON; its correctAnswers only for those who may change the quiz. */
export class QuizDetailDto extends QuizDto {
  @ApiProperty({ type: 'object', additionalProperties: true })
  survey: Record<string, unknown>;
}

export class QuizPageDto {
  @ApiProperty({ type: [QuizDto] })
  quizzes: QuizDto[];
  total: number;
}

export class DeleteQuizzesResultDto {
  deleted: number[];
  not_found: number[];
}

export class QuestionDto {
  questionid: number;
  quizid: number;
  external_question_uid: string;
  title: string;
  type: string;
  orderby: number;
}

export class QuestionsResultDto {
  created: number;
  updated: number;
  quiz_revisionid: number;
  @ApiProperty({ type: [QuestionDto] })
  questions: QuestionDto[];
}

export class AssociationDto {
  quizid: number;
  quiz_title: string;
  @ApiProperty({ enum: ['GUIDE', 'WIKI'] })
  doctype: string;
  docid: number;
}

export class CourseAssignmentDto {
  course_wikiid: number;
  course_title: string;
  course_stageid: number;
  /** The stage's passing score, or the quiz default when the stage sets none. */
  passing_score: number;
}

export class PassingScoreDto {
  passing_score: number;
  @ApiProperty({ enum: ['course_stage', 'quiz_default'] })
  source: string;
}

/** Session (docs/enterprise/quizzes.md). */
export class SessionDto {
  sessionid: number;
  quizid: number;
  quiz_revisionid: number;
  userid: number;
  @ApiProperty({ type: 'integer', nullable: true })
  course_stageid: number | null;
  @ApiProperty({ type: 'string', enum: ['GUIDE', 'WIKI'], nullable: true })
  doctype: string | null;
  @ApiProperty({ type: 'integer', nullable: true })
  docid: number | null;
  @ApiProperty({ enum: SESSION_STATUSES })
  status: string;
  /** `{external_question_uid: value}` */
  @ApiProperty({ type: 'object', additionalProperties: true })
  answers: Record<string, unknown>;
  /** 0-100 once submitted. */
  @ApiProperty({ type: 'integer', nullable: true })
  score: number | null;
  @ApiProperty({ type: 'boolean', nullable: true })
  passed: boolean | null;
  passing_score: number;
  /** The guide release trained on (in force at the attempt). */
  @ApiProperty({ type: 'integer', nullable: true })
  guide_releaseid: number | null;
  started_date: number;
  @ApiProperty({ type: 'integer', nullable: true })
  saved_date: number | null;
  @ApiProperty({ type: 'integer', nullable: true })
  submitted_date: number | null;
}

/** Session plus the pinned revision's survey without any correctAnswer. */
export class AttemptSessionDto extends SessionDto {
  @ApiProperty({ type: 'object', additionalProperties: true })
  survey: Record<string, unknown>;
}

export class QuestionResultDto {
  external_question_uid: string;
  correct: boolean;
}

export class SubmitResultDto {
  session: SessionDto;
  score: number;
  passed: boolean;
  passing_score: number;
  @ApiProperty({ type: [QuestionResultDto] })
  results: QuestionResultDto[];
}

export class SubmissionDto {
  submissionid: number;
  sessionid: number;
  questionid: number;
  external_question_uid: string;
  @ApiProperty({ description: 'The answer as given (null when unanswered)', nullable: true })
  answer: unknown;
  is_correct: boolean;
  points: number;
}

export class BulkCancelResultDto {
  cancelled: number[];
  skipped: number[];
}

export class InvalidateResultDto {
  invalidated: number;
}
