import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { TransactionService } from '../../database/transaction.service';
import { ReleaseDirectory, type LiveRelease } from '../../platform/documents/release-directory';
import type { GuideDocument, TranslationDocument } from '../guides/guide-document';
import { GuideDocumentsService } from '../guides/guide-documents.service';
import { GuidesRepository } from '../guides/guides.repository';
import { type GuideRow } from '../guides/guide-rows';
import { GuideRevisionsRepository } from '../guides/guide-revisions.repository';
import type { ImageObjectDto } from '../media/dto/image-object.dto';
import { MediaService } from '../media/media.service';
import { wikiUrl } from '../wikis/wiki-namespaces';
import { WikisRepository } from '../wikis/wikis.repository';
import { plainText } from './snippet';
import { SearchRepository, type IndexedDocument } from './search.repository';

/** Body text kept per document and language (InnoDB TEXT holds 65,535 bytes: 16,000 characters fit). */
export const MAX_BODY = 16_000;
const MAX_TITLE = 600;

/** Plain text of the parts, each ended like a sentence so that snippets read well across them. */
const joinText = (parts: (string | null | undefined)[]): string =>
  parts
    .map((part) => plainText(part ?? ''))
    .filter((part) => part.length > 0)
    .map((part) => (/[.!?:;…]$/.test(part) ? part : `${part}.`))
    .join(' ')
    .slice(0, MAX_BODY);

/**
 * Builds what the index holds of a guide or wiki from the revision every reader may read in each language:
 * the release in force when the language has one (docs/enterprise/releases.md: readers who are not editors see it),
 * else the newest patrolled revision; and writes it through the SearchRepository. Deleted documents and those without a
 * patrolled revision leave the index. Called by the event subscriber and by the rebuild.
 */
