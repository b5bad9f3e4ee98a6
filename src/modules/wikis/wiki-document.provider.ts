import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { callerHas } from '../../common/auth/privileges';
import { notFound } from '../../common/http/api-errors';
import type {
  AccessSql,
  DocumentInfo,
  DocumentLabel,
  DocumentProvider,
  DocumentRevision,
  LabelSql,
} from '../../platform/documents/document-registry';
import type { WikiDetailDto } from './dto/wiki-response.dto';
import { WikiReaderService } from './wiki-reader.service';
import type { WikiNamespace } from './wiki-namespaces';
import { PolicyService } from '../access/policy.service';
import { wikiUrl } from './wiki-namespaces';
import { WikisRepository } from './wikis.repository';

/** Wikis (any namespace) as the document registry shows them; a wiki's docid is its wikiid. */
@Injectable()
export class WikiDocumentProvider implements DocumentProvider {
  constructor(
    private readonly wikis: WikisRepository,
    private readonly policy: PolicyService,
    private readonly reader: WikiReaderService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async find(docids: number[]): Promise<Map<number, DocumentInfo>> {
    const rows = await this.wikis.findWikisByIds([...new Set(docids)]);
    const heads = await this.wikis.sourceRevisionIds(rows.map((wiki) => wiki.wikiid));
    return new Map(
      rows
        .filter((wiki) => !wiki.deleted && heads.get(wiki.wikiid))
        .map((wiki) => [
          wiki.wikiid,
          {
            doctype: 'WIKI',
            docid: wiki.wikiid,
            title: wiki.title,
            url: wikiUrl(this.config.publicUrl, wiki.namespace, wiki.title),
            langid: wiki.langid,
            authorid: wiki.authorid,
            revisionid: heads.get(wiki.wikiid) as number,
          },
        ]),
    );
  }

  /** Wikis are public: every existing wiki is readable. */
  async readable(_user: AuthenticatedUser | undefined, docids: number[]): Promise<Set<number>> {
    return new Set((await this.find(docids)).keys());
  }

  async editable(user: AuthenticatedUser | undefined, docids: number[]): Promise<Set<number>> {
    const rows = (await this.wikis.findWikisByIds([...new Set(docids)])).filter((wiki) => !wiki.deleted);
    const allowed = await Promise.all(
      rows.map((wiki) => this.policy.canEditWiki(user, { namespace: wiki.namespace, title: wiki.title })),
    );
    return new Set(rows.filter((_, i) => allowed[i]).map((wiki) => wiki.wikiid));
  }

  async currentRevision(docid: number, langid: string): Promise<number | null> {
    const language = (await this.wikis.languagesOf(docid)).find((l) => l.langid === langid);
    return language?.revisionid ?? null;
  }

  async revision(docid: number, revisionid: number): Promise<DocumentRevision | null> {
    const revision = (await this.wikis.revisions([revisionid])).get(revisionid);
    if (!revision || revision.wikiid !== docid) return null;
    const { displayTitle, summary, contents, imageid, flags, data, deleted } = revision;
    return {
      docid,
      revisionid,
      langid: revision.langid,
      content: { displayTitle, summary, contents, imageid, flags, data, deleted },
    };
  }

  searchTitles(term: string, limit: number): Promise<number[]> {
    return this.wikis.searchTitles(term, limit);
  }

  /** As find: not deleted, with a revision in the source language. */
  labelSql(docidColumn: string): LabelSql {
    const of = (column: string) =>
      `(SELECT lbl_w.${column} FROM wikis lbl_w JOIN wiki_languages lbl_l ON lbl_l.wikiid = lbl_w.wikiid` +
      ` AND lbl_l.langid = lbl_w.langid WHERE lbl_w.wikiid = ${docidColumn} AND lbl_w.deleted = 0` +
      ' AND lbl_l.revisionid IS NOT NULL)';
    return { title: of('title'), authorid: of('authorid'), urlKey: of('namespace') };
  }

  labelFromSql(_docid: number, values: { title: unknown; authorid: unknown; urlKey: unknown }): DocumentLabel | null {
    if (typeof values.title !== 'string') return null;
    const authorid = values.authorid === null || values.authorid === undefined ? null : Number(values.authorid);
    return { title: values.title, url: wikiUrl(this.config.publicUrl, String(values.urlKey), values.title), authorid };
  }

  /** Every existing wiki is readable; editors: Author+, a USER page's user, a TEAM page's members. */
  accessSql(user: AuthenticatedUser | undefined, docidColumn: string): AccessSql {
    const existing = (condition: string) =>
      `EXISTS (SELECT 1 FROM wikis acc_w WHERE acc_w.wikiid = ${docidColumn} AND acc_w.deleted = 0 AND ${condition})`;
    const readable = existing('1 = 1');
    if (!user) return { readable, editable: '1 = 0', params: {} };
    if (callerHas(user, 'Author')) return { readable, editable: readable, params: {} };
    return {
      readable,
      editable: existing(
        "((acc_w.namespace = 'USER' AND acc_w.title = :acc_usertitle) OR (acc_w.namespace = 'TEAM' AND EXISTS " +
          '(SELECT 1 FROM team_members acc_tm WHERE acc_tm.userid = :acc_userid AND CAST(acc_tm.teamid AS CHAR) = acc_w.title)))',
      ),
      params: { acc_userid: user.userid, acc_usertitle: String(user.userid) },
    };
  }

  async detail(user: AuthenticatedUser, docid: number): Promise<WikiDetailDto> {
    const [wiki] = await this.wikis.findWikisByIds([docid]);
    if (!wiki) throw notFound('Wiki');
    return this.reader.current(wiki.namespace as WikiNamespace, wiki.title, {}, user);
  }
}
