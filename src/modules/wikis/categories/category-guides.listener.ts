import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventBus } from '../../../platform/events/event-bus';
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
export class CategoryGuidesListener implements OnModuleInit {
  constructor(
    private readonly events: EventBus,
    private readonly categories: CategoriesRepository,
  ) {}

  onModuleInit(): void {
    // A batch (one transaction, events in eventid order): only each guide's last state matters.
    this.events.subscribeBatch(GuideChanged, 'wikis.category-guides', (events) =>
      this.applyAll(events.map((e) => e.payload)),
    );
  }

  private async applyAll(payloads: GuideChangedPayload[]): Promise<void> {
    const last = new Map<number, GuideChangedPayload['after']>();
    for (const { guideid, after } of payloads) if (Number.isInteger(guideid)) last.set(guideid, after);
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
