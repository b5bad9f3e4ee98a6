import { addStep, createGuide } from '../factories/guide.factory';
import { createUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { expectCurrentConflictBodies, productionApp, revisionRace } from '../utils/revision-race';
import type { TestApp } from '../utils/test-app';

// A client retries from a 409 body: the body must be the version that won, never the one the client sent.
describe('409 bodies under contention (production mode)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await productionApp();
  });
  afterAll(() => t?.close());

  const setUp = async () => {
    const author = await createUser(t, { privilege: 'Author' });
    await createCategory(t, author.user, `Phone ${author.user.userid}`);
    const guide = await createGuide(t, author.user, { category: `Phone ${author.user.userid}`, public: true });
    await addStep(t, author.user, guide.guideid);
    const start = (
      await t.as(author.token, { method: 'GET', url: `/api/2.0/guides/${guide.guideid}?unpatrolled` })
    ).json();
    return { author, guide: start };
  };

  it('20 writers PATCH one guide retrying from the 409 body: every body is a committed newer revision', async () => {
    const { author, guide } = await setUp();
    const outcome = await revisionRace({
      writers: 20,
      edits: 2,
      start: guide.head_revisionid,
      send: (revisionid, writer, attempt) =>
        t.as(author.token, {
          method: 'PATCH',
          url: `/api/2.0/guides/${guide.guideid}?revisionid=${revisionid}`,
          payload: { summary: `writer ${writer} attempt ${attempt}` },
        }),
      revisionOf: (body) => body.head_revisionid as number,
    });
    expectCurrentConflictBodies(outcome, 19);
  });

  it('20 writers PATCH one step retrying from the 409 body: every body is a committed newer step revision', async () => {
    const { author, guide } = await setUp();
    const step = guide.steps[0] as { stepid: number; revisionid: number };
    const outcome = await revisionRace({
      writers: 20,
      edits: 2,
      start: step.revisionid,
      send: (revisionid, writer, attempt) =>
        t.as(author.token, {
          method: 'PATCH',
          url: `/api/2.0/guides/${guide.guideid}/steps/${step.stepid}?revisionid=${revisionid}`,
          payload: { title: `writer ${writer} attempt ${attempt}` },
        }),
      revisionOf: (body) => body.revisionid as number,
    });
    expectCurrentConflictBodies(outcome, 19);
  });
});
