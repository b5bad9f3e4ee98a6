import type { GuideSummaryDto } from '../guides/dto/guide-response.dto';
import type { ImageObjectDto } from '../media/dto/image-object.dto';
import type { WikiLightDto } from '../wikis/dto/wiki-response.dto';
import type { GuideSearchResultDto, WikiSearchResultDto } from './dto/search-response.dto';
import type { SearchHit } from './search.repository';
import { mentions, snippet } from './snippet';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The light object of a wiki hit, from what the index stored with it. */
export function toWikiLight(hit: SearchHit): WikiLightDto {
  const data = hit.data;
  const summary = text(data.summary);
  return {
    dataType: 'wiki',
    wikiid: hit.docid,
    namespace: hit.namespace,
    title: text(data.title),
    display_title: text(data.display_title) || text(data.title),
    langid: hit.langid,
    summary,
    text: summary,
    url: text(data.url),
    image: (data.image as ImageObjectDto | null | undefined) ?? null,
    modified_date: hit.modifiedDate,
  };
}

/** The snippet of a hit: around the first matched word of its body, else of its title. */
export function snippetOf(hit: SearchHit, words: string[]): string {
  return mentions(hit.body, words) ? snippet(hit.body, words) : snippet(hit.title, words);
}

/**
 * Search results in hit order: guides as their summaries (a guide whose summary could not be loaded is
 * left out), wikis as light objects; each with its snippet.
 */
export function toSearchResults(
  hits: SearchHit[],
  guides: Map<number, GuideSummaryDto>,
  words: string[],
): (GuideSearchResultDto | WikiSearchResultDto)[] {
  return hits.flatMap((hit): (GuideSearchResultDto | WikiSearchResultDto)[] => {
    if (hit.doctype === 'WIKI') return [{ ...toWikiLight(hit), snippet: snippetOf(hit, words) }];
    const summary = guides.get(hit.docid);
    return summary ? [{ ...summary, snippet: snippetOf(hit, words) }] : [];
  });
}

/**
 * Spreads at most `max` suggestions over the kinds so that none dominates (one of each kind in turn
 * while any is left), then groups them in the order the kinds were asked for. Pure.
 */
export function spreadSuggestions<T>(buckets: T[][], max: number): T[] {
  const taken = buckets.map(() => 0);
  let total = 0;
  let progress = true;
  while (total < max && progress) {
    progress = false;
    for (let i = 0; i < buckets.length && total < max; i += 1) {
      if (taken[i] < buckets[i].length) {
        taken[i] += 1;
        total += 1;
        progress = true;
      }
    }
  }
  return buckets.flatMap((bucket, i) => bucket.slice(0, taken[i]));
}
