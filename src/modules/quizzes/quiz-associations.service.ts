import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { notFound } from '../../common/http/api-errors';
import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../platform/clock/clock';
import { DocumentRegistry, type DocType } from '../../platform/documents/document-registry';
import { PolicyService } from '../access/policy.service';
import { CoursesService } from '../courses/courses.service';
import { QuizAccess } from './quiz-access.service';
import type { AssociationDto, CourseAssignmentDto, PassingScoreDto } from './dto/quiz-response.dto';
import type { QuizEntity } from './entities/quiz.entity';
import { toAssociation } from './quiz.mapper';
import { QuizzesRepository } from './quizzes.repository';
import { QuizzesService } from './quizzes.service';

/** Quizzes attached to guides and wikis, and course stages (Q9, Q10, Q12-Q16: docs/enterprise/quizzes.md). */
@Injectable()
export class QuizAssociationsService {
  constructor(
    private readonly quizzes: QuizzesRepository,
    private readonly definitions: QuizzesService,
    private readonly courses: CoursesService,
    private readonly documents: DocumentRegistry,
    private readonly policy: PolicyService,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly access: QuizAccess,
  ) {}

  /** Every quiz id names a quiz that is not deleted, else 404. */
  private async requireQuizzes(quizids: number[]): Promise<QuizEntity[]> {
    const found = await this.quizzes.findQuizzes(quizids);
    const ids = [...new Set(quizids)];
    if (ids.some((id) => !found.has(id))) throw notFound('Quiz');
    return ids.map((id) => found.get(id)!);
  }

  /** Q12: the guide's associations (any reader of the guide). */
  async forGuide(guideid: number, caller: AuthenticatedUser): Promise<AssociationDto[]> {
    await this.documents.requireReadable(caller, 'GUIDE', guideid);
    return this.list('GUIDE', guideid);
  }

  private async list(doctype: DocType, docid: number): Promise<AssociationDto[]> {
    const rows = await this.quizzes.associationsOf(doctype, docid);
    return rows.map((row) => toAssociation(row.association, row.title));
  }

  /** Q9: associates quizzes with a guide (a repeat is a no-op); answers the guide's full set. */
  async associate(guideid: number, quizids: number[], caller: AuthenticatedUser): Promise<AssociationDto[]> {
    await this.documents.requireReadable(caller, 'GUIDE', guideid);
    const quizzes = await this.requireQuizzes(quizids);
    await this.documents.requireEditable(caller, 'GUIDE', guideid);
    await this.access.requireAttachable(caller, quizzes, 'GUIDE');
    quizzes.forEach((quiz) => this.definitions.assertEnabled(quiz));
    return this.transactions.run(async () => {
      for (const quiz of quizzes) await this.attach(quiz, 'GUIDE', guideid, caller);
      return this.list('GUIDE', guideid);
    });
  }

  /** Q15, Q16: one quiz to one guide or wiki (an editor of it). */
  async attachOne(quizid: number, doctype: DocType, docid: number, caller: AuthenticatedUser): Promise<AssociationDto> {
    await this.documents.requireReadable(caller, doctype, docid);
    const [quiz] = await this.requireQuizzes([quizid]);
    await this.documents.requireEditable(caller, doctype, docid);
    await this.access.requireAttachable(caller, [quiz], doctype);
    this.definitions.assertEnabled(quiz);
    return this.transactions.run(async () => {
      await this.attach(quiz, doctype, docid, caller);
      return { quizid: quiz.quizid, quiz_title: quiz.title, doctype, docid };
    });
  }

  /** Inserts the association unless it exists; the first guide becomes the primary guide of a quiz without one. */
  private async attach(quiz: QuizEntity, doctype: DocType, docid: number, caller: AuthenticatedUser) {
    if (await this.quizzes.findAssociation(quiz.quizid, doctype, docid)) return;
    const now = this.clock.nowSeconds();
    await this.quizzes.insertAssociation({
      quizid: quiz.quizid,
      doctype,
      docid,
      userid: caller.userid,
      createdDate: now,
    });
    const primary = (await this.quizzes.findQuiz(quiz.quizid))?.guideid ?? null;
    if (doctype === 'GUIDE' && primary === null) {
      await this.quizzes.updateQuiz(quiz.quizid, { guideid: docid, modifiedDate: now });
    }
    await this.audit.record({
      action: 'quiz.associate',
      entity: ['quiz', quiz.quizid],
      after: { doctype, docid, primary_guideid: doctype === 'GUIDE' && primary === null ? docid : primary },
    });
  }

  /** Q10: Moderator+, or an Author who edits the guide. The primary guide moves to the lowest remaining one. */
  async dissociate(guideid: number, quizids: number[], caller: AuthenticatedUser): Promise<void> {
    await this.documents.requireReadable(caller, 'GUIDE', guideid);
    const quizzes = await this.requireQuizzes(quizids);
    if (!this.policy.canModerate(caller)) await this.documents.requireEditable(caller, 'GUIDE', guideid);
    const now = this.clock.nowSeconds();
    await this.transactions.run(async () => {
      for (const quiz of quizzes) {
        if (!(await this.quizzes.deleteAssociations('GUIDE', guideid, [quiz.quizid]))) continue;
        let primary = quiz.guideid;
        if (primary === guideid) {
          primary = await this.quizzes.lowestGuide(quiz.quizid);
          await this.quizzes.updateQuiz(quiz.quizid, { guideid: primary, modifiedDate: now });
        }
        await this.audit.record({
          action: 'quiz.dissociate',
          entity: ['quiz', quiz.quizid],
          before: { doctype: 'GUIDE', docid: guideid },
          after: { primary_guideid: primary },
        });
      }
    });
  }

  /** Q13: course stages that link the quiz (404 for a quiz the caller may not see). */
  async courseAssignments(quizid: number, caller: AuthenticatedUser): Promise<CourseAssignmentDto[]> {
    const quiz = await this.definitions.require(quizid);
    await this.access.requireReadable(caller, quiz);
    const stages = await this.courses.stagesForQuiz(quizid);
    const courses = await this.documents.of('WIKI').find(stages.map((s) => s.courseWikiid));
    return stages.map((stage) => ({
      course_wikiid: stage.courseWikiid,
      course_title: courses.get(stage.courseWikiid)?.title ?? '',
      course_stageid: stage.courseStageid,
      passing_score: stage.passingScore ?? quiz.defaultPassingScore,
    }));
  }

  /** Q14: the stage's score when it links this quiz and sets one, else the quiz default. */
  async passingScore(courseStageid: number, quizid: number): Promise<PassingScoreDto> {
    const stage = await this.courses.stage(courseStageid);
    if (!stage) throw notFound('Course stage');
    const quiz = await this.definitions.require(quizid);
    return stage.quizid === quiz.quizid && stage.passingScore !== null
      ? { passing_score: stage.passingScore, source: 'course_stage' }
      : { passing_score: quiz.defaultPassingScore, source: 'quiz_default' };
  }
}
