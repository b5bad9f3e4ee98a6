import type { CommentDto } from '../comments/dto/comment.dto';
import type { UserLightDto } from '../users/dto/user-response.dto';
import type { GuideDocument, GuideSummaryDocument, TranslationDocument } from './guide-document';
import type { GuideFragments } from './guide-fragments';
import type { GuideRow, StoredRevision } from './guide-rows';

/** What guide detail is asked for and what it reads before writing the answer (guide-reader.service.ts). */

export interface DetailOptions {
  unpatrolled?: boolean;
  langid?: string;
  excludePrerequisiteSteps?: boolean;
  /**
   * The row of a guide this request has just created (its revision's document as an object): the answer
   * is built from it instead of reading the guide back, and without a comments query (a new guide has none).
   */
  created?: GuideRow;
}

/** What a detail needs of a source revision's document, cut into fragments or as the object. */
export type SourceView = Pick<GuideFragments, 'prerequisiteids' | 'prerequisiteReleases' | 'stepids' | 'summary'> & {
  document(): GuideDocument;
};

/** A detail read and checked: what toDto and toJson write out. */
export interface DetailParts {
  guideid: number;
  row: GuideRow;
  canEdit: boolean;
  source: SourceView;
  /** Only when the view is translated. */
  translation: TranslationDocument | undefined;
  shownRevision: StoredRevision;
  prerequisites: GuideRow[];
  prerequisiteSummaries: GuideSummaryDocument[];
  /** Prerequisites whose steps are inlined, in order. */
  inlined: SourceView[];
  comments: Map<string, CommentDto[]>;
  author: UserLightDto;
}
