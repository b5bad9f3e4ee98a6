import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import type { ImageObjectDto } from '../media/dto/image-object.dto';
import { MediaService } from '../media/media.service';
import { guideUrl, wikiUrl } from '../wikis/wiki-namespaces';
import { WikiTextService } from '../wikitext/wikitext.service';
import type { GuideItemDto } from './dto/guide-response.dto';
import {
  parseStored,
  timeRequiredText,
  type GuideData,
  type StepData,
  type StepTranslationData,
  type StoredItem,
  type TranslationData,
} from './guide-data';
import { cutDocument, layoutOf, sliceDocument, storedLayout, type GuideFragments } from './guide-fragments';
import {
  summaryDocument,
  type GuideDocument,
  type GuideSummaryDocument,
  type StepDocument,
  type TranslatedStepDocument,
  type TranslationDocument,
} from './guide-document';
import { type StoredRevision } from './guide-rows';
import { GuideRevisionsRepository } from './guide-revisions.repository';

/** List summaries cut into JSON, kept for this many revisions. */

/**
 * Renders guide revisions into their stored documents. Rendering (wiki text, image and document
 * objects, URLs) happens once per revision at write time; reads only parse the stored JSON. A document
 * rendered with other URL bases (PUBLIC_URL or MEDIA_PUBLIC_URL changed) is rebuilt on first read.
 * Wiki-text references inside a revision (e.g. a linked guide's title) are as of the time it was saved.
 */
const PARSED_SUMMARIES = 50_000;

@Injectable()
export class GuideDocumentsService {
  readonly renderKey: string;

  constructor(
    private readonly revisions: GuideRevisionsRepository,
    private readonly media: MediaService,
    private readonly wikiText: WikiTextService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.renderKey = createHash('sha256')
      .update(`v3|${config.publicUrl}|${config.media?.publicUrl ?? ''}`)
      .digest('hex');
  }

  url(guideid: number, title: string): string {
    return guideUrl(this.config.publicUrl, guideid, title);
  }

  /** The stored document of a source revision, rebuilt and saved when missing or rendered with other URLs. */
  async source(guideid: number, revision: StoredRevision): Promise<GuideDocument> {
    if (revision.document && revision.renderKey === this.renderKey)
      return parseStored<GuideDocument>(revision.document);
    const document = await this.buildSource(guideid, parseStored<GuideData>(await this.savedFields(revision)));
    await this.revisions.saveDocument(
      revision.revisionid,
      { ...this.stored(document), summary: summaryDocument(document) },
      this.renderKey,
    );
    return document;
  }

  /**
   * The stored document of a source revision as the pieces a detail is written from (guide-fragments.ts): sliced
   * by its stored layout, without a parse; documents stored before layouts were get theirs on this first read.
   */
  async fragments(guideid: number, revision: StoredRevision): Promise<GuideFragments> {
    const stored = revision.renderKey === this.renderKey ? revision.document : undefined;
    if (typeof stored === 'string' && stored) {
      const layout = storedLayout(stored, revision.layout);
      if (layout) return sliceDocument(revision.revisionid, stored, layout);
      const document = parseStored<GuideDocument>(stored);
      const computed = layoutOf(document, stored);
      if (!computed) return cutDocument(revision.revisionid, document, stored);
      await this.revisions.saveLayout(revision.revisionid, computed);
      return sliceDocument(revision.revisionid, stored, computed);
    }
    return cutDocument(revision.revisionid, await this.source(guideid, revision), undefined);
  }

  /** A source document as stored: the document (the json column writes its JSON text) and that text's layout. */
  stored(document: GuideDocument): { document: GuideDocument; layout: string | null } {
    const layout = layoutOf(document);
    return { document, layout: layout && JSON.stringify(layout) };
  }

  /**
   * A stored summary parsed once per revision while its text is the one read (lists read the same pages again and
   * again; about 1 KB each, so a bounded map emptied when full is enough). Shared: callers copy, never change it.
   */
  private parsedSummary(revisionid: number, text: string): GuideSummaryDocument {
    const cached = this.summaries.get(revisionid);
    if (cached && cached.text === text) return cached.summary;
    const summary = parseStored<GuideSummaryDocument>(text);
    if (this.summaries.size >= PARSED_SUMMARIES) this.summaries.clear();
    this.summaries.set(revisionid, { text, summary });
    return summary;
  }

  private readonly summaries = new Map<number, { text: string; summary: GuideSummaryDocument }>();

