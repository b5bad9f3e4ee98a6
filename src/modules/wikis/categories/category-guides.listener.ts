import { Injectable } from '@nestjs/common';
import type { DeliveredEvent } from '../../../platform/events/domain-event';
import { OnEvents } from '../../../platform/events/on-event.decorator';
import { GuideChanged, type GuideChangedPayload } from '../../guides/guide.events';
import { titleHash } from '../wiki-namespaces';
import { CategoriesRepository, type CategoryGuideFacts } from './categories.repository';

/**
 * Keeps `wiki_category_guides` (one row per public, non-deleted guide) from `guide.changed` events, so
 * the wikis module knows which categories have guides without querying the guides module. Events come
 * through the outbox (after commit, at least once, in order per guide); handlers apply the event's
 * `after` state, so a repeated delivery is harmless.
 */
@Injectable()
export class CategoryGuidesListener {
  constructor(private readonly categories: CategoriesRepository) {}

  /** A batch (one transaction, events in eventid order): only each guide's last state matters. */
  @OnEvents(GuideChanged, 'wikis.category-guides')
  async guidesChanged(events: DeliveredEvent<GuideChangedPayload>[]): Promise<void> {
    const last = new Map<number, GuideChangedPayload['after']>();
    for (const { payload } of events) if (Number.isInteger(payload.guideid)) last.set(payload.guideid, payload.after);
    const forget: number[] = [];
    const save: CategoryGuideFacts[] = [];
    for (const [guideid, after] of last) {
      if (!after || !after.public || after.deleted || typeof after.category !== 'string') forget.push(guideid);
      else
        save.push({
          guideid,
          category: after.category.slice(0, 255),
          categoryHash: titleHash(after.category),
          title: String(after.title ?? '').slice(0, 255),
        });
    }
    await this.categories.forgetGuides(forget);
    await this.categories.saveGuides(save);
  }
}
