import { StepFormDto } from '../../step-forms/dto/step-form.dto';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CommentDto } from '../../comments/dto/comment.dto';
import { DocumentObjectDto } from '../../media/dto/document-object.dto';
import { ImageObjectDto } from '../../media/dto/image-object.dto';
import { UserLightDto } from '../../users/dto/user-response.dto';
import { BULLETS, DIFFICULTIES, GUIDE_TYPES } from '../guide-data';

/** Item of guide lists (docs/resources.md). */
export class GuideSummaryDto {
  @ApiProperty({ enum: ['guide'] })
  dataType: 'guide';
  guideid: number;
  /** Language of the text shown. */
  locale: string;
  /** The revision shown (the guide's concurrency token for edits is the newest one, see `unpatrolled`). */
  revisionid: number;
  /** UNIX time of the revision shown. */
  modified_date: number;
  /** Newest modification time of a prerequisite guide; 0 without prerequisites. */
  prereq_modified_date: number;
  url: string;
  @ApiProperty({ enum: GUIDE_TYPES })
  type: string;
  category: string;
  subject: string;
  title: string;
  summary: string;
  @ApiProperty({ enum: DIFFICULTIES, nullable: true, type: String })
  difficulty: string | null;
  /** Seconds. */
  time_required_max: number;
  public: boolean;
  /** Author. */
  userid: number;
  /** Author's display name. */
  username: string;
  /** Flag ids. */
  @ApiProperty({ type: [String] })
  flags: string[];
  @ApiProperty({ type: ImageObjectDto, nullable: true })
  image: ImageObjectDto | null;
}

export class StepLineDto {
  /** Wiki text of the line. Written as `text` (POST/PATCH steps). */
  text_raw: string;
  /** Sanitized HTML. */
  text_rendered: string;
  @ApiProperty({ enum: BULLETS })
  bullet: string;
  level: number;
  /** Lines have no identity of their own here: always null. */
  @ApiProperty({ type: 'integer', nullable: true })
  lineid: null;
}

export class StepMediaDto {
  @ApiProperty({ enum: ['image'] })
  type: 'image';
  @ApiProperty({ type: [ImageObjectDto] })
  data: ImageObjectDto[];
}

export class StepDto {
  stepid: number;
  /** Owning guide (a prerequisite's id for inlined prerequisite steps). */
  guideid: number;
  /** 1-based position within its own guide. */
  orderby: number;
  /** The step's own revision (name it when editing or deleting the step). */
  revisionid: number;
  title: string;
  @ApiProperty({ type: [StepLineDto] })
  lines: StepLineDto[];
  media: StepMediaDto;
  /** The step's form (E): typed fields operators fill in a work-log entry; null for none. */
  @ApiProperty({ type: StepFormDto, nullable: true })
  form: StepFormDto | null;
  @ApiProperty({ type: [CommentDto] })
  comments: CommentDto[];
  comment_count: number;
}

export class GuideItemDto {
  /** Part or tool name (the ITEM wiki title). Written as `name` (POST/PATCH guides). */
  text: string;
  type: string;
  quantity: number;
  notes: string;
  /** The ITEM wiki page. */
  url: string;
  /** The "no image" PNG (thumbnail size): item pages carry no thumbnail here. */
  thumbnail: string;
  isoptional: boolean;
  featured: boolean;
  wikiid: number;
}

export class PrerequisiteGuideDto extends GuideSummaryDto {}

/** GET /guides/{guideid} and the responses of guide writes. */
/** A prerequisite pinned to a release (`releaseid` null: the newest released release). */
export class PrerequisiteReleaseRefDto {
  guideid: number;
  @ApiProperty({ type: 'integer', nullable: true })
  releaseid: number | null;
}

export class GuideDetailDto extends GuideSummaryDto {
  /** The newest revision, patrolled or not: the value edits must send as `revisionid`. */
  head_revisionid: number;
  /** e.g. "30 minutes - 1 hour". */
  time_required: string;
  time_required_min: number;
  /** Wiki text. Written as `introduction`. */
  introduction_raw: string;
  introduction_rendered: string;
  /** Wiki text. Written as `conclusion`. */
  conclusion_raw: string;
  conclusion_rendered: string;
  @ApiProperty({ type: [DocumentObjectDto] })
  documents: DocumentObjectDto[];
  @ApiProperty({ type: 'integer', nullable: true })
  featured_documentid: number | null;
  /** Download URL of the featured document, or empty. */
  featured_document_embed_url: string;
  /** Thumbnail of the featured document, or empty. */
  featured_document_thumbnail_url: string;
  @ApiProperty({ type: [GuideItemDto] })
  parts: GuideItemDto[];
  @ApiProperty({ type: [GuideItemDto] })
  tools: GuideItemDto[];
  /** Readable prerequisites, in order (unreadable ones are left out). */
  @ApiProperty({ type: [PrerequisiteGuideDto] })
  prerequisites: PrerequisiteGuideDto[];
  /**
   * Prerequisites pinned to a release: each is shown (and its steps inlined) at that release's revision;
   * `releaseid` null follows the newest released release.
   */
  @ApiProperty({ type: [PrerequisiteReleaseRefDto] })
  prerequisite_releases: PrerequisiteReleaseRefDto[];
  /** Prerequisite steps first (unless excludePrerequisiteSteps), then the guide's own. */
  @ApiProperty({ type: [StepDto] })
  steps: StepDto[];
  @ApiProperty({ type: [CommentDto] })
  comments: CommentDto[];
  author: UserLightDto;
  /** The source language. */
  langid: string;
  /** Languages with a readable version, the source language first. */
  @ApiProperty({ type: [String] })
  available_langids: string[];
  created_date: number;
  /** First time the guide was made public; 0 if never. */
  published_date: number;
  /** Whether this revision is patrolled. */
  patrolled: boolean;
  /** For the caller. */
  can_edit: boolean;
  favorited: boolean;
  completed: boolean;
}

/** POST /guides/steps/lines/preview. */
export class LinesPreviewDto {
  @ApiProperty({ type: [StepLineDto] })
  lines: StepLineDto[];
}

export class GuideTeamDto {
  teamid: number;
  name: string;
  owner: number | null;
  url: string;
  @ApiPropertyOptional({ type: ImageObjectDto, nullable: true })
  image: null;
}

/** GET/DELETE /guides/{guideid}/teams… */
export class GuideTeamsDto {
  @ApiProperty({ type: [GuideTeamDto] })
  guideTeams: GuideTeamDto[];
  canIViewGuide: boolean;
  canIEditGuide: boolean;
  canIChangeGuidePrivacy: boolean;
}
