import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { notFound } from '../../common/http/api-errors';
import { PolicyService, type GuideAccessFacts } from '../access/policy.service';
import { CommentsService } from '../comments/comments.service';
import type { UserLightDto } from '../users/dto/user-response.dto';
import { UsersService } from '../users/users.service';
import type { GuideDetailDto, GuideSummaryDto, StepDto } from './dto/guide-response.dto';
import {
  GuideDocumentsService,
  translateStep,
  type GuideSummaryDocument,
  type TranslationDocument,
} from './guide-documents.service';
import { GuidesRepository, type GuideRow } from './guides.repository';

export interface DetailOptions {
  unpatrolled?: boolean;
  langid?: string;
  excludePrerequisiteSteps?: boolean;
}

export const accessFacts = (row: Pick<GuideRow, 'guide' | 'grantedUserIds' | 'grantedTeamIds'>): GuideAccessFacts => ({
  authorid: row.guide.authorid,
  public: row.guide.public,
  grantedUserIds: row.grantedUserIds,
  grantedTeamIds: row.grantedTeamIds,
});

/** Guide detail and summaries, from the stored revision documents plus the caller-specific fields. */
@Injectable()
export class GuideReaderService {
  constructor(
    private readonly guides: GuidesRepository,
    private readonly documents: GuideDocumentsService,
    private readonly policy: PolicyService,
    private readonly users: UsersService,
    private readonly comments: CommentsService,
  ) {}

  /** 404 unless the guide exists, is not deleted and the caller may read it. */
  async assertReadable(caller: AuthenticatedUser | undefined, guideid: number): Promise<GuideRow> {
    const [row] = await this.guides.summaryRows([guideid], 'none');
    if (!row || row.guide.deleted || !(await this.policy.canReadGuide(caller, accessFacts(row))))
      throw notFound('Guide');
    return row;
  }

  /** Of these guide ids, the ones the caller may read. */
  async readableIds(caller: AuthenticatedUser | undefined, guideids: number[]): Promise<Set<number>> {
    const rows = await this.guides.summaryRows([...new Set(guideids)], 'none');
    return new Set((await this.readableRows(caller, rows)).map((row) => row.guide.guideid));
  }

  private async readableRows(caller: AuthenticatedUser | undefined, rows: GuideRow[]): Promise<GuideRow[]> {
    const allowed = await Promise.all(
      rows.map(async (row) => !row.guide.deleted && (await this.policy.canReadGuide(caller, accessFacts(row)))),
    );
    return rows.filter((_row, i) => allowed[i]);
  }

