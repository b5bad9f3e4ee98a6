import { JsonText } from '../../common/http/json-text';
import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { notFound } from '../../common/http/api-errors';
import { ReleaseDirectory } from '../../platform/documents/release-directory';
import { ResponseCache } from '../../platform/response-cache/response-cache';
import { PolicyService } from '../access/policy.service';
import { CommentsService } from '../comments/comments.service';
import type { UserLightDto } from '../users/dto/user-response.dto';
import { UsersService } from '../users/users.service';
import type { GuideDetailDto, GuideSummaryDto, StepDto } from './dto/guide-response.dto';
import { translateStep } from './guide-document';
import { accessFacts } from './guide-access-facts';
import { GuideDocumentsService } from './guide-documents.service';
import { GuideSummariesService } from './guide-summaries.service';
import { closeStep, piecesTag, type GuideFragments } from './guide-fragments';
import { GuidesRepository } from './guides.repository';
import { GUIDE_STEPS, type GuideRow, type StoredRevision } from './guide-rows';
import { GuideRevisionsRepository } from './guide-revisions.repository';
import type { DetailOptions, DetailParts, SourceView } from './guide-detail-parts';

/**
 * The sources of a guide detail whose rows each belong to one guide: a transaction that locked the guides it
 * writes (GuidesRepository.findGuideForWrite, insertGuide) keeps every other guide's cached detail.
 */
export const GUIDE_DOCUMENT_TABLES = [
  'guides',
  'guide_revisions',
  'guide_steps',
  'guide_step_revisions',
  'guide_translations',
  'guide_user_grants',
  'guide_team_grants',
  'comments',
] as const;

/**
 * The tables anonymous guide details and lists are built from (answer-sources.ts): a write that changes rows
 * of one replaces the token their cached answers are kept under. kept-answers.e2e-spec.ts checks the list
 * against the statements they run.
 */
export const GUIDE_ANSWER_SOURCES = [
  ...GUIDE_DOCUMENT_TABLES,
  'users',
  'teams',
  'team_members',
  'images',
  'documents',
  'releases',
] as const;

