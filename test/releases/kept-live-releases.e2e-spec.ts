import { ReleaseDirectory } from '../../src/platform/documents/release-directory';
import { ContentVersions } from '../../src/platform/versions/content-versions';
import { TransactionService } from '../../src/database/transaction.service';
import { ReleasesRepository } from '../../src/modules/releases/releases.repository';
import { FakeClock } from '../../src/platform/clock/clock';
import { addStep, createGuide } from '../factories/guide.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';
import { withoutVersionToken } from '../utils/version-tokens';
import { API, useTestGateway } from './release-test-kit';

/**
 * Which release of a document is live (or that none is) is kept per instance under the `releases` version
 * token, which guide and wiki reads select in their first statement: a cached answer costs no statement. Every
 * release write replaces the token, so readers see a release, an edit after it and a removal at once.
 */
describe('live releases kept under the releases token', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let author: CreatedUser;

  const anonymous = (url: string) => t.inject({ method: 'GET', url: `${API}${url}` });
  const call = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.as(token, { method, url: `${API}${url}`, ...(payload ? { payload } : {}) });
  /** The same read with nothing kept (no token row), then the token back. */
  const withoutToken = <T>(read: () => Promise<T>): Promise<T> => withoutVersionToken(t, 'releases', read);
  const newGuide = async () => {
    const guide = await createGuide(t, author.user, { category: 'Kettle', public: true });
    await addStep(t, author.user, guide.guideid);
    return guide.guideid;
  };

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock: new FakeClock(Date.UTC(2026, 10, 1, 12)) } });
    useTestGateway(t);
    admin = await createUser(t, { privilege: 'Admin' });
    author = await createUser(t, { privilege: 'Author' });
    await createCategory(t, author.user, 'Kettle');
    // On MySQL the test database is emptied before each file's app starts, token rows included (a missing token
    // keeps nothing); the migration's row is put back the way a release write would.
    await t.app.get(ContentVersions).bump('releases');
  });
  afterAll(() => t.close());

  it('guide detail: a cached answer costs one statement less than one looked up, with the same bytes', async () => {
    const id = await newGuide();
    // Built each time (the whole answer an anonymous read keeps under the `answers-guide` token is not served).
    const rebuilt = async () => {
      await t.app.get(ContentVersions).bump('answers-guide');
      return anonymous(`/guides/${id}`);
    };
    // The first read keeps "no release" (unless the search indexer's read after the create did already).
    await rebuilt();
    const kept = await rebuilt();
    const built = await withoutToken(rebuilt);
    expect([kept.statusCode, built.statusCode]).toEqual([200, 200]);
    expect(kept.body).toBe(built.body);
    expect(sqlCount(built) - sqlCount(kept)).toBe(1);
  });

  it('guide detail and lists: a release, an edit after it and its removal show at once', async () => {
    const id = await newGuide();
    const revisionOf = async () => (await anonymous(`/guides/${id}`)).json().revisionid as number;
    const listed = async () => (await anonymous(`/guides?guideids=${id}`)).json()[0].revisionid as number;
    const head = (await call(author.token, 'GET', `/guides/${id}`)).json();
    // Kept now: "no release" for detail and list.
    expect([await revisionOf(), await listed()]).toEqual([head.revisionid, head.revisionid]);
    expect([await revisionOf(), await listed()]).toEqual([head.revisionid, head.revisionid]);

    const released = await call(author.token, 'POST', '/guides/releases', { guideid: id, type: 'major' });
    expect(released.statusCode).toBe(201);
    const edited = await call(author.token, 'PATCH', `/guides/${id}?revisionid=${head.revisionid}`, {
      title: 'Kettle lid, second edition',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().revisionid).not.toBe(head.revisionid);
    // Readers see the release, not the edit: the kept "no release" was under the token the release replaced.
    expect([await revisionOf(), await listed()]).toEqual([released.json().revisionid, released.json().revisionid]);
    // Built each time (not the whole page an anonymous read keeps under the `answers` token).
    const rebuiltList = async () => {
      await t.app.get(ContentVersions).bump('answers');
      return anonymous(`/guides?guideids=${id}`);
    };
    const keptList = await rebuiltList();
    const builtList = await withoutToken(rebuiltList);
    expect(keptList.body).toBe(builtList.body);
    expect(sqlCount(builtList) - sqlCount(keptList)).toBe(1);

    // Removed (a move of the release): readers see the working copy again.
    const removed = await call(admin.token, 'DELETE', `/guides/releases/${released.json().releaseid}`);
    expect(removed.statusCode).toBe(204);
    expect([await revisionOf(), await listed()]).toEqual([edited.json().revisionid, edited.json().revisionid]);
  });

  it('category detail: kept, and a wiki release shows at once', async () => {
    await createCategory(t, author.user, 'Toaster');
    // Built each time (not the whole answer an anonymous read keeps under the `answers` token).
    const rebuilt = async () => {
      await t.app.get(ContentVersions).bump('answers');
      return anonymous('/wikis/CATEGORY/Toaster');
    };
    await rebuilt();
    const kept = await rebuilt();
    const built = await withoutToken(rebuilt);
    expect(kept.body).toBe(built.body);
    expect(sqlCount(built) - sqlCount(kept)).toBe(1);

    const wiki = kept.json();
    const released = await call(author.token, 'POST', `/wikis/${wiki.wikiid}/releases`, { type: 'major' });
    expect(released.statusCode).toBe(201);
    const edited = await call(author.token, 'PATCH', `/wikis/CATEGORY/Toaster?revisionid=${wiki.revisionid}`, {
      contents: 'Edited after the release',
    });
    expect(edited.statusCode).toBe(200);
    const read = (await anonymous('/wikis/CATEGORY/Toaster')).json();
    expect(read.revisionid).toBe(released.json().revisionid);
    expect(read.contents_raw).not.toBe('Edited after the release');
  });

  it('a release changed under the service shows once the token changes, and not before', async () => {
    const wiki = await createWiki(t, author.user, { contents: 'Under the service' });
    const released = (await call(author.token, 'POST', `/wikis/${wiki.wikiid}/releases`, { type: 'major' })).json();
    const path = `/wikis/WIKI/${encodeURIComponent(wiki.title)}`;
    expect((await anonymous(path)).json().revisionid).toBe(released.revisionid);
    await call(author.token, 'PATCH', `${path}?revisionid=${wiki.revisionid}`, { contents: 'Working copy' });
    expect((await anonymous(path)).json().contents_raw).toBe('Under the service');
    await t.dataSource.query("UPDATE releases SET status = 'removed' WHERE releaseid = ?", [released.releaseid]);
    // Kept: the row changed without a token change (as in a restore that kept the token row). (The statement
    // above, run by the service's connection, replaced the `answers` token: the answer was built again, from the
    // kept live release.)
    expect((await anonymous(path)).json().contents_raw).toBe('Under the service');
    await t.app.get(ContentVersions).bump('releases');
    // Whole answers are kept under their own token (by hand, both are replaced).
    await t.app.get(ContentVersions).bump('answers');
    expect((await anonymous(path)).json().contents_raw).toBe('Working copy');
  });

  it('what a transaction that rolled back wrote is never served', async () => {
    const id = await newGuide();
    const directory = t.app.get(ReleaseDirectory);
    const token = await t.app.get(ContentVersions).read('releases');
    expect(await directory.liveOne('GUIDE', id, 'en', token)).toBeNull();
    const head = (await call(author.token, 'GET', `/guides/${id}`)).json();
    await expect(
      t.app.get(TransactionService).run(async () => {
        await t.app.get(ReleasesRepository).insert({
          doctype: 'GUIDE',
          docid: id,
          langid: 'en',
          revisionid: head.revisionid,
          userid: author.user.userid,
          status: 'released',
          title: 'Rolled back',
          notes: '',
          type: 'major',
          versionMajor: 1,
          versionMinor: 0,
          releasedVersion: '1.0',
          pendingSlot: null,
          initDate: 1,
          releaseDate: 1,
          approvalRequestid: null,
          periodicReviewConfirmed: false,
        });
        // Inside: its own release, under the token its write set.
        expect(await directory.liveOne('GUIDE', id, 'en')).toMatchObject({ revisionid: head.revisionid });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await t.app.get(ContentVersions).read('releases')).toBe(token);
    expect(await directory.liveOne('GUIDE', id, 'en', token)).toBeNull();
    expect(await directory.liveOne('GUIDE', id, 'en')).toBeNull();
  });
});
