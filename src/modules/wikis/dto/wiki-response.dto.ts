import type { GuideSummaryView } from '../../../platform/documents/guide-directory';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DocumentObjectDto } from '../../media/dto/document-object.dto';
import { ImageObjectDto } from '../../media/dto/image-object.dto';
import { WIKI_NAMESPACES } from '../wiki-namespaces';

/** Light wiki object: items of wiki lists, children and ancestors. */
export class WikiLightDto {
  @ApiProperty({ enum: ['wiki'] })
  dataType: 'wiki';
  wikiid: number;
  @ApiProperty({ enum: WIKI_NAMESPACES })
  namespace: string;
  title: string;
  display_title: string;
  /** Language of the text shown (the requested one when a patrolled translation exists, else the source). */
  langid: string;
  /** The description. */
  summary: string;
  /** Same as summary (the iFixit list `text`). */
  text: string;
  /** Absolute page URL. */
  url: string;
  @ApiProperty({ type: ImageObjectDto, nullable: true })
  image: ImageObjectDto | null;
  /** UNIX time of the newest patrolled change. */
  modified_date: number;
}

export class LinkedWikiDto {
  wikiid: number;
  namespace: string;
  title: string;
}

/** A guide summary item as `GET /guides` lists it. */
const guideSummaries = (description: string) =>
  ApiPropertyOptional({ type: 'array', items: { $ref: '#/components/schemas/GuideSummaryDto' }, description });

/** One ITEM page used as a part by the category's guides. */
export class CategoryPartDto {
  /** The ITEM page's title. */
  name: string;
  /** The same as `name`. */
  tag: string;
  /** The ITEM page. */
  url: string;
  /** How many of the category's guides use it. */
  count: number;
}

export class CategoryPartsDto {
  /** The category's page. */
  url: string;
  /** Number of distinct parts. */
  total: number;
  /** By name. */
  @ApiProperty({ type: [CategoryPartDto] })
  categories: CategoryPartDto[];
}

/** One ITEM page used as a tool by the category's guides. */
export class CategoryToolDto {
  /** The ITEM page's display title. */
  title: string;
  /** The ITEM page. */
  target_url: string;
  /** The ITEM page's image (standard size), or the placeholder image when it has none. */
  image_url: string;
  /** No store codes here: always null. */
  @ApiProperty({ type: 'string', nullable: true })
  itemcode: string | null;
}

export class WikiInfoDto {
  name: string;
  value: string;
}

export class WikiSupplierResponseDto {
  @ApiProperty({ name: 'part_#' })
  'part_#': string;
  type: string;
  supplier: string;
  url: string;
}

/**
 * Wiki detail. Common fields for every namespace; the others only for the namespaces listed on them
 * (NAMESPACE_RULES in wiki-namespaces.ts).
 */
export class WikiDetailDto {
  wikiid: number;
  /** Language of this version. */
  langid: string;
  @ApiProperty({ enum: WIKI_NAMESPACES })
  namespace: string;
  title: string;
  display_title: string;
  /** The revision shown: newest patrolled, or newest with `unpatrolled`. Writes must name the newest. */
  revisionid: number;
  /** UNIX time of the revision shown. */
  modified_date: number;
  created_date: number;
  /** Userid of the wiki's creator. */
  author: number;
  contents_raw: string;
  /** Sanitized HTML; guide, wiki and document references are links. */
  contents_rendered: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Document tree (type, attrs, marks, text, content).',
  })
  contents_json: object;
  /** Existing wikis referenced by the contents, in order of first appearance. */
  linked_wikis: LinkedWikiDto[];
  @ApiProperty({ type: ImageObjectDto, nullable: true })
  image: ImageObjectDto | null;
  /** Flag ids (e.g. WIKI_STUB). */
  flags: string[];
  tags: string[];
  /** Whether clients show a table of contents (Dozuki). */
  table_of_contents: boolean;
  /** Whether the caller may edit this wiki. */
  can_edit: boolean;
  /** Languages with a patrolled, live version. */
  available_langids: string[];
  /** For a translation: the source revision it started from; else null. */
  @ApiProperty({ type: 'integer', nullable: true })
  source_revisionid: number | null;
  /** CATEGORY, ITEM, INFO, WIKI. */
  description?: string;
  /** CATEGORY: parent category title, null at the top level. */
  @ApiPropertyOptional({ type: 'string', nullable: true })
  parent?: string | null;
  /** CATEGORY: closest parent first. */
  ancestors?: WikiLightDto[];
  /** CATEGORY: child categories by title. */
  children?: WikiLightDto[];
  @guideSummaries('CATEGORY: the public guides in this category, as `GET /guides` lists them (by title).')
  guides?: GuideSummaryView[];
  @guideSummaries('CATEGORY: those of `guides` flagged GUIDE_STARRED or GUIDE_FEATURED_STUDENT.')
  featured_guides?: GuideSummaryView[];
  /** CATEGORY: the ITEM pages `guides` use as parts. */
  parts?: CategoryPartsDto;
  /** CATEGORY: the ITEM pages `guides` use as tools, by title. */
  @ApiPropertyOptional({ type: [CategoryToolDto] })
  tools?: CategoryToolDto[];
  /** CATEGORY: attached documents. */
  documents?: DocumentObjectDto[];
  /** CATEGORY, ITEM. */
  info?: WikiInfoDto[];
  /** ITEM. */
  suppliers?: WikiSupplierResponseDto[];
  /** CATEGORY: 0–10 or null. */
  @ApiPropertyOptional({ type: 'integer', nullable: true })
  repairability_score?: number | null;
}

/** Answer of the wiki tag routes: the detail plus its URLs. */
export class WikiTaggedDetailDto extends WikiDetailDto {
  /** Absolute page URL. */
  url: string;
  /** Same as url (kept for iFixit clients). */
  fullUrl: string;
  /** Absolute URL of the page's editor. */
  editUrl: string;
}

/** `{hierarchy, display_titles}`: a node maps child titles to subtrees; a leaf is null. */
export class CategoryHierarchyDto {
  @ApiProperty({ type: 'object', additionalProperties: true, example: { Electronics: { Phone: { iPhone: null } } } })
  hierarchy: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { Phone: 'Phone' } })
  display_titles: Record<string, string>;
}

/** The category's identification section: how to tell which device this is. */
export class CategoryIdentificationDto {
  wikiid: number;
  title: string;
  display_title: string;
  langid: string;
  revisionid: number;
  @ApiProperty({ type: ImageObjectDto, nullable: true })
  image: ImageObjectDto | null;
  /** The category's name/value facts (model numbers, release dates…). */
  info: WikiInfoDto[];
  /** Wiki text of the contents section headed "Identification" (up to the next heading of the same or a higher level); empty when there is none. */
  identification_raw: string;
  identification_rendered: string;
  @ApiProperty({ type: 'object', additionalProperties: true })
  identification_json: object;
}
