import { GuideChanged, GuideCompleted } from '../../src/modules/guides/guide.events';
import { publishEvents, settle } from '../utils/events';
import { createUser } from '../factories/user.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

const snapshot = (authorid: number, isPublic: boolean) => ({
  authorid,
  category: 'Phone',
  title: 'Fix',
  public: isPublic,
  deleted: false,
});

describe('reputation, badges and flags', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const detail = async (userid: number) =>
    (await t.inject({ method: 'GET', url: `/api/2.0/users/${userid}` })).json<{
      reputation: number;
      badge_counts: Record<string, number>;
    }>();

  it('GET /users/{userid}/badges answers 404 for an unknown user', async () => {
    expect((await t.inject({ method: 'GET', url: '/api/2.0/users/999999/badges' })).statusCode).toBe(404);
  });

  it('GET /user/badges needs authentication', async () => {
    expect((await t.inject({ method: 'GET', url: '/api/2.0/user/badges' })).statusCode).toBe(401);
  });

  it('awards +10 and Technician the first time a guide becomes public, once per guide', async () => {
    const { user, token } = await createUser(t);
    await publishEvents(t, GuideChanged({ guideid: 501, before: null, after: snapshot(user.userid, false) }));
    expect((await detail(user.userid)).reputation).toBe(0);
    await publishEvents(
      t,
      GuideChanged({ guideid: 501, before: snapshot(user.userid, false), after: snapshot(user.userid, true) }),
    );
    await publishEvents(
      t,
      GuideChanged({ guideid: 501, before: snapshot(user.userid, false), after: snapshot(user.userid, true) }),
    );
    const d = await detail(user.userid);
    expect(d.reputation).toBe(10);
    expect(d.badge_counts).toEqual({ bronze: 1, silver: 0, gold: 0, total: 1 });
    const badges = (await t.as(token, { method: 'GET', url: '/api/2.0/user/badges' })).json();
    expect(badges[0]).toEqual({
      earned: true,
      times_earned: 1,
      date: expect.any(Number),
      badge: {
        badgeid: 1,
        name: 'Technician',
        type: 'bronze',
        category: 'authoring',
        description: 'Published a first guide.',
        multiple: false,
        num_users: 1,
        icon: null,
        image: `${t.config.publicUrl}/api/2.0/icons/badges/1`,
        secondary_color: '#cd7f32',
      },
    });
    expect(badges.slice(1).every((b: { earned: boolean }) => !b.earned)).toBe(true);
    expect(badges.slice(1).map((b: { badge: { badgeid: number } }) => b.badge.badgeid)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    const authoring = (
      await t.inject({ method: 'GET', url: `/api/2.0/users/${user.userid}/badges?category=authoring` })
    ).json();
    expect(authoring.map((b: { badge: { badgeid: number } }) => b.badge.badgeid)).toEqual([1, 2, 3]);
  });

  it('awards Guide Writer at 5 published guides', async () => {
    const { user } = await createUser(t);
    for (let guideid = 600; guideid < 605; guideid += 1) {
      await publishEvents(t, GuideChanged({ guideid, before: null, after: snapshot(user.userid, true) }));
    }
    await settle(t);
    const d = await detail(user.userid);
    expect(d.reputation).toBe(50);
    expect(d.badge_counts).toEqual({ bronze: 1, silver: 1, gold: 0, total: 2 });
  });

  it('gives +1 and Student to the one who completes, +2 to the author once per completer', async () => {
    const author = await createUser(t);
    const learner = await createUser(t);
    for (let i = 0; i < 2; i += 1) {
      await publishEvents(
        t,
        GuideCompleted({ guideid: 700, userid: learner.user.userid, authorid: author.user.userid }),
      );
    }
    expect((await detail(learner.user.userid)).reputation).toBe(1);
    expect((await detail(learner.user.userid)).badge_counts.bronze).toBe(1);
    expect((await detail(author.user.userid)).reputation).toBe(2);
  });

  it('awards Autobiographer when the about text is written', async () => {
    const { user, token } = await createUser(t);
    await t.as(token, {
      method: 'PATCH',
      url: `/api/2.0/users/${user.userid}`,
      payload: { about_raw: 'I repair bikes.' },
    });
    await settle(t);
    expect((await detail(user.userid)).badge_counts).toEqual({ bronze: 1, silver: 0, gold: 0, total: 1 });
  });

  it('GET /user/flags lists the flags the caller may set, by privilege', async () => {
    const plain = await createUser(t);
    const mod = await createUser(t, { privilege: 'Moderator' });
    expect((await t.inject({ method: 'GET', url: '/api/2.0/user/flags' })).statusCode).toBe(401);
    const mine = (await t.as(plain.token, { method: 'GET', url: '/api/2.0/user/flags' })).json();
    expect(Object.keys(mine.guide)).toEqual(['GUIDE_IN_PROGRESS', 'DANGER', 'DEATH', 'GUIDE_DELETE']);
    expect(mine.guide.DANGER).toEqual({
      flagid: 'DANGER',
      image: `${t.config.publicUrl}/api/2.0/icons/flags/DANGER`,
      title: 'Danger',
      text: 'This procedure can injure you or damage the device.',
    });
    const modFlags = (await t.as(mod.token, { method: 'GET', url: '/api/2.0/user/flags' })).json();
    expect(Object.keys(modFlags.guide)).toEqual([
      'GUIDE_IN_PROGRESS',
      'DANGER',
      'DEATH',
      'GUIDE_DELETE',
      'GUIDE_PREREQ_ONLY',
      'GUIDE_STARRED',
      'GUIDE_FEATURED_STUDENT',
    ]);
    const icon = await t.inject({ method: 'GET', url: '/api/2.0/icons/flags/DANGER' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.body).toMatch(/^<svg /);
    expect((await t.inject({ method: 'GET', url: '/api/2.0/icons/flags/NOPE' })).statusCode).toBe(404);
  });
});
