import type {
  AssociationDto,
  AttemptSessionDto,
  QuestionDto,
  QuizDetailDto,
  QuizDto,
  SessionDto,
  SubmissionDto,
} from './dto/quiz-response.dto';
import type { QuizAssociationEntity } from './entities/quiz-association.entity';
import type { QuizQuestionEntity } from './entities/quiz-question.entity';
import type { QuizRevisionEntity } from './entities/quiz-revision.entity';
import type { QuizEntity } from './entities/quiz.entity';
import type { QuizSessionEntity } from './entities/quiz-session.entity';
import type { QuizSubmissionEntity } from './entities/quiz-submission.entity';
import { withoutCorrectAnswers } from './quiz-survey';

/** Pure functions: entities → response bodies (docs/enterprise/quizzes.md shapes). */

export function toQuiz(quiz: QuizEntity): QuizDto {
  return {
    quizid: quiz.quizid,
    title: quiz.title,
    category: quiz.category,
    status: quiz.status,
    guideid: quiz.guideid,
    default_passing_score: quiz.defaultPassingScore,
    quiz_revisionid: quiz.quizRevisionid,
    version: quiz.version,
    released_date: quiz.releasedDate,
    created_by: quiz.createdBy,
    created_date: quiz.createdDate,
    modified_date: quiz.modifiedDate,
  };
}

/** The quiz with a revision's survey (its own version and release date when it is not the current one). */
export function toQuizDetail(quiz: QuizEntity, revision: QuizRevisionEntity): QuizDetailDto {
  return {
    ...toQuiz(quiz),
    quiz_revisionid: revision.quizRevisionid,
    version: revision.version,
    released_date: revision.releasedDate,
    survey: revision.survey,
  };
}

export function toQuestion(question: QuizQuestionEntity): QuestionDto {
  return {
    questionid: question.questionid,
    quizid: question.quizid,
    external_question_uid: question.externalQuestionUid,
    title: question.title,
    type: question.type,
    orderby: question.orderby,
  };
}

export function toAssociation(association: QuizAssociationEntity, quizTitle: string): AssociationDto {
  return {
    quizid: association.quizid,
    quiz_title: quizTitle,
    doctype: association.doctype,
    docid: association.docid,
  };
}

export function toSession(session: QuizSessionEntity): SessionDto {
  return {
    sessionid: session.sessionid,
    quizid: session.quizid,
    quiz_revisionid: session.quizRevisionid,
    userid: session.userid,
    course_stageid: session.courseStageid,
    doctype: session.doctype,
    docid: session.docid,
    status: session.status,
    answers: session.answers,
    score: session.score,
    passed: session.passed === null ? null : Boolean(session.passed),
    passing_score: session.passingScore,
    guide_releaseid: session.guideReleaseid,
    started_date: session.startedDate,
    saved_date: session.savedDate,
    submitted_date: session.submittedDate,
  };
}

/** What a quiz taker sees: the session and the pinned survey without any correctAnswer. */
export function toAttemptSession(session: QuizSessionEntity, revision: QuizRevisionEntity): AttemptSessionDto {
  return { ...toSession(session), survey: withoutCorrectAnswers(revision.survey) as Record<string, unknown> };
}

export function toSubmission(submission: QuizSubmissionEntity): SubmissionDto {
  return {
    submissionid: submission.submissionid,
    sessionid: submission.sessionid,
    questionid: submission.questionid,
    external_question_uid: submission.externalQuestionUid,
    answer: submission.answer ?? null,
    is_correct: Boolean(submission.isCorrect),
    points: submission.points,
  };
}