@Injectable()
export class SearchIndexerService {
  constructor(
    private readonly index: SearchRepository,
    private readonly guides: GuidesRepository,
    private readonly revisions: GuideRevisionsRepository,
    private readonly guideDocuments: GuideDocumentsService,
    private readonly wikis: WikisRepository,
    private readonly media: MediaService,
    private readonly transactions: TransactionService,
    private readonly releases: ReleaseDirectory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Replaces what the index holds of each of `guideids` (duplicates are indexed once). */
  async reindexGuides(guideids: number[]): Promise<void> {
    const ids = [...new Set(guideids)];
    if (!ids.length) return;
    await this.index.replace('GUIDE', ids, await this.guideDocumentsOf(ids));
  }

  reindexGuide(guideid: number): Promise<void> {
    return this.reindexGuides([guideid]);
  }

  async reindexWiki(wikiid: number): Promise<void> {
    await this.index.replace('WIKI', [wikiid], await this.wikiDocumentsOf(wikiid));
  }

  /**
   * Rebuilds the whole index, one document per transaction (searches keep working meanwhile), then drops
   * rows of documents that no longer exist. Returns how many documents and rows it holds.
   */
  async rebuild(): Promise<{ guides: number; wikis: number; rows: number }> {
    const ids = await this.allIds();
    for (const guideid of ids.guides) await this.transactions.run(() => this.reindexGuide(guideid));
    for (const wikiid of ids.wikis) await this.transactions.run(() => this.reindexWiki(wikiid));
    const live = { GUIDE: new Set(ids.guides), WIKI: new Set(ids.wikis) };
    for (const doctype of ['GUIDE', 'WIKI'] as const) {
      for (const docid of await this.index.indexedIds(doctype)) {
        if (!live[doctype].has(docid)) await this.transactions.run(() => this.index.replace(doctype, [docid], []));
      }
    }
    return { guides: ids.guides.length, wikis: ids.wikis.length, rows: await this.index.count() };
  }

  /** Every guide and wiki id (the rebuild), deleted ones left out. */
  allIds(): Promise<{ guides: number[]; wikis: number[] }> {
    return this.index.liveDocumentIds();
  }

  /**
   * The documents of many guides: their rows in one statement, their releases in force in one per source language
   * (none when the releases the rows were read with are kept), a pinned or translated revision only where a guide has
   * one. A delivery of many guide events indexes them all with these few statements.
   */
  private async guideDocumentsOf(guideids: number[]): Promise<IndexedDocument[]> {
    const rows = (await this.guides.indexRows(guideids)).filter((row) => !row.guide.deleted);
    const byLangid = new Map<string, GuideRow[]>();
    for (const row of rows) {
      const group = byLangid.get(row.guide.langid);
      if (group) group.push(row);
      else byLangid.set(row.guide.langid, [row]);
    }
    const released = new Map<number, LiveRelease>();
    for (const [langid, group] of byLangid) {
      const ids = group.map((row) => row.guide.guideid);
      for (const [guideid, release] of await this.releases.live('GUIDE', ids, langid, group[0].releasesToken))
        released.set(guideid, release);
    }
    const documents: IndexedDocument[] = [];
    for (const row of rows) documents.push(...(await this.documentsOfRow(row, released.get(row.guide.guideid))));
    return documents;
  }

  private async documentsOfRow(row: GuideRow, released: LiveRelease | undefined): Promise<IndexedDocument[]> {
    const guideid = row.guide.guideid;
    const pinned = released ? await this.revisions.findRevision(released.revisionid) : null;
    const source = await this.guideDocuments.source(
      guideid,
      pinned
        ? { ...pinned, document: pinned.document ?? undefined, summary: pinned.summary ?? undefined }
        : row.revision,
    );
    const common = { doctype: 'GUIDE' as const, docid: guideid, namespace: 'GUIDE', data: {} };
    const items = [...source.parts, ...source.tools].map((item) => item.text);
    const steps = source.steps.flatMap((step) => [step.title, ...step.lines.map((line) => line.text_raw)]);
    const documents: IndexedDocument[] = [
      {
        ...common,
        langid: row.guide.langid,
        isSource: true,
        title: source.title.slice(0, MAX_TITLE),
        body: guideBody(source, source, steps, items),
        modifiedDate: row.guide.modifiedDate,
      },
    ];
    if (!row.translatedLangids.length) return documents;
    const translations = await this.revisions.translationsOf(guideid);
    for (const translation of translations) {
      if (translation.revisionid === null || translation.langid === row.guide.langid) continue;
      const live = await this.releases.liveOne('GUIDE', guideid, translation.langid, row.releasesToken);
      const revision = await this.revisions.findRevision(live?.revisionid ?? translation.revisionid);
      if (!revision) continue;
      const text = await this.guideDocuments.translation({
        ...revision,
        document: revision.document ?? undefined,
        summary: undefined,
      });
      const translatedSteps = source.steps.flatMap((step) => {
        const t = text.steps?.[String(step.stepid)];
        return t
          ? [t.title, ...t.lines.map((line) => line.text_raw)]
          : [step.title, ...step.lines.map((l) => l.text_raw)];
      });
      documents.push({
        ...common,
        langid: translation.langid,
        isSource: false,
        title: (text.title || source.title).slice(0, MAX_TITLE),
        body: guideBody(text, source, translatedSteps, items),
        modifiedDate: Math.max(row.guide.modifiedDate, revision.date),
      });
    }
    return documents;
  }

  private async wikiDocumentsOf(wikiid: number): Promise<IndexedDocument[]> {
    const wiki = await this.wikis.findWikiById(wikiid);
    if (!wiki || wiki.deleted) return [];
    const languages = (await this.wikis.languagesOf(wikiid)).filter((l) => l.revisionid !== null);
    const shown = new Map<string, number>();
    for (const language of languages) {
      const released = await this.releases.liveOne('WIKI', wikiid, language.langid);
      shown.set(language.langid, released?.revisionid ?? (language.revisionid as number));
    }
    const revisions = await this.wikis.revisions([...shown.values()]);
    const live = languages
      .map((language) => ({ language, revision: revisions.get(shown.get(language.langid) as number) }))
      .filter(({ revision }) => revision && !revision.deleted);
    const imageids = [...new Set(live.map(({ revision }) => revision?.imageid).filter((id): id is number => !!id))];
    const images = imageids.length ? await this.media.imageObjects(imageids) : new Map<number, ImageObjectDto>();
    const url = wikiUrl(this.config.publicUrl, wiki.namespace, wiki.title);
    return live.map(({ language, revision }) => {
      const rev = revision!;
      const title = rev.displayTitle === wiki.title ? wiki.title : `${rev.displayTitle} ${wiki.title}`;
      return {
        doctype: 'WIKI',
        docid: wikiid,
        langid: language.langid,
        namespace: wiki.namespace,
        isSource: language.langid === wiki.langid,
        title: title.slice(0, MAX_TITLE),
        body: joinText([rev.summary, rev.contents]),
        data: {
          namespace: wiki.namespace,
          title: wiki.title,
          display_title: rev.displayTitle,
          summary: rev.summary,
          url,
          image: (rev.imageid !== null && images.get(rev.imageid)) || null,
        },
        modifiedDate: wiki.modifiedDate,
      };
    });
  }
}

function guideBody(
  text: Pick<GuideDocument, 'summary' | 'introduction_raw' | 'conclusion_raw'> | TranslationDocument,
  source: GuideDocument,
  steps: string[],
  items: string[],
): string {
  return joinText([
    text.summary,
    text.introduction_raw,
    ...steps,
    text.conclusion_raw,
    ...items,
    source.category,
    source.subject,
  ]);
}
