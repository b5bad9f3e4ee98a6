import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Public } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { CachedResponse } from '../../platform/response-cache/cached-response';
import { ApiErrors } from '../../common/openapi/api-error-responses';
import { GuideSummaryDto } from '../guides/dto/guide-response.dto';
import { WikiLightDto } from '../wikis/dto/wiki-response.dto';
import { SearchQueryDto, SuggestQueryDto } from './dto/search-query.dto';
import {
  GuideSearchResultDto,
  SearchResultDto,
  SuggestResultDto,
  WikiSearchResultDto,
} from './dto/search-response.dto';
import { SEARCH_ANSWER_SOURCES, SearchService } from './search.service';

const ENGINE_NOTES =
  'Words are joined with AND and each matches by prefix (`batt` finds "battery"); case and accents do not matter ' +
  '(`résumé` finds "resume"); text in double quotes is a phrase. Operators and punctuation in the query are plain ' +
  'text (never syntax). On MySQL/MariaDB (InnoDB FULLTEXT) words shorter than 3 characters are not indexed: they only ' +
  'match as the start of longer words and do not have to be present, and the InnoDB stopwords (the, of, with, for, …) ' +
  'are ignored; on SQLite (FTS5) every word counts.';

@ApiTags('Search')
@ApiExtraModels(GuideSearchResultDto, WikiSearchResultDto, GuideSummaryDto, WikiLightDto)
@Controller()
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @Get('search/:query')
  @ApiErrors(422)
  @Public()
  @ApiOperation({
    summary: 'Search guides, wikis and categories',
    description:
      'Full-text search over the patrolled text of guides (title, summary, introduction, steps, conclusion, parts, ' +
      'tools, category) and wikis (display title, title, contents). Title matches rank first, then relevance, then ' +
      'the newest. Results and `totalResults` hold only what the caller may read (private guides only for those ' +
      'allowed; deleted documents never), and snippets come from patrolled text only. Guides are answered as guide ' +
      'lists answer them (`dataType: "guide"`), wikis as light objects (`dataType: "wiki"`), each with `snippet`. ' +
      "`langid` searches the text of that language (translations included); without it, each document's " +
      "source language. Guide results are the summary in the guide's source language. " +
      `${ENGINE_NOTES} The query has 1 to 200 characters (422 otherwise).`,
  })
  @ApiParam({ name: 'query', description: 'The search text (URL-encoded).', example: 'battery' })
  @ApiOkResponse({ type: SearchResultDto })
  // The index is written after every guide or wiki change: a token of its own keeps those from dropping the
  // guide answers, and a search for signed-in callers (whose access differs) is built each time.
  @CachedResponse({ family: 'answers-search', sources: SEARCH_ANSWER_SOURCES, callers: 'anonymous' })
  find(
    @Param('query') query: string,
    @Query() options: SearchQueryDto,
    @CurrentUser() caller?: AuthenticatedUser,
  ): Promise<SearchResultDto> {
    return this.search.search(query, options, caller);
  }

  @Get('search')
  @ApiErrors(422)
  @Public()
  @ApiOperation({ summary: 'Search without a query', description: 'Always 422: the query must not be empty.' })
  @ApiOkResponse({ type: SearchResultDto })
  findNothing(@Query() options: SearchQueryDto, @CurrentUser() caller?: AuthenticatedUser): Promise<SearchResultDto> {
    return this.search.search('', options, caller);
  }

  @Get('suggest/:query')
  @ApiErrors(422)
  @Public()
  @ApiOperation({
    summary: 'Search suggestions',
    description:
      'Up to 10 documents whose title matches the query, drawn from the requested `doctypes` and readable by the ' +
      'caller, spread over the doctypes so that none dominates, then grouped in the order the doctypes were asked ' +
      'for. `guideid:<id>` answers that guide alone (when the caller may read it). An empty query answers no ' +
      `results. ${ENGINE_NOTES}`,
  })
  @ApiParam({ name: 'query', description: 'The text typed so far (URL-encoded).', example: 'iph' })
  @ApiOkResponse({ type: SuggestResultDto })
  suggest(
    @Param('query') query: string,
    @Query() options: SuggestQueryDto,
    @CurrentUser() caller?: AuthenticatedUser,
  ): Promise<SuggestResultDto> {
    return this.search.suggest(query, options, caller);
  }

  @Get('suggest')
  @ApiErrors(422)
  @Public()
  @ApiOperation({ summary: 'Suggestions for an empty query', description: 'Always `results: []`.' })
  @ApiOkResponse({ type: SuggestResultDto })
  suggestNothing(
    @Query() options: SuggestQueryDto,
    @CurrentUser() caller?: AuthenticatedUser,
  ): Promise<SuggestResultDto> {
    return this.search.suggest('', options, caller);
  }
}
