import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import type { GuideItemUse, GuideLookup, GuideSummaryView } from '../../platform/documents/guide-directory';
import { GuideQueriesService } from './guide-queries.service';
import { GuideRevisionsRepository } from './guide-revisions.repository';

/** What the guides module tells modules below it (GuideDirectory): summaries as GET /guides lists them, parts and tools. */
@Injectable()
export class GuideLookupProvider implements GuideLookup {
  constructor(
    private readonly queries: GuideQueriesService,
    private readonly revisions: GuideRevisionsRepository,
  ) {}

  async summaries(guideids: number[], caller: AuthenticatedUser | undefined): Promise<GuideSummaryView[]> {
    return this.queries.summariesOf(guideids, caller);
  }

  async items(revisionids: number[]): Promise<Map<number, { parts: GuideItemUse[]; tools: GuideItemUse[] }>> {
    const stored = await this.revisions.revisionItems(revisionids);
    const uses = (items: { wikiid: number; name: string }[]) => items.map(({ wikiid, name }) => ({ wikiid, name }));
    return new Map([...stored].map(([id, { parts, tools }]) => [id, { parts: uses(parts), tools: uses(tools) }]));
  }
}
