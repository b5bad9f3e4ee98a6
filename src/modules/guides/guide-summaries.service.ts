import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ReleaseDirectory } from '../../platform/documents/release-directory';
import { PolicyService } from '../access/policy.service';
import type { GuideSummaryDto } from './dto/guide-response.dto';
import type { GuideSummaryDocument, TranslationDocument } from './guide-document';
import { GuideDocumentsService } from './guide-documents.service';
import { accessFacts } from './guide-access-facts';
import { GuidesRepository } from './guides.repository';
import { type SummaryRow } from './guide-rows';
import { GuideRevisionsRepository } from './guide-revisions.repository';

/** Guide list items (lists, search, prerequisites). */
@Injectable()
export class GuideSummariesService {
  constructor(
    private readonly guides: GuidesRepository,
    private readonly revisions: GuideRevisionsRepository,
    private readonly documents: GuideDocumentsService,
    private readonly policy: PolicyService,
    private readonly releases: ReleaseDirectory,
  ) {}

  toSummary(
    row: SummaryRow,
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

  /**
   * Summaries for `caller`: a guide the caller may not edit is summarised from its live release's revision
   * once one is released (docs/enterprise/releases.md), as its detail is. One statement for the page's live releases,
   * one more only when some differ from the listed revision.
   */
  async summaries(rows: SummaryRow[], caller: AuthenticatedUser | undefined): Promise<GuideSummaryDto[]> {
    rows = await this.pinRowsToLiveReleases(rows, caller);
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

  private async pinRowsToLiveReleases(
    rows: SummaryRow[],
    caller: AuthenticatedUser | undefined,
  ): Promise<SummaryRow[]> {
    const editable = await Promise.all(rows.map((row) => this.policy.canEditGuide(caller, accessFacts(row))));
    // Grouped by source language (nearly always one group): the lookup then needs no query for each guide's language.
    const byLangid = new Map<string, number[]>();
    rows.forEach((row, i) => {
      if (editable[i]) return;
      const ids = byLangid.get(row.guide.langid);
      if (ids) ids.push(row.guide.guideid);
      else byLangid.set(row.guide.langid, [row.guide.guideid]);
    });
    // One statement reads every row of a page, and with them one token.
    const token = rows[0]?.releasesToken ?? null;
    const found = await Promise.all(
      [...byLangid].map(([langid, ids]) => this.releases.live('GUIDE', ids, langid, token)),
    );
    const live = new Map(found.flatMap((map) => [...map]));
    const wanted = new Map<number, number>();
    rows.forEach((row, i) => {
      const release = editable[i] ? undefined : live.get(row.guide.guideid);
      if (release && release.revisionid !== row.revision.revisionid) wanted.set(row.guide.guideid, release.revisionid);
    });
    if (!wanted.size) return rows;
    const revisions = await this.revisions.findRevisions([...wanted.values()]);
    return rows.map((row) => {
      const revision = revisions.get(wanted.get(row.guide.guideid) ?? 0);
      return revision ? { ...row, revision } : row;
    });
  }
}
