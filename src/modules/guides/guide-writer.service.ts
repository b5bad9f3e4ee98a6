import { JsonText } from '../../common/http/json-text';
import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { InsufficientPrivilegesException, notFound, unprocessable } from '../../common/http/api-errors';
import { nowSeconds } from '../../database/columns';
import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { PolicyService } from '../access/policy.service';
import { UsersService } from '../users/users.service';
import type { CreateGuideDto, UpdateGuideDto } from './dto/guide-body.dto';
import type { GuideDetailDto } from './dto/guide-response.dto';
import { GuideEditorService } from './guide-editor.service';
import { GuideFieldsService } from './guide-fields.service';
import { GuideReaderService } from './guide-reader.service';
import { GuideTranslationsService } from './guide-translations.service';
import { GuidesRepository } from './guides.repository';
import { type GuideRow } from './guide-rows';
import { GuideRevisionsRepository } from './guide-revisions.repository';
import { GuideApprovalSlots, type GuideApprovalSlotChange } from './guide-approval-slots';

export const DEFAULT_LANGID = 'en';

/** Guide create, edit (source language and translations), publish, delete and restore. */
@Injectable()
export class GuideWriterService {
  constructor(
    private readonly guides: GuidesRepository,
    private readonly revisions: GuideRevisionsRepository,
    private readonly editor: GuideEditorService,
    private readonly fields: GuideFieldsService,
    private readonly translations: GuideTranslationsService,
    private readonly reader: GuideReaderService,
    private readonly policy: PolicyService,
    private readonly users: UsersService,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly approvalSlots: GuideApprovalSlots,
  ) {}

  /** What writes answer: the newest version, prerequisite steps not inlined. */
  current(guideid: number, caller: AuthenticatedUser, langid?: string): Promise<JsonText<GuideDetailDto>> {
    return this.reader.detail(guideid, caller, { unpatrolled: true, excludePrerequisiteSteps: true, langid });
  }

  /**
   * `author` in a body is Admin-only (docs/api-conventions.md), whatever the value: a grantee naming themselves would
   * otherwise take the guide over. Checked before any write.
   */
  private async authorFor(requested: number | undefined, caller: AuthenticatedUser): Promise<number | undefined> {
    if (requested === undefined) return undefined;
    if (!this.policy.isAdmin(caller)) {
      throw new InsufficientPrivilegesException(['Admin'], 'Only an Admin may set the author');
    }
    await this.users.findEntity(requested).catch(() => {
      throw unprocessable(`User ${requested} does not exist`, 'author');
    });
    return requested;
  }

  /**
   * The approval fields (docs/enterprise/approvals.md) are Admin-only whatever the value, checked before any write;
   * they change no content, so they make no revision.
   */
  private approvalSlotsFor(body: UpdateGuideDto, caller: AuthenticatedUser): GuideApprovalSlotChange | undefined {
    const { approval_processid, major_release_approval_processid } = body;
    delete body.approval_processid;
    delete body.major_release_approval_processid;
    if (approval_processid === undefined && major_release_approval_processid === undefined) return undefined;
    if (!this.policy.isAdmin(caller)) {
      throw new InsufficientPrivilegesException(['Admin'], 'Only an Admin may set approval processes');
    }
    return { approval_processid, major_release_approval_processid };
  }

  async create(body: CreateGuideDto, caller: AuthenticatedUser): Promise<JsonText<GuideDetailDto>> {
    if (!this.policy.canCreateGuide(caller)) {
      throw new InsufficientPrivilegesException(['Admin', 'Moderator', 'Author'], 'Creating guides requires Author');
    }
    const authorid = (await this.authorFor(body.author, caller)) ?? caller.userid;
    const saved = await this.transactions.run(async (tx) => {
      const resolved = await this.fields.resolve(body, undefined, { authorid, caller });
      const data = this.fields.applyAutomaticFlags(resolved, undefined);
      const now = nowSeconds();
      const guide = await this.guides.insertGuide({
        authorid,
        langid: body.langid ?? DEFAULT_LANGID,
        category: data.category,
        title: data.title,
        type: data.type,
        public: false,
        deleted: false,
        flags: '',
        revisionid: 0,
        headRevisionid: 0,
        createdDate: now,
        modifiedDate: now,
        publishedDate: 0,
      });
      return this.editor.saveRevision(guide, data, caller, tx);
    });
    const guideid = saved.guide.guideid;
    // The answer shows the guide as this request wrote it; only another author's name needs a read.
    if (authorid !== caller.userid) return this.current(guideid, caller);
    const created: GuideRow = {
      ...saved,
      translation: null,
      grantedUserIds: [],
      grantedTeamIds: [],
      translatedLangids: [],
      username: caller.username,
      favorited: false,
      completed: false,
      releasesToken: null,
    };
    return this.reader.detail(guideid, caller, { unpatrolled: true, excludePrerequisiteSteps: true, created });
  }

