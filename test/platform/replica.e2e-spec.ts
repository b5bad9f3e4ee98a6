import { createConnection, type Connection } from 'mysql2/promise';
import type { InjectOptions } from 'fastify';
import { createUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { replicaUrl, waitForReplica } from '../utils/replica-sync';

/**
 * Runs under `npm run test:replica` (a real MariaDB replica of a private primary; TEST_REPLICA_URL set):
 * with the replica's SQL thread stopped it lags behind by every write of the test, so anything read
 * from it is stale, and the test tells which reads went where.
 */
(replicaUrl() ? describe : describe.skip)('with a read replica that lags', () => {
  let t: TestApp;
  let replica: Connection;
  /** A request without the harness's wait for the replica. */
  let raw: (options: InjectOptions) => ReturnType<TestApp['inject']>;

  beforeAll(async () => {
    t = await createTestApp();
    raw = (options) => t.app.getHttpAdapter().getInstance().inject(options);
    replica = await createConnection(replicaUrl() ?? '');
  });
  afterAll(async () => {
    await replica.query('START SLAVE SQL_THREAD');
    await replica.end();
    await t.close();
  });

  it('answers a write and runs the reads of later writes on the primary; only GETs read the replica', async () => {
    const author = await createUser(t, { privilege: 'Admin' });
    await createCategory(t, author.user, 'Replicated Phones');
    await waitForReplica();
    await replica.query('STOP SLAVE SQL_THREAD');

    const auth = { authorization: `api ${author.token}` };
    const created = await raw({
      method: 'POST',
      url: '/api/2.0/guides',
      headers: auth,
      payload: {
        category: 'Replicated Phones',
        type: 'replacement',
        subject: 'Battery',
        title: 'Lagging',
        public: true,
      },
    });
    expect(created.statusCode).toBe(201);
    const guide = created.json();
    expect(guide).toMatchObject({ title: 'Lagging', category: 'Replicated Phones', revisionid: guide.head_revisionid });

    // A GET reads the replica, which has not applied the create: the split is real. (Signed in: an anonymous
    // plain read that finds no cached answer builds it from the primary, see ResponseCache.)
    expect((await raw({ method: 'GET', url: `/api/2.0/guides/${guide.guideid}`, headers: auth })).statusCode).toBe(404);

    // A later write finds the guide (its reads go to the primary) and answers the new revision.
    const edited = await raw({
      method: 'PATCH',
      url: `/api/2.0/guides/${guide.guideid}?revisionid=${guide.revisionid}`,
      headers: auth,
      payload: { summary: 'Read from the primary' },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ guideid: guide.guideid, summary: 'Read from the primary' });
    expect(edited.json().revisionid).toBeGreaterThan(guide.revisionid);

    // A step added by a write request sees the edited guide (a stale read would be a 409 or a 404).
    const step = await raw({
      method: 'POST',
      url: `/api/2.0/guides/${guide.guideid}/steps?revisionid=${edited.json().revisionid}`,
      headers: auth,
      payload: { lines: [{ text: 'Open it.', bullet: 'black', level: 0 }] },
    });
    expect(step.statusCode).toBe(201);

    await replica.query('START SLAVE SQL_THREAD');
    await waitForReplica();
    const read = await raw({ method: 'GET', url: `/api/2.0/guides/${guide.guideid}` });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ summary: 'Read from the primary' });
    expect(read.json().steps).toHaveLength(1);
  });
});
