import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { guideWithForms } from '../factories/work-log.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

const api = (path: string) => `/api/2.0${path}`;

/** The entry pins the release in force (the releases module registers it with the platform's ReleaseDirectory). */
describe('Work log: the pinned release', () => {
  let t: TestApp;
  let author: CreatedUser;
  let operator: CreatedUser;

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await createUser(t, { privilege: 'Admin' });
    author = await createUser(t, { privilege: 'Author' });
    operator = await createUser(t);
    await createCategory(t, admin.user, 'Boiler');
  });
  afterAll(() => t.close());

  it('a reader pins the released revision and the release; an editor the working revision; none without a release', async () => {
    const released = await guideWithForms(t, author.user, 'Boiler', [null]);
    const unreleased = await guideWithForms(t, author.user, 'Boiler', [null]);
    const release = await t.as(author.token, {
      method: 'POST',
      url: api('/guides/releases'),
      payload: { guideid: released.guideid, type: 'major' },
    });
    expect(release.statusCode).toBe(201);
    const { releaseid, revisionid: frozen, version } = release.json();
    // The working copy moves on after the release: editors pin it, readers the released revision.
    const edit = await t.as(author.token, {
      method: 'PATCH',
      url: api(`/guides/${released.guideid}?revisionid=${released.revisionid}`),
      payload: { summary: 'After the release' },
    });
    expect(edit.statusCode).toBe(200);
    const working = edit.json().revisionid;
    expect(working).not.toBe(frozen);
    const start = (token: string, guideid: number) =>
      t.as(token, { method: 'POST', url: api('/work_log'), payload: { guideid, workorderid: 'R' } });
    const asReader = (await start(operator.token, released.guideid)).json();
    expect(asReader).toMatchObject({ guide_revisionid: frozen, release: { releaseid, version } });
    const asEditor = (await start(author.token, released.guideid)).json();
    expect(asEditor).toMatchObject({
      guide_revisionid: working,
      release: { releaseid, version },
    });
    const none = (await start(operator.token, unreleased.guideid)).json();
    expect(none).toMatchObject({ guide_revisionid: unreleased.revisionid, release: null });
  });
});
