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

/** A public, non-deleted guide of the category (facts kept from guide events). */
export class CategoryGuideDto {
  @ApiProperty({ enum: ['guide'] })
  dataType: 'guide';
  guideid: number;
  title: string;
  category: string;
  url: string;
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
  /** CATEGORY: public guides in this category. */
  guides?: CategoryGuideDto[];
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
