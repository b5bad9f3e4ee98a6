import { HttpStatus, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import {
  ApiException,
  InsufficientPrivilegesException,
  notFound,
  RevisionConflictException,
  ValidationFailedException,
} from '../../common/http/api-errors';
import { isUniqueViolation } from '../../database/errors';
import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../platform/clock/clock';
import { DocumentRegistry, type DocType } from '../../platform/documents/document-registry';
import { ReleaseDirectory } from '../../platform/documents/release-directory';
import { PolicyService } from '../access/policy.service';
import { CoursesService } from '../courses/courses.service';
import { UsersService } from '../users/users.service';
import type { AttemptDto } from './dto/quiz-body.dto';
import type { SessionListQueryDto } from './dto/quiz-query.dto';
import type {
  AttemptSessionDto,
  BulkCancelResultDto,
  SessionDto,
  SubmissionDto,
  SubmitResultDto,
} from './dto/quiz-response.dto';
import type { QuizSessionEntity } from './entities/quiz-session.entity';
import { grade } from './quiz-grading';
import { toAttemptSession, toSession, toSubmission } from './quiz.mapper';
import { QuizFailed, QuizPassed, QuizSessionSubmitted } from './quiz.events';
import { transition, type SessionAction, type SessionMove, type SessionStatus } from './quiz-session.state-machine';
import { QuizSessionsRepository } from './quiz-sessions.repository';
import { surveyQuestions, type SurveyJson } from './quiz-survey';
import { QuizzesRepository } from './quizzes.repository';
import { QuizzesService } from './quizzes.service';

/** Quiz sessions (Q11, Q17-Q23: docs/enterprise/quizzes.md): attempt, save, submit, cancel, invalidate, read. */
@Injectable()
export class QuizSessionsService {
  constructor(
    private readonly sessions: QuizSessionsRepository,
    private readonly quizzes: QuizzesRepository,
    private readonly definitions: QuizzesService,
    private readonly courses: CoursesService,
    private readonly documents: DocumentRegistry,
    private readonly releases: ReleaseDirectory,
    private readonly users: UsersService,
    private readonly policy: PolicyService,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  private async attemptBody(session: QuizSessionEntity): Promise<AttemptSessionDto> {
    const revision = await this.quizzes.findRevision(session.quizRevisionid);
    return toAttemptSession(session, revision!);
  }

  /**
   * Q11: one open session per (user, quiz, course stage): the existing one (created false) or a new one
   * pinning the current revision, the passing score and the guide release in force.
   */
  async attempt(
    body: AttemptDto,
    caller: AuthenticatedUser,
  ): Promise<{ created: boolean; session: AttemptSessionDto }> {
    if (body.guideid !== undefined && body.wikiid !== undefined) {
      throw new ValidationFailedException([{ message: 'Give at most one of guideid and wikiid', field: 'wikiid' }]);
    }
    const quiz = await this.definitions.require(body.quizid);
    const context: { doctype: DocType; docid: number } | null =
      body.guideid !== undefined
        ? { doctype: 'GUIDE', docid: body.guideid }
        : body.wikiid !== undefined
          ? { doctype: 'WIKI', docid: body.wikiid }
          : null;
    const document = context ? await this.documents.requireReadable(caller, context.doctype, context.docid) : null;
    const stage = body.course_stageid !== undefined ? await this.courses.stage(body.course_stageid) : null;
    if (body.course_stageid !== undefined && !stage) throw notFound('Course stage');
    this.definitions.assertEnabled(quiz);
    const stageKey = stage?.courseStageid ?? 0;
    const open = await this.sessions.findOpen(caller.userid, quiz.quizid, stageKey);
    if (open) return { created: false, session: await this.attemptBody(open) };

    const trainedGuide = context?.doctype === 'GUIDE' ? context.docid : quiz.guideid;
    const release = trainedGuide
      ? await this.releases.liveOne('GUIDE', trainedGuide, context?.doctype === 'GUIDE' ? document!.langid : undefined)
      : null;
    const passingScore =
      stage && stage.quizid === quiz.quizid && stage.passingScore !== null
        ? stage.passingScore
        : quiz.defaultPassingScore;
    const now = this.clock.nowSeconds();
    try {
      return await this.transactions.run(async () => {
        const values: Omit<QuizSessionEntity, 'sessionid'> = {
          quizid: quiz.quizid,
          quizRevisionid: quiz.quizRevisionid,
          userid: caller.userid,
          courseStageid: stage?.courseStageid ?? null,
          stageKey,
          openSlot: 1,
          doctype: context?.doctype ?? null,
          docid: context?.docid ?? null,
          status: 'in_progress',
          answers: {},
          score: null,
          passed: null,
          passingScore,
          guideReleaseid: release?.releaseid ?? null,
          startedDate: now,
          savedDate: null,
          submittedDate: null,
          invalidatedBy: null,
          invalidatedDate: null,
          invalidatedReason: null,
        };
        const sessionid = await this.sessions.insert(values);
        const session = { sessionid, ...values };
        await this.audit.record({
          action: 'quiz_session.attempt',
          entity: ['quiz_session', sessionid],
          after: toSession(session),
        });
        return { created: true, session: await this.attemptBody(session) };
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // A concurrent attempt opened it first: answer that one.
      const winner = await this.sessions.findOpen(caller.userid, quiz.quizid, stageKey);
      if (!winner) throw error;
      return { created: false, session: await this.attemptBody(winner) };
    }
  }

  /** The session for its owner or a Moderator+; 404 for anyone else. */
  private async visible(sessionid: number, caller: AuthenticatedUser): Promise<QuizSessionEntity> {
    const session = await this.sessions.find(sessionid);
    return this.assertVisible(session, caller);
  }

  private assertVisible(session: QuizSessionEntity | null | undefined, caller: AuthenticatedUser): QuizSessionEntity {
    if (!session || (session.userid !== caller.userid && !this.policy.canModerate(caller))) throw notFound('Session');
    return session;
  }

  /** Check order: 404 (not visible) → 403 (guard) → 409 (move not in the table). */
  private async loadFor(sessionid: number, action: SessionAction, caller: AuthenticatedUser) {
    return this.check(await this.visible(sessionid, caller), action, caller);
  }

  /** As loadFor, with the pinned revision's survey read in the same statement (save, submit). */
  private async loadWithSurvey(sessionid: number, action: SessionAction, caller: AuthenticatedUser) {
    const found = await this.sessions.findWithSurvey(sessionid);
    return { ...this.check(this.assertVisible(found?.session, caller), action, caller), survey: found!.survey };
  }

  private check(session: QuizSessionEntity, action: SessionAction, caller: AuthenticatedUser) {
    const move = transition(session.status as SessionStatus, action);
    const guard = move?.guard ?? transition('in_progress', action)?.guard;
    if (guard === 'owner' && session.userid !== caller.userid) {
      throw new ApiException(HttpStatus.FORBIDDEN, 'Only the owner of this session may do this');
    }
    if (!move) throw new RevisionConflictException(toSession(session));
    return { session, move };
  }

  /** Answers merged into the saved ones; a key that is not a question of the pinned revision is a 422. */
  private merge(session: QuizSessionEntity, survey: SurveyJson, answers: Record<string, unknown> | undefined) {
    const questions = surveyQuestions(survey);
    if (answers) {
      const names = new Set(questions.map((q) => q.name));
      const unknown = Object.keys(answers).filter((key) => !names.has(key));
      if (unknown.length) {
        throw new ValidationFailedException(
          unknown.map((key) => ({ message: `${key} is not a question of this quiz`, field: `answers.${key}` })),
        );
      }
    }
    return { questions, merged: { ...session.answers, ...(answers ?? {}) } };
  }

  /** Q17 */
  async save(sessionid: number, answers: Record<string, unknown>, caller: AuthenticatedUser): Promise<SessionDto> {
    const { session, move, survey } = await this.loadWithSurvey(sessionid, 'save', caller);
    const { merged } = this.merge(session, survey, answers);
    const changes = { answers: merged, savedDate: this.clock.nowSeconds() };
    return this.transactions.run(async () => {
      if (!(await this.sessions.update(session.sessionid, move.from, changes))) {
        throw await this.conflict(session.sessionid);
      }
      return toSession({ ...session, ...changes });
    });
  }

  /** Q18: grades against the pinned revision, writes Submissions, publishes the outcome. */
  async submit(sessionid: number, answers: Record<string, unknown> | undefined, caller: AuthenticatedUser) {
    const { session, move, survey } = await this.loadWithSurvey(sessionid, 'submit', caller);
    const { questions, merged } = this.merge(session, survey, answers);
    const graded = grade(questions, merged, session.passingScore);
    const now = this.clock.nowSeconds();
    const changes: Partial<QuizSessionEntity> = {
      status: move.to,
      answers: merged,
      score: graded.score,
      passed: graded.passed,
      submittedDate: now,
      savedDate: answers ? now : session.savedDate,
      openSlot: null,
    };
    // Read before the transaction, which then holds only writes: a question keeps its id for its name, and
    // the pinned revision's questions were all recorded when it was created.
    const byName = await this.quizzes.questionIdsByName(session.quizid);
    const submissions = graded.results.map((result) => ({
      sessionid: session.sessionid,
      questionid: byName.get(result.external_question_uid) ?? 0,
      externalQuestionUid: result.external_question_uid,
      answer: result.answer,
      isCorrect: result.correct,
      points: result.points,
    }));
    const body = toSession({ ...session, ...changes });
    return this.transactions.run(async (tx): Promise<SubmitResultDto> => {
      if (!(await this.sessions.update(session.sessionid, move.from, changes))) {
        throw await this.conflict(session.sessionid);
      }
      await this.sessions.insertSubmissions(submissions);
      await this.quizzes.countSubmitted(session.quizid);
      await this.audit.record({
        action: 'quiz_session.submit',
        entity: ['quiz_session', session.sessionid],
        before: { status: session.status },
        after: { status: body.status, score: body.score, passed: body.passed, passing_score: body.passing_score },
      });
      tx.publish(QuizSessionSubmitted(body));
      tx.publish(graded.passed ? QuizPassed(body) : QuizFailed(body));
      return {
        session: body,
        score: graded.score,
        passed: graded.passed,
        passing_score: session.passingScore,
        results: graded.results.map((r) => ({ external_question_uid: r.external_question_uid, correct: r.correct })),
      };
    });
  }

  private async conflict(sessionid: number): Promise<RevisionConflictException> {
    return new RevisionConflictException(toSession((await this.sessions.find(sessionid))!));
  }

  /** Q19: the owner or a Moderator+. */
  async cancel(sessionid: number, caller: AuthenticatedUser): Promise<SessionDto> {
    const { session, move } = await this.loadFor(sessionid, 'cancel', caller);
    return this.transactions.run(async () => {
      const body = await this.move(session, move, {});
      if (!body) throw await this.conflict(session.sessionid);
      return body;
    });
  }

  /** One conditional move with its audit row; null when the session was not in `move.from` any more. */
  private async move(
    session: QuizSessionEntity,
    move: SessionMove,
    extra: Partial<QuizSessionEntity>,
    reason?: string,
  ): Promise<SessionDto | null> {
    const changes: Partial<QuizSessionEntity> = { status: move.to, ...extra };
    if (move.effects.includes('close_slot')) changes.openSlot = null;
    if (!(await this.sessions.update(session.sessionid, move.from, changes))) return null;
    const body = toSession({ ...session, ...changes });
    await this.audit.record({
      action: `quiz_session.${move.action === 'userInvalidateAll' ? 'invalidate' : move.action === 'bulkCancel' ? 'cancel' : move.action}`,
      entity: ['quiz_session', session.sessionid],
      before: { status: session.status },
      after: { status: move.to },
      reason: reason ?? null,
    });
    return body;
  }

  /** Q20 (Moderator+): sessions that are not in_progress, or unknown, are skipped. */
  async bulkCancel(sessionids: number[]): Promise<BulkCancelResultDto> {
    const ids = [...new Set(sessionids)];
    return this.transactions.run(async () => {
      const found = new Map((await this.sessions.findMany(ids)).map((s) => [s.sessionid, s]));
      const cancelled: number[] = [];
      for (const id of ids) {
        const session = found.get(id);
        const move = session && transition(session.status as SessionStatus, 'bulkCancel');
        if (session && move && (await this.move(session, move, {}))) cancelled.push(id);
      }
      return { cancelled, skipped: ids.filter((id) => !cancelled.includes(id)) };
    });
  }

  /** Q23 (Moderator+): every in_progress and submitted session of the user; records who, when and why. */
  async invalidateAll(
    userid: number,
    reason: string | undefined,
    caller: AuthenticatedUser,
  ): Promise<{ invalidated: number }> {
    await this.users.findEntity(userid);
    const now = this.clock.nowSeconds();
    return this.transactions.run(async () => {
      const sessions = await this.sessions.ofUser(userid, ['in_progress', 'submitted']);
      let invalidated = 0;
      for (const session of sessions) {
        const move = transition(session.status as SessionStatus, 'userInvalidateAll')!;
        const extra = { invalidatedBy: caller.userid, invalidatedDate: now, invalidatedReason: reason ?? null };
        if (await this.move(session, move, extra, reason)) invalidated += 1;
      }
      return { invalidated };
    });
  }

  /** Q21: owner or Moderator+. */
  async submissions(sessionid: number, caller: AuthenticatedUser): Promise<SubmissionDto[]> {
    const session = await this.visible(sessionid, caller);
    return (await this.sessions.submissions(session.sessionid)).map(toSubmission);
  }

  /** Q22: your sessions; another user's need Moderator+. */
  async list(query: SessionListQueryDto, caller: AuthenticatedUser): Promise<SessionDto[]> {
    const userid = query.userid ?? caller.userid;
    if (userid !== caller.userid && !this.policy.canModerate(caller)) {
      throw new InsufficientPrivilegesException(
        ['Admin', 'Moderator'],
        "Only a Moderator may list another user's sessions",
      );
    }
    const rows = await this.sessions.page({
      userid,
      quizid: query.quizid,
      status: query.status,
      offset: query.offset,
      limit: query.limit,
      order: query.order,
    });
    return rows.map(toSession);
  }
}
