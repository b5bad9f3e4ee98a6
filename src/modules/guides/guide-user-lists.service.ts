import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { notFound } from '../../common/http/api-errors';
import { nowSeconds } from '../../database/columns';
import { TransactionService } from '../../database/transaction.service';
import { TagsService } from '../tags/tags.service';
import { UsersService } from '../users/users.service';
import type { GuideSummaryDto } from './dto/guide-response.dto';
import { GuideEditorService } from './guide-editor.service';
import { GuideCompleted } from './guide.events';
import { GuideReaderService } from './guide-reader.service';
import { GuideMarksRepository } from './guide-marks.repository';
import { GuideRevisionsRepository } from './guide-revisions.repository';

/** Lists per user (contributions, completions, favorites) and the marks themselves. */
@Injectable()
export class GuideUserListsService {
  constructor(
    private readonly marks: GuideMarksRepository,
    private readonly revisions: GuideRevisionsRepository,
    private readonly reader: GuideReaderService,
    private readonly editor: GuideEditorService,
    private readonly users: UsersService,
    private readonly tags: TagsService,
    private readonly transactions: TransactionService,
  ) {}

  async contributions(
    userid: number,
    page: { order: 'ASC' | 'DESC'; offset: number; limit: number },
    caller: AuthenticatedUser | undefined,
    checkUser: boolean,
  ): Promise<GuideSummaryDto[]> {
    if (checkUser) await this.users.findEntity(userid);
    const ids = await this.marks.contributedGuideIds(userid, page.order, page.offset, page.limit);
    return this.reader.summariesOf(caller, ids);
  }

  async marked(
    kind: 'completion' | 'favorite',
    userid: number,
    page: { offset: number; limit: number },
    caller: AuthenticatedUser | undefined,
    checkUser: boolean,
  ): Promise<GuideSummaryDto[]> {
    if (checkUser) await this.users.findEntity(userid);
    const ids = await this.marks.markedGuideIds(kind, userid, page.offset, page.limit);
    return this.reader.summariesOf(caller, ids);
  }

  /** Marks a readable guide completed or favorited (once per user, whatever the language). */
  async mark(
    kind: 'completion' | 'favorite',
    guideid: number,
    langid: string | undefined,
    caller: AuthenticatedUser,
  ): Promise<void> {
    const row = await this.reader.assertReadable(caller, guideid);
    const language = langid ?? row.guide.langid;
    if (language !== row.guide.langid && !(await this.revisions.findTranslation(guideid, language))) {
      throw notFound('Guide language');
    }
    await this.transactions.run(async (tx) => {
      const added = await this.marks.mark(kind, {
        guideid,
        userid: caller.userid,
        langid: language,
        date: nowSeconds(),
      });
      if (added && kind === 'completion') {
        tx.publish(GuideCompleted({ guideid, userid: caller.userid, authorid: row.guide.authorid }));
      }
    });
  }

  async unmark(kind: 'completion' | 'favorite', guideid: number, caller: AuthenticatedUser): Promise<void> {
    await this.reader.assertReadable(caller, guideid);
    await this.marks.unmark(kind, guideid, caller.userid);
  }
}
