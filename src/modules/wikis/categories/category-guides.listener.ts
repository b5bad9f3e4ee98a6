import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventBus, type DomainEvent } from '../../../common/events/event-bus';
import { titleHash } from '../wiki-namespaces';
import { CategoriesRepository } from './categories.repository';

/** Guide facts as the guides module publishes them after commit. */
export interface GuideFacts {
  category: string;
  public: boolean;
  deleted: boolean;
  title: string;
}

export interface GuideChangedPayload {
  guideid: number;
  before: GuideFacts | null;
  after: GuideFacts | null;
}

export const GUIDE_CHANGED = 'guide.changed';

/**
 * Keeps `wiki_category_guides` (one row per public, non-deleted guide) from `guide.changed` events, so
 * the wikis module knows which categories have guides without importing or querying the guides module.
 * Handlers apply the event's `after` state, so replaying an event is harmless.
 */
@Injectable()
export class CategoryGuidesListener implements OnModuleInit {
  constructor(
    private readonly events: EventBus,
    private readonly categories: CategoriesRepository,
  ) {}

  onModuleInit(): void {
    this.events.on(GUIDE_CHANGED, (event) => this.apply(event as DomainEvent<string, GuideChangedPayload>));
  }

  async apply(event: DomainEvent<string, GuideChangedPayload>): Promise<void> {
    const { guideid, after } = event.payload ?? ({} as GuideChangedPayload);
    if (!Number.isInteger(guideid)) return;
    if (!after || !after.public || after.deleted || typeof after.category !== 'string') {
      await this.categories.forgetGuide(guideid);
      return;
    }
    await this.categories.saveGuide({
      guideid,
      category: after.category.slice(0, 255),
      categoryHash: titleHash(after.category),
      title: String(after.title ?? '').slice(0, 255),
    });
  }
}
