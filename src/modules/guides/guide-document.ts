import type { GuideDetailDto, StepDto } from './dto/guide-response.dto';

/** What a stored guide revision document holds, and the pure functions over it. */

export type StepDocument = Omit<StepDto, 'comments' | 'comment_count'>;

/** The caller-independent part of a guide revision, as stored in `guide_revisions.document`. */
export type GuideDocument = Pick<
  GuideDetailDto,
  | 'guideid'
  | 'url'
  | 'type'
  | 'category'
  | 'subject'
  | 'title'
  | 'summary'
  | 'difficulty'
  | 'time_required'
  | 'time_required_min'
  | 'time_required_max'
  | 'public'
  | 'flags'
  | 'image'
  | 'introduction_raw'
  | 'introduction_rendered'
  | 'conclusion_raw'
  | 'conclusion_rendered'
  | 'documents'
  | 'featured_documentid'
  | 'featured_document_embed_url'
  | 'featured_document_thumbnail_url'
  | 'parts'
  | 'tools'
  | 'prerequisite_releases'
> & { prerequisiteids: number[]; steps: StepDocument[] };

/** What a guide list item shows of a revision, stored apart from the document (`guide_revisions.summary`). */
export type GuideSummaryDocument = Pick<
  GuideDocument,
  | 'url'
  | 'type'
  | 'category'
  | 'subject'
  | 'title'
  | 'summary'
  | 'difficulty'
  | 'time_required_max'
  | 'public'
  | 'flags'
  | 'image'
  | 'prerequisiteids'
>;

export function summaryDocument(document: GuideDocument): GuideSummaryDocument {
  const { url, type, category, subject, title, summary, difficulty, time_required_max, flags, image } = document;
  return {
    url,
    type,
    category,
    subject,
    title,
    summary,
    difficulty,
    time_required_max,
    public: document.public,
    flags,
    image,
    prerequisiteids: document.prerequisiteids,
  };
}

/** A step's translated text as stored in a translation document; `revisionid` is its step-translation revision. */
export interface TranslatedStepDocument {
  revisionid: number;
  title: string;
  lines: { text_raw: string; text_rendered: string }[];
}

export type TranslationDocument = Pick<
  GuideDetailDto,
  'title' | 'summary' | 'introduction_raw' | 'introduction_rendered' | 'conclusion_raw' | 'conclusion_rendered'
> & { steps?: Record<string, TranslatedStepDocument> };

/**
 * A source step shown in a language: the translated title and line texts (by position; source lines beyond
 * the translation stay as they are), and a revisionid that changes when either the step or its translation
 * does (both come from the step-revision sequence, so the larger one is the newer state).
 */
export function translateStep(step: StepDocument, translated: TranslatedStepDocument | undefined): StepDocument {
  if (!translated) return step;
  return {
    ...step,
    revisionid: Math.max(step.revisionid, translated.revisionid),
    title: translated.title,
    lines: step.lines.map((line, i) => (translated.lines[i] ? { ...line, ...translated.lines[i] } : line)),
  };
}