  async detail(
    guideid: number,
    caller: AuthenticatedUser | undefined,
    options: DetailOptions = {},
    tx?: EntityManager,
  ): Promise<GuideDetailDto> {
    const row = await this.guides.detailRow(
      guideid,
      { unpatrolled: !!options.unpatrolled, langid: options.langid, userid: caller?.userid },
      tx,
    );
    if (!row || row.guide.deleted) throw notFound('Guide');
    const facts = accessFacts(row);
    if (!(await this.policy.canReadGuide(caller, facts))) throw notFound('Guide');
    const useTranslation = row.translation && options.langid && options.langid !== row.guide.langid;
    const [document, translation] = await Promise.all([
      this.documents.source(guideid, row.revision, tx),
      useTranslation && row.translation ? this.documents.translation(row.translation, tx) : undefined,
    ]);
    const prerequisiteRows = await this.readableRows(
      caller,
      await this.guides.summaryRows(
        document.prerequisiteids,
        options.excludePrerequisiteSteps ? 'summary' : 'full',
        tx,
      ),
    );
    const byId = new Map(prerequisiteRows.map((r) => [r.guide.guideid, r]));
    const prerequisites = document.prerequisiteids
      .map((id) => byId.get(id))
      .filter((r): r is GuideRow => r !== undefined);
    // Inlined steps need whole documents; otherwise the summaries suffice (a document is one as well).
    const prerequisiteSources = options.excludePrerequisiteSteps
      ? []
      : await Promise.all(prerequisites.map((r) => this.documents.source(r.guide.guideid, r.revision, tx)));
    const prerequisiteDocs: GuideSummaryDocument[] = options.excludePrerequisiteSteps
      ? await Promise.all(prerequisites.map((r) => this.documents.summaryOf(r.guide.guideid, r.revision, tx)))
      : prerequisiteSources;
    const inlined = prerequisiteSources.flatMap((d) => d.steps);
    const { steps: translatedSteps, ...translatedText } = translation ?? {};
    const ownSteps = translatedSteps
      ? document.steps.map((step) => translateStep(step, translatedSteps[step.stepid]))
      : document.steps;
    const steps = [...inlined, ...ownSteps];
    const [{ comments, users: authors }, canEdit] = await Promise.all([
      this.comments.commentsForMany(
        [
          { context: 'guide', contextids: [guideid] },
          { context: 'step', contextids: steps.map((s) => s.stepid) },
        ],
        [row.guide.authorid],
      ),
      this.policy.canEditGuide(caller, facts),
    ]);
    const shownRevision = useTranslation && row.translation ? row.translation : row.revision;
    const stepDtos: StepDto[] = steps.map((step) => {
      const stepComments = comments.get(`step:${step.stepid}`) ?? [];
      return { ...step, comments: stepComments, comment_count: stepComments.length };
    });
    const { prerequisiteids: _ids, steps: _steps, ...fields } = document;
    return {
      dataType: 'guide',
      ...fields,
      ...translatedText,
      locale: shownRevision.langid,
      revisionid: shownRevision.revisionid,
      head_revisionid: useTranslation ? shownRevision.revisionid : row.guide.headRevisionid,
      modified_date: shownRevision.date,
      prereq_modified_date: prerequisites.reduce((max, r) => Math.max(max, r.guide.modifiedDate), 0),
      userid: row.guide.authorid,
      username: row.username,
      prerequisites: prerequisites.map((r, i) => this.toSummary(r, prerequisiteDocs[i], 0)),
      steps: stepDtos,
      comments: comments.get(`guide:${guideid}`) ?? [],
      author: authors.get(row.guide.authorid) as UserLightDto,
      langid: row.guide.langid,
      available_langids: [row.guide.langid, ...row.translatedLangids.sort()],
      created_date: row.guide.createdDate,
      published_date: row.guide.publishedDate,
      patrolled: shownRevision.patrolled,
      can_edit: canEdit,
      favorited: row.favorited,
      completed: row.completed,
    };
  }

  toSummary(
    row: GuideRow,
    document: GuideSummaryDocument,
    prereqModified: number,
    translation?: TranslationDocument,
  ): GuideSummaryDto {
    return {
      dataType: 'guide',
      guideid: row.guide.guideid,
      locale: row.revision.langid,
      revisionid: row.revision.revisionid,
      modified_date: row.revision.date,
      prereq_modified_date: prereqModified,
      url: document.url,
      type: document.type,
      category: document.category,
      subject: document.subject,
      title: translation?.title ?? document.title,
      summary: translation?.summary ?? document.summary,
      difficulty: document.difficulty,
      time_required_max: document.time_required_max,
      public: document.public,
      userid: row.guide.authorid,
      username: row.username,
      flags: document.flags,
      image: document.image,
    };
  }

  /** Summaries of rows, in their order, with prereq_modified_date (one query for all prerequisites). */
  async summaries(rows: GuideRow[]): Promise<GuideSummaryDto[]> {
    const documents = await Promise.all(rows.map((row) => this.documents.summaryOf(row.guide.guideid, row.revision)));
    const prereqIds = [...new Set(documents.flatMap((d) => d.prerequisiteids))];
    const dates = await this.guides.modifiedDates(prereqIds);
    return rows.map((row, i) =>
      this.toSummary(
        row,
        documents[i],
        documents[i].prerequisiteids.reduce((max, id) => Math.max(max, dates.get(id) ?? 0), 0),
      ),
    );
  }

  /** Summaries of the given guides the caller may read, in the given order. */
  async summariesOf(caller: AuthenticatedUser | undefined, guideids: number[]): Promise<GuideSummaryDto[]> {
    const rows = await this.readableRows(caller, await this.guides.summaryRows(guideids, 'summary'));
    const byId = new Map(rows.map((row) => [row.guide.guideid, row]));
    return this.summaries(guideids.map((id) => byId.get(id)).filter((row): row is GuideRow => row !== undefined));
  }
}
