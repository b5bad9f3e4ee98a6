import { GuideChanged, GuideCompleted, GuideRevised, GuideViewed } from '../../src/modules/guides/guide.events';
import { ReleaseReleased, ReleaseRemoved } from '../../src/modules/releases/release.events';
import { TeamJoined } from '../../src/modules/teams/team.events';
import { UserAboutWritten } from '../../src/modules/users/user.events';
import { WikiChanged, WikiViewed } from '../../src/modules/wikis/wiki.events';
import { EventBus } from '../../src/platform/events/event-bus';
import { createTestApp, type TestApp } from '../utils/test-app';

/**
 * Modules subscribe by marking methods @OnEvent / @OnEvents; the bus finds them through Nest's discovery at
 * start-up. A subscriber's name keys its delivery records: one lost or renamed would drop or redeliver events.
 */
describe('Event subscribers found through discovery', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('subscribes every marked method once, under its name', () => {
    const bus = t.app.get(EventBus);
    expect(bus.subscribers().sort()).toEqual([
      'reputation.autobiographer',
      'reputation.guide-completed',
      'reputation.guide-published',
      'reputation.teammate',
      'search.guides',
      'search.release-released',
      'search.release-removed',
      'search.wiki-changed',
      'view-history.guides',
      'view-history.wikis',
      'wikis.category-guides',
    ]);
    for (const type of [
      GuideChanged,
      GuideRevised,
      GuideCompleted,
      GuideViewed,
      WikiChanged,
      WikiViewed,
      ReleaseReleased,
      ReleaseRemoved,
      TeamJoined,
      UserAboutWritten,
    ])
      expect([type.name, bus.hasSubscribers(type.name)]).toEqual([type.name, true]);
  });
});
