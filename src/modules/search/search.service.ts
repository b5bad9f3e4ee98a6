import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { unprocessable } from '../../common/http/api-errors';
import { DocumentRegistry } from '../../platform/documents/document-registry';
import type { GuideSummaryDto } from '../guides/dto/guide-response.dto';
import { GUIDE_ANSWER_SOURCES, GuideReaderService } from '../guides/guide-reader.service';
import { GuideSummariesService } from '../guides/guide-summaries.service';
import { GuidesRepository } from '../guides/guides.repository';
import type { WikiLightDto } from '../wikis/dto/wiki-response.dto';
import type { SearchQueryDto, SuggestQueryDto } from './dto/search-query.dto';
import type { SearchResultDto, SuggestResultDto } from './dto/search-response.dto';
import { isEmptyQuery, parseSearchQuery, queryWords } from './search-query';
import { spreadSuggestions, toSearchResults, toWikiLight } from './search.mapper';
import { SEARCH_DOCID_COLUMN, SearchRepository, type SearchKind, type SuggestKind } from './search.repository';

/** Longest query accepted (characters, after URL decoding). */
export const MAX_QUERY_LENGTH = 200;
/** Suggestions answered at most. */
export const MAX_SUGGESTIONS = 10;

const SEARCH_KINDS: SearchKind[] = ['guide', 'wiki', 'category'];

/** iFixit's suggest doctypes → our kinds (`question`/`post` are known but this service has none). */
const SUGGEST_DOCTYPES: Record<string, SuggestKind[]> = {
  guide: ['guide'],
  topic: ['topic'],
  device: ['topic'],
  category: ['topic'],
  item: ['item'],
  wiki: ['wiki'],
  question: [],
  post: [],
  all: ['topic', 'guide'],
};

/**
 * The tables an anonymous search is read from: the index, and what its guide results (guide
 * summaries) and access checks read. kept-search-answers.e2e-spec.ts checks the list against the statements.
 */
export const SEARCH_ANSWER_SOURCES = ['search_documents', 'search_fts', ...GUIDE_ANSWER_SOURCES, 'wikis'];

@Injectable()
export class SearchService {
  constructor(
    private readonly index: SearchRepository,
    private readonly documents: DocumentRegistry,
    private readonly guides: GuidesRepository,
    private readonly reader: GuideReaderService,
    private readonly summaries: GuideSummariesService,
  ) {}

  async search(raw: string, options: SearchQueryDto, caller?: AuthenticatedUser): Promise<SearchResultDto> {
    const text = checkedQuery(raw);
    const query = parseSearchQuery(text);
    const envelope = { search: raw, limit: options.limit, offset: options.offset };
    if (isEmptyQuery(query)) return { ...envelope, totalResults: 0, moreResults: false, results: [] };
    const { hits, total } = await this.index.search({
      query,
      kinds: searchKinds(options.filter),
      langid: options.langid,
      access: this.access(caller),
      offset: options.offset,
      limit: options.limit,
    });
    const guides = await this.guideSummaries(
      hits.filter((h) => h.doctype === 'GUIDE').map((h) => h.docid),
      caller,
    );
    return {
      ...envelope,
      totalResults: total,
      moreResults: options.offset + hits.length < total,
      results: toSearchResults(hits, guides, queryWords(query)),
    };
  }

  async suggest(raw: string, options: SuggestQueryDto, caller?: AuthenticatedUser): Promise<SuggestResultDto> {
    const kinds = suggestKinds(options.doctypes);
    const text = raw.trim();
    if (!text) return { query: raw, results: [] };
    const shortcut = /^guideid:\s*(\d{1,9})$/i.exec(text);
    if (shortcut) return { query: raw, results: await this.reader.summariesOf(caller, [Number(shortcut[1])]) };
    const query = parseSearchQuery(checkedQuery(raw));
    if (isEmptyQuery(query) || !kinds.length) return { query: raw, results: [] };
    const hits = await this.index.suggest({
      query,
      kinds,
      langid: options.langid,
      access: this.access(caller),
      perKind: MAX_SUGGESTIONS,
    });
    const chosen = spreadSuggestions(
      kinds.map((kind) => hits.filter((hit) => hit.kind === kind)),
      MAX_SUGGESTIONS,
    );
    const guides = await this.guideSummaries(
      chosen.filter((h) => h.doctype === 'GUIDE').map((h) => h.docid),
      caller,
    );
    return {
      query: raw,
      results: chosen.flatMap((hit): (GuideSummaryDto | WikiLightDto)[] => {
        if (hit.doctype === 'WIKI') return [toWikiLight(hit)];
        const summary = guides.get(hit.docid);
        return summary ? [summary] : [];
      }),
    };
  }

  private access(caller?: AuthenticatedUser) {
    return {
      guide: this.documents.of('GUIDE').accessSql(caller, SEARCH_DOCID_COLUMN),
      wiki: this.documents.of('WIKI').accessSql(caller, SEARCH_DOCID_COLUMN),
    };
  }

  /** Guide summaries as guide lists answer them (one statement; the search already checked access). */
  private async guideSummaries(guideids: number[], caller?: AuthenticatedUser): Promise<Map<number, GuideSummaryDto>> {
    if (!guideids.length) return new Map();
    const rows = await this.guides.summaryRows(guideids, 'summary');
    const summaries = await this.summaries.summaries(rows, caller);
    return new Map(summaries.map((summary) => [summary.guideid, summary]));
  }
}

/** 422 unless the query has 1 to 200 characters besides surrounding spaces. */
function checkedQuery(raw: string): string {
  const text = raw.trim();
  if (!text) throw unprocessable('query must not be empty', 'query');
  if ([...text].length > MAX_QUERY_LENGTH)
    throw unprocessable(`query must be at most ${MAX_QUERY_LENGTH} characters`, 'query');
  return text;
}

function searchKinds(filter: string | undefined): SearchKind[] {
  const named = (filter ?? 'all').split(',').map((part) => part.trim());
  if (named.includes('all')) return SEARCH_KINDS;
  return SEARCH_KINDS.filter((kind) => named.includes(kind));
}

/** The kinds asked for, in order, without repeats; 422 when none of the named doctypes is known. */
function suggestKinds(doctypes: string | undefined): SuggestKind[] {
  const named = (doctypes ?? 'all')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => Object.hasOwn(SUGGEST_DOCTYPES, part));
  if (!named.length) {
    throw unprocessable(
      'doctypes must name at least one of guide, topic, device, category, item, wiki, question, post, all',
      'doctypes',
    );
  }
  return [...new Set(named.flatMap((name) => SUGGEST_DOCTYPES[name]))];
}
