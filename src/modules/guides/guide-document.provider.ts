import { JsonText } from '../../common/http/json-text';
import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { callerHas } from '../../common/auth/privileges';
import type {
  AccessSql,
  DocumentInfo,
  DocumentLabel,
  DocumentProvider,
  DocumentRevision,
  LabelSql,
} from '../../platform/documents/document-registry';
import type { GuideDetailDto } from './dto/guide-response.dto';
import { PolicyService } from '../access/policy.service';
import { GuideDocumentsService } from './guide-documents.service';
import { accessFacts } from './guide-access-facts';
import { GuideReaderService } from './guide-reader.service';
import { GuidesRepository } from './guides.repository';
import { GuideRevisionsRepository } from './guide-revisions.repository';

/** Guides as the document registry shows them to enterprise modules (releases, reviews, quizzes, work log). */
@Injectable()
export class GuideDocumentProvider implements DocumentProvider {
  constructor(
    private readonly guides: GuidesRepository,
    private readonly revisions: GuideRevisionsRepository,
    private readonly reader: GuideReaderService,
    private readonly documents: GuideDocumentsService,
    private readonly policy: PolicyService,
  ) {}

  async find(docids: number[]): Promise<Map<number, DocumentInfo>> {
    const rows = await this.guides.summaryRows([...new Set(docids)], 'none');
    return new Map(
      rows
        .filter((row) => !row.guide.deleted)
        .map(({ guide }) => [
          guide.guideid,
          {
            doctype: 'GUIDE',
            docid: guide.guideid,
            title: guide.title,
            url: this.documents.url(guide.guideid, guide.title),
            langid: guide.langid,
            authorid: guide.authorid,
            revisionid: guide.revisionid,
          },
        ]),
    );
  }

  readable(user: AuthenticatedUser | undefined, docids: number[]): Promise<Set<number>> {
    return this.reader.readableIds(user, docids);
  }

  async editable(user: AuthenticatedUser | undefined, docids: number[]): Promise<Set<number>> {
    const rows = await this.guides.summaryRows([...new Set(docids)], 'none');
    const allowed = await Promise.all(
      rows.map(async (row) => !row.guide.deleted && (await this.policy.canEditGuide(user, accessFacts(row)))),
    );
    return new Set(rows.filter((_, i) => allowed[i]).map((row) => row.guide.guideid));
  }

  async currentRevision(docid: number, langid: string): Promise<number | null> {
    const guide = await this.guides.findGuide(docid);
    if (!guide || guide.deleted) return null;
    if (langid === guide.langid) return guide.revisionid || null;
    return (await this.revisions.findTranslation(docid, langid))?.revisionid ?? null;
  }

  async revision(docid: number, revisionid: number): Promise<DocumentRevision | null> {
    const revision = await this.revisions.findRevision(revisionid);
    if (!revision || revision.guideid !== docid) return null;
    return { docid, revisionid, langid: revision.langid, content: revision.data };
  }

  searchTitles(term: string, limit: number): Promise<number[]> {
    return this.guides.searchTitles(term, limit);
  }

  /** The read and edit rules of docs/api-conventions.md in SQL: readers see public guides and those they may edit; editors are the author, granted users and teams, Moderator+. */
  accessSql(user: AuthenticatedUser | undefined, docidColumn: string): AccessSql {
    const existing = (condition: string) =>
      `EXISTS (SELECT 1 FROM guides acc_g WHERE acc_g.guideid = ${docidColumn} AND acc_g.deleted = 0 AND ${condition})`;
    if (!user) return { readable: existing('acc_g.public = 1'), editable: '1 = 0', params: {} };
    if (callerHas(user, 'Moderator')) return { readable: existing('1 = 1'), editable: existing('1 = 1'), params: {} };
    const granted =
      '(acc_g.authorid = :acc_userid' +
      ' OR EXISTS (SELECT 1 FROM guide_user_grants acc_ug WHERE acc_ug.guideid = acc_g.guideid AND acc_ug.userid = :acc_userid)' +
      ' OR EXISTS (SELECT 1 FROM guide_team_grants acc_tg JOIN team_members acc_tm ON acc_tm.teamid = acc_tg.teamid' +
      ' WHERE acc_tg.guideid = acc_g.guideid AND acc_tm.userid = :acc_userid))';
    return {
      readable: existing(`(acc_g.public = 1 OR ${granted})`),
      editable: existing(granted),
      params: { acc_userid: user.userid },
      editableIds:
        'SELECT acc_g.guideid AS docid FROM guides acc_g WHERE acc_g.authorid = :acc_userid AND acc_g.deleted = 0' +
        ' UNION SELECT acc_ug.guideid FROM guide_user_grants acc_ug JOIN guides acc_g ON acc_g.guideid = acc_ug.guideid' +
        ' WHERE acc_ug.userid = :acc_userid AND acc_g.deleted = 0' +
        ' UNION SELECT acc_tg.guideid FROM team_members acc_tm JOIN guide_team_grants acc_tg ON acc_tg.teamid = acc_tm.teamid' +
        ' JOIN guides acc_g ON acc_g.guideid = acc_tg.guideid WHERE acc_tm.userid = :acc_userid AND acc_g.deleted = 0',
    };
  }

  labelSql(docidColumn: string): LabelSql {
    const of = (column: string) =>
      `(SELECT lbl_g.${column} FROM guides lbl_g WHERE lbl_g.guideid = ${docidColumn} AND lbl_g.deleted = 0)`;
    return { title: of('title'), authorid: of('authorid'), urlKey: 'NULL' };
  }

  labelFromSql(docid: number, values: { title: unknown; authorid: unknown }): DocumentLabel | null {
    if (typeof values.title !== 'string') return null;
    const authorid = values.authorid === null || values.authorid === undefined ? null : Number(values.authorid);
    return { title: values.title, url: this.documents.url(docid, values.title), authorid };
  }

  detail(user: AuthenticatedUser, docid: number): Promise<JsonText<GuideDetailDto>> {
    return this.reader.detail(docid, user);
  }
}