  async update(
    guideid: number,
    body: UpdateGuideDto,
    revisionid: number,
    caller: AuthenticatedUser,
  ): Promise<JsonText<GuideDetailDto>> {
    if (body.langid !== undefined) {
      const guide = await this.guides.findGuide(guideid);
      if (guide && body.langid !== guide.langid)
        return this.translations.translateGuide(guide.guideid, body, revisionid, caller);
    }
    const authorid = await this.authorFor(body.author, caller);
    const slots = this.approvalSlotsFor(body, caller);
    const answer = await this.editor.edit(
      guideid,
      caller,
      revisionid,
      async ({ guide, data, tx }) => {
        if (slots) await this.approvalSlots.assign(guideid, slots);
        const next = await this.fields.resolve(body, data, {
          guideid,
          authorid: guide.authorid,
          caller,
        });
        if (authorid !== undefined && authorid !== guide.authorid) {
          await this.guides.updateGuide(guideid, { authorid });
          await this.audit.record({
            action: 'guide.author',
            entity: ['guide', guideid],
            before: { authorid: guide.authorid },
            after: { authorid },
          });
          this.editor.publishChange(tx, guide, { ...guide, authorid });
          guide.authorid = authorid;
        }
        return this.fields.applyAutomaticFlags(next, data.public);
      },
      () => this.current(guideid, caller, undefined),
    );
    return answer ?? this.current(guideid, caller);
  }

  async setPublic(
    guideid: number,
    value: boolean,
    revisionid: number,
    caller: AuthenticatedUser,
  ): Promise<JsonText<GuideDetailDto>> {
    await this.editor.edit(guideid, caller, revisionid, async ({ data }) =>
      this.fields.applyAutomaticFlags({ ...data, public: value }, data.public),
    );
    return this.current(guideid, caller);
  }

  /** Soft delete by the author or a Moderator+. */
  async remove(guideid: number, revisionid: number, caller: AuthenticatedUser): Promise<void> {
    await this.transactions.run(async (tx) => {
      const { guide, facts } = await this.editor.load(guideid, caller);
      if (guide.deleted) throw notFound('Guide');
      if (!this.policy.canDeleteGuide(caller, facts)) {
        throw new InsufficientPrivilegesException(
          ['Admin', 'Moderator'],
          'Only the author or a Moderator may delete this guide',
        );
      }
      if (revisionid !== guide.headRevisionid) throw this.editor.stale(guideid, caller);
      if (!(await this.guides.advanceGuide(guideid, revisionid, { deleted: true }))) {
        throw this.editor.stale(guideid, caller);
      }
      this.editor.publishChange(tx, guide, { ...guide, deleted: true });
      await this.audit.record({
        action: 'guide.delete',
        entity: ['guide', guideid],
        before: { revisionid: guide.revisionid },
      });
    });
  }

  /** Undoes a delete (author or Moderator+). `langid` must be one of the guide's languages. */
  async restore(guideid: number, langid: string, caller: AuthenticatedUser): Promise<JsonText<GuideDetailDto>> {
    await this.transactions.run(async (tx) => {
      const { guide, facts } = await this.editor.load(guideid, caller);
      if (!this.policy.canDeleteGuide(caller, facts)) {
        throw new InsufficientPrivilegesException(
          ['Admin', 'Moderator'],
          'Only the author or a Moderator may restore this guide',
        );
      }
      if (langid !== guide.langid && !(await this.revisions.findTranslation(guideid, langid))) {
        throw notFound('Guide language');
      }
      if (!guide.deleted) return;
      await this.guides.updateGuide(guideid, { deleted: false });
      this.editor.publishChange(tx, guide, { ...guide, deleted: false });
      await this.audit.record({ action: 'guide.restore', entity: ['guide', guideid], after: { langid } });
    });
    return this.current(guideid, caller, langid);
  }
}
