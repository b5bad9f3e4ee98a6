import { FakeClock } from '../../src/platform/clock/clock';
import { EventBus } from '../../src/platform/events/event-bus';
import { addStep, createGuide } from '../factories/guide.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { API, useTestGateway, type TestApprovalGateway } from './release-test-kit';

/** Releases created or moved at the same moment for one document (SQLite and MariaDB). */
describe('Release concurrency', () => {
  let t: TestApp;
  let gateway: TestApprovalGateway;
  let admin: CreatedUser;
  let editors: CreatedUser[];

  const newGuide = async () => {
    const guide = await createGuide(t, editors[0].user, { category: 'Drill', public: true });
    await addStep(t, editors[0].user, guide.guideid);
    return guide.guideid;
  };
  const create = (token: string, guideid: number, type = 'major') =>
    t.as(token, { method: 'POST', url: `${API}/guides/releases`, payload: { guideid, type } });

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock: new FakeClock(Date.UTC(2026, 10, 5)) } });
    gateway = useTestGateway(t);
    admin = await createUser(t, { privilege: 'Admin' });
    editors = [];
    for (let i = 0; i < 8; i += 1) editors.push(await createUser(t, { privilege: 'Moderator' }));
    await createCategory(t, editors[0].user, 'Drill');
  });
  afterAll(() => t.close());

  it('a process applies: of releases created at once, exactly one is pending, the others 409 with it', async () => {
    const guideid = await newGuide();
    gateway.gate('GUIDE', guideid);
    const responses = await Promise.all(editors.map((e) => create(e.token, guideid)));
    const created = responses.filter((r) => r.statusCode === 201);
    expect(created).toHaveLength(1);
    const pending = created[0].json();
    expect(pending.status).toBe('pending');
    const conflicts = responses.filter((r) => r.statusCode === 409);
    expect(conflicts).toHaveLength(editors.length - 1);
    for (const conflict of conflicts) expect(conflict.json()).toEqual(pending);
    const listed = (await t.as(admin.token, { method: 'GET', url: `${API}/guides/${guideid}/releases` })).json();
    expect(listed.releases).toEqual([pending]);
  });

  it('no process: releases created at once all go live, one after the other, with distinct version numbers', async () => {
    const guideid = await newGuide();
    const responses = await Promise.all(editors.map((e, i) => create(e.token, guideid, i % 2 ? 'minor' : 'major')));
    expect(responses.map((r) => r.statusCode)).toEqual(editors.map(() => 201));
    const versions = responses.map((r) => r.json().version as string);
    expect(new Set(versions).size).toBe(editors.length);
    // Applied in releaseid order, each version follows the previous one by its type.
    const byId = responses
      .map((r) => r.json<{ releaseid: number; type: string; version: string; revisionid: number }>())
      .sort((a, b) => a.releaseid - b.releaseid);
    let [major, minor] = [0, 0];
    for (const release of byId) {
      [major, minor] = release.type === 'major' ? [major + 1, 0] : [major, minor + 1];
      expect(release.version).toBe(`${major}.${minor}`);
    }
    const live = (await t.as(undefined, { method: 'GET', url: `${API}/guides/${guideid}` })).json();
    expect(live.revisionid).toBe(byId[byId.length - 1].revisionid);
  });

  it('two Admins remove the same release at once: one 204, the other 409 with the removed release', async () => {
    const guideid = await newGuide();
    const { releaseid } = (await create(editors[0].token, guideid)).json();
    // The author's reputation in the release changes when the creation's events are delivered: let them land first.
    await t.app.get(EventBus).drain();
    const listed = (await t.as(admin.token, { method: 'GET', url: `${API}/guides/${guideid}/releases` })).json();
    const released = listed.releases.find((r: { releaseid: number }) => r.releaseid === releaseid);
    expect(released.status).toBe('released');
    const other = await createUser(t, { privilege: 'Admin' });
    const responses = await Promise.all(
      [admin, other].map((a) =>
        t.as(a.token, { method: 'DELETE', url: `${API}/guides/releases/${released.releaseid}` }),
      ),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([204, 409]);
    expect(responses.find((r) => r.statusCode === 409)!.json()).toEqual({ ...released, status: 'removed' });
  });
});
