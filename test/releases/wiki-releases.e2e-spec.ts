import { FakeClock } from '../../src/platform/clock/clock';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createWiki } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { API, auditRows, eventRows, useTestGateway, type TestApprovalGateway } from './release-test-kit';

/** R7, R8 and what readers of a released wiki see. */
describe('Wiki releases (R7, R8)', () => {
  let t: TestApp;
  let gateway: TestApprovalGateway;
  const clock = new FakeClock(Date.UTC(2026, 10, 3, 8));
  let admin: CreatedUser;
  let author: CreatedUser;
  let user: CreatedUser;

  const call = (
    token: string | undefined,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) => t.as(token, { method, url: `${API}${url}`, ...(payload ? { payload } : {}) });
  const path = (title: string) => `/wikis/WIKI/${encodeURIComponent(title.replace(/ /g, '_'))}`;
  const edit = async (title: string, contents: string) => {
    const current = (await call(author.token, 'GET', path(title))).json();
    const res = await call(author.token, 'PATCH', `${path(title)}?revisionid=${current.revisionid}`, { contents });
    expect(res.statusCode).toBe(200);
    return res.json<{ revisionid: number }>();
  };

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
    gateway = useTestGateway(t);
    admin = await createUser(t, { privilege: 'Admin' });
    author = await createUser(t, { privilege: 'Author' });
    user = await createUser(t);
  });
  afterAll(() => t.close());

  it('POST /wikis/{wikiid}/releases: 401, 422 shape, 404 unknown wiki, 403 for a User on a WIKI page', async () => {
    const wiki = await createWiki(t, author.user, { contents: 'One' });
    const url = `/wikis/${wiki.wikiid}/releases`;
    expect((await call(undefined, 'POST', url, { type: 'major' })).statusCode).toBe(401);
    expect((await call(author.token, 'POST', url, { type: 'big' })).statusCode).toBe(422);
    expect((await call(author.token, 'POST', url, { type: 'major', guideid: 3 })).statusCode).toBe(422);
    const missing = await call(author.token, 'POST', '/wikis/999999/releases', { type: 'major' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: true, message: 'Wiki not found' });
    expect((await call(author.token, 'POST', '/wikis/WIKI/releases', { type: 'major' })).statusCode).toBe(404);
    const denied = await call(user.token, 'POST', url, { type: 'major' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: true, message: 'Only editors of this wiki may do this' });
  });

  it('201 with `wikiid` and no `guideid`; readers then see the released revision, editors the working copy', async () => {
    const wiki = await createWiki(t, author.user, { contents: 'Version one text' });
    const res = await call(author.token, 'POST', `/wikis/${wiki.wikiid}/releases`, { type: 'major', notes: 'Go' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    const now = clock.nowSeconds();
    expect(body).toEqual({
      id: body.releaseid,
      releaseid: expect.any(Number),
      wikiid: wiki.wikiid,
      langid: 'en',
      revisionid: wiki.revisionid,
      user: expect.objectContaining({ userid: author.user.userid }),
      status: 'released',
      title: 'Release v1.0',
      init_date: now,
      release_date: now,
      notes: 'Go',
      type: 'major',
      doctype: 'WIKI',
      docid: wiki.wikiid,
      version: '1.0',
      approval_requestid: null,
      periodic_review_confirmed: false,
    });
    expect(body).not.toHaveProperty('guideid');
    expect((await eventRows(t, body.releaseid)).map((e) => e.name)).toEqual(['release.created', 'release.released']);
    const edited = await edit(wiki.title, 'Version two text');
    const forReader = (await call(user.token, 'GET', path(wiki.title))).json();
    expect([forReader.revisionid, forReader.contents_raw]).toEqual([wiki.revisionid, 'Version one text']);
    const anonymous = (await t.inject({ method: 'GET', url: `${API}${path(wiki.title)}` })).json();
    expect(anonymous.revisionid).toBe(wiki.revisionid);
    const forEditor = (await call(author.token, 'GET', path(wiki.title))).json();
    expect([forEditor.revisionid, forEditor.contents_raw]).toEqual([edited.revisionid, 'Version two text']);
    // A stale revisionid is 409 with the wiki detail; the current one is released as 1.1.
    const stale = await call(author.token, 'POST', `/wikis/${wiki.wikiid}/releases`, {
      type: 'minor',
      revisionid: wiki.revisionid,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      wikiid: wiki.wikiid,
      revisionid: edited.revisionid,
      contents_raw: 'Version two text',
    });
    const next = (await call(author.token, 'POST', `/wikis/${wiki.wikiid}/releases`, { type: 'minor' })).json();
    expect([next.version, next.revisionid]).toEqual(['1.1', edited.revisionid]);
    expect((await call(user.token, 'GET', path(wiki.title))).json().contents_raw).toBe('Version two text');
  });

  it('DELETE /wikis/releases/{releaseid} wins over /wikis/{namespace}/{title}: 401, 404, 403, 204, 409', async () => {
    const wiki = await createWiki(t, author.user, { contents: 'Kept' });
    const released = (await call(author.token, 'POST', `/wikis/${wiki.wikiid}/releases`, { type: 'major' })).json();
    const url = `/wikis/releases/${released.releaseid}`;
    expect((await call(undefined, 'DELETE', url)).statusCode).toBe(401);
    expect((await call(admin.token, 'DELETE', '/wikis/releases/999999')).statusCode).toBe(404);
    expect((await call(admin.token, 'DELETE', '/wikis/releases/x1')).json()).toEqual({
      error: true,
      message: 'Release not found',
    });
    const forbidden = await call(author.token, 'DELETE', url);
    expect(forbidden.statusCode).toBe(403);
    expect((await call(admin.token, 'DELETE', url)).statusCode).toBe(204);
    expect((await auditRows(t, released.releaseid)).map((a) => a.action)).toEqual(['release.create', 'release.remove']);
    const again = await call(admin.token, 'DELETE', url);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ ...released, status: 'removed' });
    // The page itself is untouched (the route did not reach the wiki delete).
    expect((await call(user.token, 'GET', path(wiki.title))).statusCode).toBe(200);
  });

  it('a pending wiki release is cancelled by its creator through R8; its request is cancelled', async () => {
    const wiki = await createWiki(t, author.user, { contents: 'Gated' });
    gateway.gate('WIKI', wiki.wikiid);
    const pending = (await call(author.token, 'POST', `/wikis/${wiki.wikiid}/releases`, { type: 'minor' })).json();
    expect([pending.status, pending.version]).toEqual(['pending', '0.1']);
    // Readers never see a pending release's revision: nothing is live yet.
    expect((await call(user.token, 'GET', path(wiki.title))).json().revisionid).toBe(wiki.revisionid);
    expect((await call(author.token, 'DELETE', `/wikis/releases/${pending.releaseid}`)).statusCode).toBe(204);
    expect(gateway.cancelled).toEqual([pending.approval_requestid]);
    expect((await eventRows(t, pending.releaseid)).map((e) => e.name)).toEqual([
      'release.created',
      'release.cancelled',
    ]);
  });
});
