import { Injectable } from '@nestjs/common';
import { OnEvents } from '../../platform/events/on-event.decorator';
import { GuideChanged, GuideRevised, type GuideChangedPayload, type GuideRevisedPayload } from '../guides/guide.events';
import { ReleaseReleased, ReleaseRemoved, type ReleaseEventPayload } from '../releases/release.events';
import { WikiChanged, type WikiChangedPayload } from '../wikis/wiki.events';
import type { DeliveredEvent } from '../../platform/events/domain-event';
import { SearchIndexerService } from './search-indexer.service';

/**
 * Keeps the search index current from the outbox: a guide's new patrolled revision (any language), its
 * publish, unpublish, delete, restore or author change, every wiki write, and a release going live or
 * being removed refresh that document's rows from what readers see of it. Delivery is at least once and in the delivery's transaction, so a crash
 * between a commit and the indexing loses nothing and a redelivery rewrites the same rows.
 */
@Injectable()
export class SearchIndexSubscriber {
  constructor(private readonly indexer: SearchIndexerService) {}

  /** One subscriber for both: a patrolled save publishes both, and the guide is indexed once. */
  @OnEvents([GuideChanged, GuideRevised], 'search.guides')
  async guidesChanged(events: DeliveredEvent<GuideChangedPayload | GuideRevisedPayload>[]): Promise<void> {
    await this.indexer.reindexGuides(events.map((e) => e.payload.guideid));
  }

  @OnEvents(WikiChanged, 'search.wiki-changed')
  async wikisChanged(events: DeliveredEvent<WikiChangedPayload>[]): Promise<void> {
    for (const wikiid of new Set(events.map((e) => e.payload.wikiid))) await this.indexer.reindexWiki(wikiid);
  }

  /** A release going live or being removed changes what readers see of its document. */
  @OnEvents(ReleaseReleased, 'search.release-released')
  @OnEvents(ReleaseRemoved, 'search.release-removed')
  async released(events: DeliveredEvent<ReleaseEventPayload>[]): Promise<void> {
    const guides = events.filter(({ payload }) => payload.doctype === 'GUIDE').map(({ payload }) => payload.docid);
    await this.indexer.reindexGuides(guides);
    const wikis = events.filter(({ payload }) => payload.doctype !== 'GUIDE').map(({ payload }) => payload.docid);
    for (const wikiid of new Set(wikis)) await this.indexer.reindexWiki(wikiid);
  }
}