  /** The list summary of a source revision, from whichever of summary or document the read selected. */
  async summaryOf(guideid: number, revision: StoredRevision): Promise<GuideSummaryDocument> {
    if (revision.renderKey === this.renderKey) {
      if (typeof revision.summary === 'string' && revision.summary)
        return this.parsedSummary(revision.revisionid, revision.summary);
      if (revision.document) return summaryDocument(parseStored<GuideDocument>(revision.document));
    }
    // Written before summaries were stored, or rendered with other URL bases: (re)build once.
    const full = revision.data === undefined ? await this.revisions.findRevision(revision.revisionid) : revision;
    if (!full) throw new Error(`guide revision ${revision.revisionid} is missing`);
    const documentIsCurrent = Boolean(full.document) && full.renderKey === this.renderKey;
    const document = await this.source(guideid, full); // saves document and summary when it rebuilds
    const summary = summaryDocument(document);
    if (documentIsCurrent)
      await this.revisions.saveDocument(revision.revisionid, { ...this.stored(document), summary }, this.renderKey);
    return summary;
  }

  async translation(revision: StoredRevision): Promise<TranslationDocument> {
    if (revision.document && revision.renderKey === this.renderKey)
      return parseStored<TranslationDocument>(revision.document);
    const document = await this.buildTranslation(parseStored<TranslationData>(await this.savedFields(revision)));
    await this.revisions.saveDocument(revision.revisionid, { document, summary: null, layout: null }, this.renderKey);
    return document;
  }

  /** A revision's saved fields (`data`), read when the row at hand was selected without them. */
  private async savedFields(revision: StoredRevision): Promise<unknown> {
    if (revision.data !== undefined) return revision.data;
    const full = await this.revisions.findRevision(revision.revisionid);
    if (!full) throw new Error(`guide revision ${revision.revisionid} is missing`);
    return full.data;
  }

  /** Renders a translation revision: its guide text and every step translation it names, in one batch. */
  async buildTranslation(data: TranslationData): Promise<TranslationDocument> {
    const refs = Object.entries(data.steps ?? {});
    const revisions = new Map(
      (await this.revisions.findStepRevisions(refs.map(([, revisionid]) => revisionid))).map((r) => [
        r.revisionid,
        parseStored<StepTranslationData>(r.data),
      ]),
    );
    const steps = refs.flatMap(([stepid, revisionid]) => {
      const step = revisions.get(revisionid);
      return step ? [{ stepid, revisionid, step }] : [];
    });
    const rendered = await this.wikiText.renderMany([
      data.introduction,
      data.conclusion,
      ...steps.flatMap(({ step }) => step.lines),
    ]);
    let cursor = 2;
    const stepDocs: Record<string, TranslatedStepDocument> = {};
    for (const { stepid, revisionid, step } of steps) {
      stepDocs[stepid] = {
        revisionid,
        title: step.title,
        lines: step.lines.map((text, i) => ({ text_raw: text, text_rendered: rendered[cursor + i].rendered })),
      };
      cursor += step.lines.length;
    }
    return {
      title: data.title,
      summary: data.summary,
      introduction_raw: data.introduction,
      introduction_rendered: rendered[0].rendered,
      conclusion_raw: data.conclusion,
      conclusion_rendered: rendered[1].rendered,
      steps: stepDocs,
    };
  }

