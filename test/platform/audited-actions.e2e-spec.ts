import { createUser, type CreatedUser } from '../factories/user.factory';
import { createGuide } from '../factories/guide.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

const api = (path: string) => `/api/2.0${path}`;

/** Security-relevant actions of the existing modules write audit rows (issue #12, point 6). */
describe('audit rows of the existing modules', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let moderator: CreatedUser;
  let author: CreatedUser;

  type AuditRow = { action: string; actor: { userid: number } | null; before: unknown; after: unknown };
  const rows = async (query: string): Promise<AuditRow[]> =>
    (await t.as(admin.token, { method: 'GET', url: api(`/audit?${query}`) })).json<AuditRow[]>();

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { privilege: 'Admin' });
    moderator = await createUser(t, { privilege: 'Moderator' });
    author = await createUser(t, { privilege: 'Author' });
    await createCategory(t, admin.user, 'Audited');
    await createCategory(t, admin.user, 'Elsewhere');
  });
  afterAll(() => t.close());

  it('privilege changes, bans, unbans and password changes by an Admin', async () => {
    const target = await createUser(t);
    const patch = (payload: object) =>
      t.as(admin.token, { method: 'PATCH', url: api(`/users/${target.user.userid}`), payload });
    expect((await patch({ privileges: ['Author'] })).statusCode).toBe(200);
    expect((await patch({ banned: true })).statusCode).toBe(200);
    expect((await patch({ banned: false })).statusCode).toBe(200);
    expect((await patch({ password: 'a brand new password' })).statusCode).toBe(200);
    expect((await patch({ privileges: ['Author'] })).statusCode).toBe(200); // no change: no row
    const audit = await rows(`entity_type=user&entity_id=${target.user.userid}`);
    expect(audit.map((r) => r.action)).toEqual(['user.privileges', 'user.ban', 'user.unban', 'user.password']);
    expect(audit[0]).toMatchObject({
      actor: { userid: admin.user.userid },
      before: { privileges: [] },
      after: { privileges: ['Author'] },
    });
    expect(JSON.stringify(audit)).not.toContain('a brand new password');
  });

  it('token revocation (logout)', async () => {
    const someone = await createUser(t);
    expect((await t.as(someone.token, { method: 'DELETE', url: api('/user/token') })).statusCode).toBe(204);
    const audit = await rows(`entity_type=user&entity_id=${someone.user.userid}&action=token.revoke`);
    expect(audit).toEqual([
      expect.objectContaining({ actor: { userid: someone.user.userid, username: someone.user.username } }),
    ]);
  });

  it('guide access grants and revocations, delete and restore', async () => {
    const guide = await createGuide(t, author.user, { category: 'Audited' });
    const team = (
      await t.as(moderator.token, { method: 'POST', url: api('/teams'), payload: { name: 'Audit crew' } })
    ).json();
    const reader = await createUser(t);
    const call = (method: 'PUT' | 'DELETE' | 'POST', path: string) =>
      t.as(author.token, { method, url: api(`/guides/${guide.guideid}${path}`) });
    expect((await call('PUT', `/users/${reader.user.userid}`)).statusCode).toBe(201);
    expect((await call('PUT', `/users/${reader.user.userid}`)).statusCode).toBe(201); // already granted: no row
    expect((await call('PUT', `/teams/${team.teamid}`)).statusCode).toBe(201);
    expect((await call('DELETE', `/users/${reader.user.userid}`)).statusCode).toBe(200);
    expect((await call('DELETE', `/teams/${team.teamid}`)).statusCode).toBe(200);
    const head = (await t.as(author.token, { method: 'GET', url: api(`/guides/${guide.guideid}`) })).json()
      .head_revisionid as number;
    expect((await call('DELETE', `?revisionid=${head}`)).statusCode).toBe(204);
    expect((await call('POST', '/en/restore')).statusCode).toBe(200);
    const audit = await rows(`entity_type=guide&entity_id=${guide.guideid}`);
    expect(audit.map((r) => [r.action, r.after])).toEqual([
      ['guide.grant_user', { userid: reader.user.userid }],
      ['guide.grant_team', { teamid: team.teamid }],
      ['guide.revoke_user', { userid: reader.user.userid }],
      ['guide.revoke_team', { teamid: team.teamid }],
      ['guide.delete', null],
      ['guide.restore', { langid: 'en' }],
    ]);
  });

  it('wiki delete and category move', async () => {
    const wiki = await createWiki(t, admin.user, { title: 'Audited Page' });
    const del = await t.as(moderator.token, {
      method: 'DELETE',
      url: api(`/wikis/WIKI/Audited_Page?revisionid=${wiki.revisionid}`),
    });
    expect(del.statusCode).toBe(204);
    await createCategory(t, admin.user, 'Movable');
    const moved = await t.as(moderator.token, {
      method: 'PUT',
      url: api('/wikis/CATEGORY/Movable/parent'),
      payload: { parent: 'Elsewhere' },
    });
    expect(moved.statusCode).toBe(200);
    expect((await rows(`entity_type=wiki&entity_id=${wiki.wikiid}`)).map((r) => [r.action, r.actor?.userid])).toEqual([
      ['wiki.delete', moderator.user.userid],
    ]);
    const move = await rows('action=category.move');
    expect(move).toEqual([
      expect.objectContaining({
        before: { parent_wikiid: null },
        after: { parent_wikiid: expect.any(Number), parent: 'Elsewhere' },
      }),
    ]);
  });
});
