import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { GuideSummaryDto } from '../../guides/dto/guide-response.dto';
import { WikiLightDto } from '../../wikis/dto/wiki-response.dto';

/** A guide found: the guide summary guide lists return, with the matched text. */
export class GuideSearchResultDto extends GuideSummaryDto {
  /** Sanitized HTML: the matched words in `<mark>`, everything else escaped; `…` where text was cut. */
  @ApiProperty({ example: 'Replace a worn-out iPhone 6 <mark>battery</mark>.' })
  snippet: string;
}

/** A wiki or category found: its light object, with the matched text. */
export class WikiSearchResultDto extends WikiLightDto {
  /** Sanitized HTML: the matched words in `<mark>`, everything else escaped; `…` where text was cut. */
  @ApiProperty({ example: 'The iPhone 6, released in September 2014. The <mark>battery</mark> …' })
  snippet: string;
}

export const SEARCH_RESULT_SCHEMA = {
  oneOf: [{ $ref: getSchemaPath(GuideSearchResultDto) }, { $ref: getSchemaPath(WikiSearchResultDto) }],
  discriminator: { propertyName: 'dataType' },
};

/** The search envelope (as user search answers it). */
export class SearchResultDto {
  /** The query as given. */
  @ApiProperty({ example: 'battery' })
  search: string;
  limit: number;
  offset: number;
  /** How many documents the caller may read match (whatever the page). */
  totalResults: number;
  moreResults: boolean;
  @ApiProperty({ type: 'array', items: SEARCH_RESULT_SCHEMA })
  results: (GuideSearchResultDto | WikiSearchResultDto)[];
}

export const SUGGEST_RESULT_SCHEMA = {
  oneOf: [{ $ref: getSchemaPath(GuideSummaryDto) }, { $ref: getSchemaPath(WikiLightDto) }],
  discriminator: { propertyName: 'dataType' },
};

/** Suggestions: at most 10, grouped by kind in the order the kinds were asked for. */
export class SuggestResultDto {
  /** The query as given. */
  @ApiProperty({ example: 'iph' })
  query: string;
  @ApiProperty({ type: 'array', items: SUGGEST_RESULT_SCHEMA })
  results: (GuideSummaryDto | WikiLightDto)[];
}