  /**
   * Renders a source revision: one wiki-text batch, one image batch, one document batch. Steps whose
   * revision is unchanged since `previous` (rendered with the same URL bases) are taken from its document
   * instead of being loaded and rendered again.
   */
  async buildSource(guideid: number, data: GuideData, previous?: StoredRevision): Promise<GuideDocument> {
    const reusable = new Map<number, StepDocument>();
    if (previous?.document && previous.renderKey === this.renderKey) {
      for (const step of parseStored<GuideDocument>(previous.document).steps) reusable.set(step.revisionid, step);
    }
    const stale = data.steps.filter((ref) => !reusable.has(ref.revisionid));
    const stepRevisions = new Map(
      (await this.revisions.findStepRevisions(stale.map((s) => s.revisionid))).map((r) => [
        r.revisionid,
        parseStored<StepData>(r.data),
      ]),
    );
    const steps = stale.map((ref) => ({ ref, step: stepRevisions.get(ref.revisionid) as StepData }));
    const texts = [data.introduction, data.conclusion, ...steps.flatMap(({ step }) => step.lines.map((l) => l.text))];
    const imageids = [...(data.imageid ? [data.imageid] : []), ...steps.flatMap(({ step }) => step.imageids)];
    const [rendered, images, documents] = await Promise.all([
      this.wikiText.renderMany(texts),
      this.media.imageObjects(imageids),
      this.media.documentObjects(data.documents),
    ]);
    let cursor = 2;
    const renderedSteps = new Map<number, StepDocument>();
    for (const { ref, step } of steps) {
      const html = rendered.slice(cursor, cursor + step.lines.length).map((r) => r.rendered);
      cursor += step.lines.length;
      renderedSteps.set(ref.revisionid, this.stepDocument(guideid, ref.stepid, 0, ref.revisionid, step, html, images));
    }
    const stepDocs = data.steps.map((ref, index) => ({
      ...((renderedSteps.get(ref.revisionid) ?? reusable.get(ref.revisionid)) as StepDocument),
      orderby: index + 1,
    }));
    const featured = data.featured_documentid !== null ? documents.get(data.featured_documentid) : undefined;
    return {
      guideid,
      url: this.url(guideid, data.title),
      type: data.type,
      category: data.category,
      subject: data.subject,
      title: data.title,
      summary: data.summary,
      difficulty: data.difficulty,
      time_required: timeRequiredText(data.time_required_min, data.time_required_max),
      time_required_min: data.time_required_min,
      time_required_max: data.time_required_max,
      public: data.public,
      flags: data.flags,
      image: (data.imageid !== null && images.get(data.imageid)) || null,
      introduction_raw: data.introduction,
      introduction_rendered: rendered[0].rendered,
      conclusion_raw: data.conclusion,
      conclusion_rendered: rendered[1].rendered,
      documents: data.documents.map((id) => documents.get(id)).filter((d) => d !== undefined),
      featured_documentid: data.featured_documentid,
      featured_document_embed_url: featured?.download_url ?? '',
      featured_document_thumbnail_url: featured?.thumbnail ?? '',
      parts: data.parts.map((item) => this.item(item)),
      tools: data.tools.map((item) => this.item(item)),
      prerequisite_releases: data.prerequisite_releases ?? [],
      prerequisiteids: data.prerequisites,
      steps: stepDocs,
    };
  }

  /** One step in its response shape, rendering its lines (for step responses and 409 bodies). */
  async renderStep(
    guideid: number,
    stepid: number,
    orderby: number,
    revisionid: number,
    step: StepData,
  ): Promise<StepDocument> {
    const [rendered, images] = await Promise.all([
      this.wikiText.renderMany(step.lines.map((l) => l.text)),
      this.media.imageObjects(step.imageids),
    ]);
    return this.stepDocument(
      guideid,
      stepid,
      orderby,
      revisionid,
      step,
      rendered.map((r) => r.rendered),
      images,
    );
  }

  async renderLines(lines: StepData['lines']): Promise<StepDocument['lines']> {
    const rendered = await this.wikiText.renderMany(lines.map((l) => l.text));
    return lines.map((line, i) => ({
      text_raw: line.text,
      text_rendered: rendered[i].rendered,
      bullet: line.bullet,
      level: line.level,
      lineid: null,
    }));
  }

  private stepDocument(
    guideid: number,
    stepid: number,
    orderby: number,
    revisionid: number,
    step: StepData,
    html: string[],
    images: Map<number, ImageObjectDto>,
  ): StepDocument {
    return {
      stepid,
      guideid,
      orderby,
      revisionid,
      title: step.title,
      lines: step.lines.map((line, i) => ({
        text_raw: line.text,
        text_rendered: html[i] ?? '',
        bullet: line.bullet,
        level: line.level,
        lineid: null,
      })),
      media: {
        type: 'image',
        data: step.imageids.map((id) => images.get(id)).filter((image) => image !== undefined),
      },
      form: step.form ?? null,
    };
  }

  private item(item: StoredItem): GuideItemDto {
    return {
      text: item.name,
      type: item.type,
      quantity: item.quantity,
      notes: item.notes,
      url: wikiUrl(this.config.publicUrl, 'ITEM', item.name),
      // ITEM pages carry no thumbnail here: the "no image" picture, a PNG clients can keep offline.
      thumbnail: this.media.noImageUrl('thumbnail'),
      isoptional: false,
      featured: item.featured,
      wikiid: item.wikiid,
    };
  }
}
