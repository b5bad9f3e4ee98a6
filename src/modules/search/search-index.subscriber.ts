import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventBus } from '../../platform/events/event-bus';
import { GuideChanged, GuideRevised } from '../guides/guide.events';
import { ReleaseReleased, ReleaseRemoved, type ReleaseEventPayload } from '../releases/release.events';
import { WikiChanged } from '../wikis/wiki.events';
import type { DeliveredEvent } from '../../platform/events/domain-event';
import { SearchIndexerService } from './search-indexer.service';

/**
 * Keeps the search index current from the outbox: a guide's new patrolled revision (any language), its
 * publish, unpublish, delete, restore or author change, every wiki write, and a release going live or
 * being removed refresh that document's rows from what readers see of it. Delivery is at least once and in the delivery's transaction, so a crash
 * between a commit and the indexing loses nothing and a redelivery rewrites the same rows.
 */
@Injectable()
export class SearchIndexSubscriber implements OnModuleInit {
  constructor(
    private readonly events: EventBus,
    private readonly indexer: SearchIndexerService,
  ) {}

  onModuleInit(): void {
    // One subscriber for both: a patrolled save publishes both, and the guide is indexed once.
    this.events.subscribeBatch([GuideChanged, GuideRevised], 'search.guides', (events) =>
      this.guides(events.map((e) => e.payload.guideid)),
    );
    this.events.subscribeBatch(ReleaseReleased, 'search.release-released', (events) => this.released(events));
    this.events.subscribeBatch(ReleaseRemoved, 'search.release-removed', (events) => this.released(events));
    this.events.subscribeBatch(WikiChanged, 'search.wiki-changed', async (events) => {
      for (const wikiid of new Set(events.map((e) => e.payload.wikiid))) await this.indexer.reindexWiki(wikiid);
    });
  }

  /** A release going live or being removed changes what readers see of its document. */
  private async released(events: DeliveredEvent<ReleaseEventPayload>[]): Promise<void> {
    const guides = events.filter(({ payload }) => payload.doctype === 'GUIDE').map(({ payload }) => payload.docid);
    await this.indexer.reindexGuides(guides);
    const wikis = events.filter(({ payload }) => payload.doctype !== 'GUIDE').map(({ payload }) => payload.docid);
    for (const wikiid of new Set(wikis)) await this.indexer.reindexWiki(wikiid);
  }

  private guides(guideids: number[]): Promise<void> {
    return this.indexer.reindexGuides(guideids);
  }
}