/** Guide detail, from the stored revision documents plus the caller-specific fields. */
@Injectable()
export class GuideReaderService {
  constructor(
    private readonly guides: GuidesRepository,
    private readonly revisions: GuideRevisionsRepository,
    private readonly documents: GuideDocumentsService,
    private readonly policy: PolicyService,
    private readonly users: UsersService,
    private readonly comments: CommentsService,
    private readonly releases: ReleaseDirectory,
    private readonly summaries: GuideSummariesService,
    private readonly cache: ResponseCache,
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

  /**
   * A guide's detail for `caller`: written as JSON text from the cut documents of the revisions (guide-fragments.ts),
   * without parsing or serializing them again; translated views, and documents that cannot be cut, are built as the
   * DTO. Either way a route returns it as it is, and a caller that reads fields calls value().
   */
  async detail(
    guideid: number,
    caller: AuthenticatedUser | undefined,
    options: DetailOptions = {},
  ): Promise<JsonText<GuideDetailDto>> {
    const parts = await this.parts(guideid, caller, options);
    const spliceable = (view: SourceView) => 'openSteps' in view && (view as GuideFragments).spliceable;
    if (parts.translation || !spliceable(parts.source) || !parts.inlined.every(spliceable))
      return JsonText.of(this.toDto(parts));
    const { json, etag } = this.toJson(parts);
    return JsonText.ofText(json, etag);
  }

  /** What a detail shows, read and checked, with the revisions' documents as fragments. */
  private async parts(
    guideid: number,
    caller: AuthenticatedUser | undefined,
    options: DetailOptions,
  ): Promise<DetailParts> {
    // Unpatrolled content is for editors (docs/api-conventions.md): anyone else asking for it gets the patrolled
    // revision. The author (and its teams) and whether any comment may be shown come with the guide row: a guide
    // without comments is read in one statement.
    const authorTeamIdsSql = this.users.teamIdsSql('g.authorid');
    const commentsExistSql = this.comments.publicExistSql('guide', 'g.guideid', 'step', GUIDE_STEPS);
    const load = (unpatrolled: boolean) =>
      this.guides.detailRow(guideid, {
        unpatrolled,
        langid: options.langid,
        userid: caller?.userid,
        authorTeamIdsSql,
        commentsExistSql,
      });
    let row = options.created ?? (await load(!!options.unpatrolled && caller !== undefined));
    if (!row || row.guide.deleted) throw notFound('Guide');
    const facts = accessFacts(row);
    if (!(await this.policy.canReadGuide(caller, facts))) throw notFound('Guide');
    const canEdit = await this.policy.canEditGuide(caller, facts);
    if (options.unpatrolled && caller && !canEdit) {
      row = await load(false);
      if (!row) throw notFound('Guide');
    }
    // Once a release is live, readers who are not editors see its revision (docs/enterprise/releases.md).
    if (!canEdit) row = await this.pinToLiveReleases(row, options.langid);
    const useTranslation = row.translation && options.langid && options.langid !== row.guide.langid;
    const view = (id: number, revision: StoredRevision) => this.documents.fragments(id, revision);
    const [source, translation] = await Promise.all([
      view(guideid, row.revision),
      useTranslation && row.translation ? this.documents.translation(row.translation) : undefined,
    ]);
    const { prerequisites, inlined, prerequisiteSummaries } = await this.prerequisitesOf(source, caller, options, view);
    // Inlined steps of prerequisites may have comments the guide's own test does not see.
    const noComments = options.created || (row.mayHaveComments === false && !inlined.length);
    const { comments, users: authors } = await this.comments.commentsForMany(
      noComments
        ? []
        : [
            { context: 'guide', contextids: [guideid] },
            { context: 'step', contextids: [...inlined.flatMap((v) => v.stepids), ...source.stepids] },
          ],
      [row.guide.authorid],
      row.author ? [row.author] : [],
    );
    return {
      guideid,
      row,
      canEdit,
      source,
      translation: useTranslation ? translation : undefined,
      shownRevision: useTranslation && row.translation ? row.translation : row.revision,
      prerequisites,
      prerequisiteSummaries,
      inlined,
      comments,
      author: authors.get(row.guide.authorid) as UserLightDto,
    };
  }

  /**
   * The prerequisites the caller may read, in the guide's order and pinned to their releases; with their documents
   * when their steps are inlined, else their list summaries.
   */
  private async prerequisitesOf(
    source: SourceView,
    caller: AuthenticatedUser | undefined,
    options: DetailOptions,
    view: (id: number, revision: StoredRevision) => Promise<SourceView>,
  ): Promise<Pick<DetailParts, 'prerequisites' | 'inlined' | 'prerequisiteSummaries'>> {
    // Other guides' content and visibility are part of this answer (the response cache keeps it under all guides).
    if (source.prerequisiteids.length) this.cache.showsOtherDocuments();
    const prerequisiteRows = await this.pinPrerequisites(
      await this.readableRows(
        caller,
        await this.guides.summaryRows(
          source.prerequisiteids,
          options.excludePrerequisiteSteps ? 'summary' : 'document',
        ),
      ),
      source.prerequisiteReleases ?? [],
    );
    const byId = new Map(prerequisiteRows.map((r) => [r.guide.guideid, r]));
    const prerequisites = source.prerequisiteids
      .map((id) => byId.get(id))
      .filter((r): r is GuideRow => r !== undefined);
    // Inlined steps need whole documents; otherwise the summaries suffice (a document is one as well).
    const inlined = options.excludePrerequisiteSteps
      ? []
      : await Promise.all(prerequisites.map((r) => view(r.guide.guideid, r.revision)));
    const prerequisiteSummaries = options.excludePrerequisiteSteps
      ? await Promise.all(prerequisites.map((r) => this.documents.summaryOf(r.guide.guideid, r.revision)))
      : inlined.map((v) => v.summary());
    return { prerequisites, inlined, prerequisiteSummaries };
  }

  private toDto(parts: DetailParts): GuideDetailDto {
    const document = parts.source.document();
    const { steps: translatedSteps, ...translatedText } = parts.translation ?? {};
    const ownSteps = translatedSteps
      ? document.steps.map((step) => translateStep(step, translatedSteps[step.stepid]))
      : document.steps;
    const steps = [...parts.inlined.flatMap((view) => view.document().steps), ...ownSteps];
    const stepDtos: StepDto[] = steps.map((step) => {
      const stepComments = parts.comments.get(`step:${step.stepid}`) ?? [];
      return { ...step, comments: stepComments, comment_count: stepComments.length };
    });
    const { prerequisiteids: _ids, steps: _steps, ...fields } = document;
    return { dataType: 'guide', ...fields, ...translatedText, ...this.callerMembers(parts, stepDtos) };
  }

  /**
   * toDto's JSON from the fragments: the document's members, then the caller's, steps with their comments;
   * and its entity tag, from the documents' digests and the other pieces.
   */
  private toJson(parts: DetailParts): { json: string; etag: string } {
    const source = parts.source as GuideFragments;
    const cut = [...(parts.inlined as GuideFragments[]), source];
    const pieces: string[] = [];
    const steps: string[] = [];
    for (const view of cut) {
      view.openSteps.forEach((open, i) => {
        const stepComments = parts.comments.get(`step:${view.stepids[i]}`) ?? [];
        const commentsJson = JSON.stringify(stepComments);
        pieces.push(commentsJson);
        steps.push(closeStep(open, commentsJson, stepComments.length));
      });
    }
    // The document's members, then the caller's; `prerequisite_releases` keeps the document's place when it has one
    // (the same value: the detail shows the document's own).
    let json = `{"dataType":"guide"${source.fieldsJson ? `,${source.fieldsJson}` : ''}`;
    const inFields = source.prerequisiteReleases !== undefined;
    for (const [key, value] of Object.entries(this.callerMembers(parts, []))) {
      const member = key === 'steps' ? `[${steps.join(',')}]` : (JSON.stringify(value) as string | undefined);
      if (key !== 'steps') pieces.push(`${key}:${member ?? ''}`);
      if (member !== undefined && !(key === 'prerequisite_releases' && inFields)) json += `,"${key}":${member}`;
    }
    return {
      json: `${json}}`,
      etag: piecesTag(
        cut.map((view) => view.digest()),
        pieces,
      ),
    };
  }

  /** The members after the document's own, in the answer's order (`steps` is where the steps go). */
  private callerMembers(parts: DetailParts, steps: StepDto[]) {
    const { row, source, shownRevision, prerequisites } = parts;
    return {
      locale: shownRevision.langid,
      revisionid: shownRevision.revisionid,
      head_revisionid: parts.translation ? shownRevision.revisionid : row.guide.headRevisionid,
      modified_date: shownRevision.date,
      prereq_modified_date: prerequisites.reduce((max, r) => Math.max(max, r.guide.modifiedDate), 0),
      userid: row.guide.authorid,
      username: row.username,
      prerequisites: prerequisites.map((r, i) => this.summaries.toSummary(r, parts.prerequisiteSummaries[i], 0)),
      prerequisite_releases: source.prerequisiteReleases ?? [],
      steps,
      comments: parts.comments.get(`guide:${parts.guideid}`) ?? [],
      author: parts.author,
      langid: row.guide.langid,
      available_langids: [row.guide.langid, ...row.translatedLangids.sort()],
      created_date: row.guide.createdDate,
      published_date: row.guide.publishedDate,
      patrolled: shownRevision.patrolled,
      can_edit: parts.canEdit,
      favorited: row.favorited,
      completed: row.completed,
    };
  }

  /** The row with the live releases' revisions (source language, and the translation asked for) in place. */
  private async pinToLiveReleases(row: GuideRow, langid: string | undefined): Promise<GuideRow> {
    const guideid = row.guide.guideid;
    const translated = langid && langid !== row.guide.langid && row.translation ? langid : undefined;
    const [source, translation] = await Promise.all([
      this.releases.liveOne('GUIDE', guideid, row.guide.langid, row.releasesToken),
      translated ? this.releases.liveOne('GUIDE', guideid, translated, row.releasesToken) : null,
    ]);
    if (!source && !translation) return row;
    const revisions = await this.revisions.findRevisions(
      [source?.revisionid, translation?.revisionid].filter((id): id is number => id !== undefined),
    );
    return {
      ...row,
      revision: (source && revisions.get(source.revisionid)) || row.revision,
      translation: (translation && revisions.get(translation.revisionid)) || row.translation,
    };
  }

  /**
   * Prerequisites pinned by `prerequisite_releases` show that release's revision (`releaseid` null, or a
   * pinned release no longer released: the newest released one; none: the revision they had).
   */
  private async pinPrerequisites(
    rows: GuideRow[],
    pins: { guideid: number; releaseid: number | null }[],
  ): Promise<GuideRow[]> {
    const pinned = pins.filter((pin) => rows.some((r) => r.guide.guideid === pin.guideid));
    if (!pinned.length) return rows;
    const ids = pinned.map((pin) => pin.guideid);
    const [found, live] = await Promise.all([
      this.releases.find(pinned.flatMap((pin) => (pin.releaseid === null ? [] : [pin.releaseid]))),
      this.releases.live('GUIDE', ids),
    ]);
    const revisionOf = new Map<number, number>();
    for (const pin of pinned) {
      const release = pin.releaseid === null ? undefined : found.get(pin.releaseid);
      const chosen =
        release && release.status === 'released' && release.docid === pin.guideid ? release : live.get(pin.guideid);
      if (chosen) revisionOf.set(pin.guideid, chosen.revisionid);
    }
    const revisions = await this.revisions.findRevisions([...revisionOf.values()]);
    return rows.map((row) => {
      const revision = revisions.get(revisionOf.get(row.guide.guideid) ?? 0);
      return revision ? { ...row, revision } : row;
    });
  }

  /** Summaries of the given guides the caller may read, in the given order. */
  async summariesOf(caller: AuthenticatedUser | undefined, guideids: number[]): Promise<GuideSummaryDto[]> {
    const rows = await this.readableRows(caller, await this.guides.summaryRows(guideids, 'summary'));
    const byId = new Map(rows.map((row) => [row.guide.guideid, row]));
    return this.summaries.summaries(
      guideids.map((id) => byId.get(id)).filter((row): row is GuideRow => row !== undefined),
      caller,
    );
  }
}
