import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventBus } from '../../platform/events/event-bus';
import { GuideChanged, GuideRevised } from '../guides/guide.events';
import { WikiChanged } from '../wikis/wiki.events';
import { SearchIndexerService } from './search-indexer.service';

/**
 * Keeps the search index current from the outbox: a guide's new patrolled revision (any language), its
 * publish, unpublish, delete, restore or author change, and every wiki write refresh that document's rows
 * from its patrolled state. Delivery is at least once and in the delivery's transaction, so a crash
 * between a commit and the indexing loses nothing and a redelivery rewrites the same rows.
 */
@Injectable()
export class SearchIndexSubscriber implements OnModuleInit {
  constructor(
    private readonly events: EventBus,
    private readonly indexer: SearchIndexerService,
  ) {}

  onModuleInit(): void {
    this.events.subscribeBatch(GuideChanged, 'search.guide-changed', (events) =>
      this.guides(events.map((e) => e.payload.guideid)),
    );
    this.events.subscribeBatch(GuideRevised, 'search.guide-revised', (events) =>
      this.guides(events.map((e) => e.payload.guideid)),
    );
    this.events.subscribeBatch(WikiChanged, 'search.wiki-changed', async (events) => {
      for (const wikiid of new Set(events.map((e) => e.payload.wikiid))) await this.indexer.reindexWiki(wikiid);
    });
  }

  private async guides(guideids: number[]): Promise<void> {
    for (const guideid of new Set(guideids)) await this.indexer.reindexGuide(guideid);
  }
}
