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

  it('10 translations of different steps at once all land; 10 of one step: one 200, nine 409s', async () => {
    const author = await createUser(t, { privilege: 'Author' });
    await createCategory(t, author.user, 'Tablet');
    const guide = await createGuide(t, author.user, { category: 'Tablet', public: true });
    for (let i = 0; i < 10; i += 1) await addStep(t, author.user, guide.guideid);
    const url = (stepid: number, revisionid: number) =>
      `/api/2.0/guides/${guide.guideid}/steps/${stepid}?revisionid=${revisionid}`;
    const steps = (await t.inject({ method: 'GET', url: `/api/2.0/guides/${guide.guideid}` })).json().steps as {
      stepid: number;
      revisionid: number;
    }[];
    const spread = await Promise.all(
      steps.map((step, i) =>
        t.as(author.token, {
          method: 'PATCH',
          url: url(step.stepid, step.revisionid),
          payload: { langid: 'fr', title: `Étape ${i}` },
        }),
      ),
    );
    expect(spread.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const fr = (await t.inject({ method: 'GET', url: `/api/2.0/guides/${guide.guideid}?langid=fr` })).json();
    expect(fr.steps.map((s: { title: string }) => s.title)).toEqual(steps.map((_s, i) => `Étape ${i}`));

    const target = fr.steps[0] as { stepid: number; revisionid: number };
    const same = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.as(author.token, {
          method: 'PATCH',
          url: url(target.stepid, target.revisionid),
          payload: { langid: 'fr', title: `Titre ${i}` },
        }),
      ),
    );
    const statuses = same.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    const winner = same.find((r) => r.statusCode === 200)!.json();
    const after = (await t.inject({ method: 'GET', url: `/api/2.0/guides/${guide.guideid}?langid=fr` })).json();
    expect(after.steps[0]).toMatchObject({ title: winner.title, revisionid: winner.revisionid });
    expect(after.steps.slice(1).map((s: { title: string }) => s.title)).toEqual(
      steps.slice(1).map((_s, i) => `Étape ${i + 1}`),
    );
  });
});
