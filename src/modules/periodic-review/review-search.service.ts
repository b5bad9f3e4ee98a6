import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { unprocessable } from '../../common/http/api-errors';
import { DOCTYPES, DocumentRegistry } from '../../platform/documents/document-registry';
import type { ReviewSearchQueryDto, SearchHitDto } from './dto/search.dto';
import { PeriodicReviewRepository } from './periodic-review.repository';

/** Title matches considered per doctype before the editable filter and the page. */
export const SEARCH_CANDIDATES = 1000;

/** P10: documents the caller may edit whose title contains the term, with their schedule membership. */
@Injectable()
export class ReviewSearchService {
  constructor(
    private readonly repository: PeriodicReviewRepository,
    private readonly documents: DocumentRegistry,
  ) {}

  async search(term: string, query: ReviewSearchQueryDto, caller: AuthenticatedUser): Promise<SearchHitDto[]> {
    if (term.length < 1 || term.length > 100) {
      throw unprocessable('searchTerm must be 1-100 characters', 'searchTerm');
    }
    const hits: SearchHitDto[] = [];
    for (const doctype of query.doctype ? [query.doctype] : DOCTYPES) {
      const provider = this.documents.of(doctype);
      const ids = await provider.searchTitles(term, SEARCH_CANDIDATES);
      if (!ids.length) continue;
      const [editable, found, memberships] = await Promise.all([
        provider.editable(caller, ids),
        provider.find(ids),
        this.repository.membershipsOf(doctype, ids),
      ]);
      const member = new Map(memberships.map((m) => [m.docid, m]));
      for (const id of ids) {
        const info = found.get(id);
        if (!info || !editable.has(id)) continue;
        const m = member.get(id);
        hits.push({
          doctype,
          docid: id,
          title: info.title,
          url: info.url,
          prsid: m?.prsid ?? null,
          prdid: m?.prdid ?? null,
        });
      }
    }
    return hits.slice(query.offset, query.offset + query.limit);
  }
}
