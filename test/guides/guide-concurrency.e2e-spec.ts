import { addStep, createGuide } from '../factories/guide.factory';
import { createUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

describe('Concurrent guide edits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('20 PATCHes with the same revisionid: exactly one 200, nineteen 409s, the winner’s value kept', async () => {
    const author = await createUser(t, { privilege: 'Author' });
    await createCategory(t, author.user, 'Phone');
    const guide = await createGuide(t, author.user, { category: 'Phone', public: true });
    await addStep(t, author.user, guide.guideid);
    const start = (
      await t.as(author.token, { method: 'GET', url: `/api/2.0/guides/${guide.guideid}?unpatrolled` })
    ).json();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.as(author.token, {
          method: 'PATCH',
          url: `/api/2.0/guides/${guide.guideid}?revisionid=${start.head_revisionid}`,
          payload: { summary: `writer ${i}` },
        }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const winner = responses.find((r) => r.statusCode === 200)!.json();
    for (const loser of responses.filter((r) => r.statusCode === 409)) {
      expect(loser.json()).toMatchObject({ revisionid: winner.revisionid, summary: winner.summary });
    }
    const final = (await t.inject({ method: 'GET', url: `/api/2.0/guides/${guide.guideid}` })).json();
    expect(final.summary).toBe(winner.summary);
    expect(final.revisionid).toBe(winner.revisionid);
    expect(final.steps).toHaveLength(1);
  });
});
