import { HttpStatus, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ApiException, InsufficientPrivilegesException, notFound } from '../../common/http/api-errors';
import { DocumentRegistry, type AccessSql, type DocType } from '../../platform/documents/document-registry';
import { PolicyService } from '../access/policy.service';
import type { QuizEntity } from './entities/quiz.entity';

/**
 * Who may see and change a quiz. Its primary guide decides, whatever the quiz row says: those who may read the
 * guide see the quiz, those who may edit it (its author, granted users and teams, Moderator+) change the quiz and
 * see its correct answers; anyone else gets the 404 an unreadable guide gives. A quiz without a guide is read (by id:
 * lists leave it out) by every Author and changed by its creator or a Moderator+.
 */
@Injectable()
export class QuizAccess {
  constructor(
    private readonly documents: DocumentRegistry,
    private readonly policy: PolicyService,
  ) {}

  /** Whether the caller may edit the quiz; 404 (`notFoundAs`) when they may not even see it. */
  async requireReadable(caller: AuthenticatedUser, quiz: QuizEntity, notFoundAs = 'Quiz'): Promise<boolean> {
    return (await this.requireAllReadable(caller, [quiz], notFoundAs))[0];
  }

  /** requireReadable for many quizzes (two queries whatever their number): 404 when any is not visible. */
  async requireAllReadable(caller: AuthenticatedUser, quizzes: QuizEntity[], notFoundAs = 'Quiz'): Promise<boolean[]> {
    const guideids = [...new Set(quizzes.flatMap((quiz) => (quiz.guideid === null ? [] : [quiz.guideid])))];
    const guides = this.documents.of('GUIDE');
    const [readable, editable] = guideids.length
      ? await Promise.all([guides.readable(caller, guideids), guides.editable(caller, guideids)])
      : [new Set<number>(), new Set<number>()];
    return quizzes.map((quiz) => {
      if (quiz.guideid === null) return quiz.createdBy === caller.userid || this.policy.canModerate(caller);
      if (!readable.has(quiz.guideid)) throw notFound(notFoundAs);
      return editable.has(quiz.guideid);
    });
  }

  /** 404 as requireReadable, then 403 unless the caller may edit the quiz. */
  async requireEditable(caller: AuthenticatedUser, quiz: QuizEntity): Promise<void> {
    if (await this.requireReadable(caller, quiz)) return;
    if (quiz.guideid === null) {
      throw new InsufficientPrivilegesException(
        ['Admin', 'Moderator'],
        'Only the creator or a Moderator may change a quiz without a guide',
      );
    }
    throw new ApiException(HttpStatus.FORBIDDEN, 'Only editors of the quiz’s guide may change it');
  }

  /**
   * Attaching quizzes to a guide or wiki (whose editor the caller is): each quiz must be visible (404), and a quiz
   * without a guide that gets this guide as its primary guide changes hands, so that is for its editors (403).
   */
  async requireAttachable(caller: AuthenticatedUser, quizzes: QuizEntity[], doctype: DocType): Promise<void> {
    const editor = await this.requireAllReadable(caller, quizzes);
    if (doctype === 'GUIDE' && quizzes.some((quiz, i) => quiz.guideid === null && !editor[i])) {
      throw new InsufficientPrivilegesException(
        ['Admin', 'Moderator'],
        'Only the creator or a Moderator may give a quiz without a guide its guide',
      );
    }
  }

  /** For lists in SQL: the quizzes (their primary guide in `guideColumn`) the caller may see, as GET /quizzes. */
  listSql(caller: AuthenticatedUser, guideColumn: string): AccessSql {
    return this.documents.of('GUIDE').accessSql(caller, guideColumn);
  }
}
