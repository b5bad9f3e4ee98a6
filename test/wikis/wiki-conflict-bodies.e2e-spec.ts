import { createUser } from '../factories/user.factory';
import { createWiki } from '../factories/wiki.factory';
import { expectCurrentConflictBodies, productionApp, revisionRace } from '../utils/revision-race';
import type { TestApp } from '../utils/test-app';

// A client retries from a 409 body: the body must be the version that won, never the one the client sent.
describe('Wiki 409 bodies under contention (production mode)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await productionApp();
  });
  afterAll(() => t?.close());

  it('20 writers PATCH one wiki retrying from the 409 body: every body is a committed newer revision', async () => {
    const moderator = await createUser(t, { privilege: 'Moderator' });
    const wiki = await createWiki(t, moderator.user, { title: 'Contended page', contents: 'First.' });
    const outcome = await revisionRace({
      writers: 20,
      edits: 2,
      start: wiki.revisionid,
      send: (revisionid, writer, attempt) =>
        t.as(moderator.token, {
          method: 'PATCH',
          url: `/api/2.0/wikis/WIKI/Contended_page?revisionid=${revisionid}`,
          payload: { contents: `Writer ${writer}, attempt ${attempt}.` },
        }),
      revisionOf: (body) => body.revisionid as number,
    });
    expectCurrentConflictBodies(outcome, 19);
  });
});
