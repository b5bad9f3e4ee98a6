import { createUser, type CreatedUser } from '../factories/user.factory';
import { createWiki } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

const api = '/api/2.0';

describe('wiki tags', () => {
  let t: TestApp;
  let moderator: CreatedUser;
  let author: CreatedUser;
  const tag = (method: 'PUT' | 'DELETE', url: string, token: string | undefined, payload: object) =>
    t.as(token, { method, url: `${api}${url}`, payload });

  beforeAll(async () => {
    t = await createTestApp();
    moderator = await createUser(t, { privilege: 'Moderator' });
    author = await createUser(t, { privilege: 'Author' });
    await createWiki(t, author.user, { namespace: 'ITEM', title: 'Heat Gun', contents: 'Hot.' });
  });
  afterAll(() => t.close());

  describe('PUT /wikis/{namespace}/{title}/tag', () => {
    it('401, 403 for an Author, 404 unknown wiki, 422 unknown namespace / bad tag', async () => {
      expect((await tag('PUT', '/wikis/ITEM/Heat_Gun/tag', undefined, { tag: 'x' })).statusCode).toBe(401);
      const forbidden = await tag('PUT', '/wikis/ITEM/Heat_Gun/tag', author.token, { tag: 'x' });
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json().requiredPrivileges).toEqual(['Admin', 'Moderator']);
      expect((await tag('PUT', '/wikis/ITEM/Nope/tag', moderator.token, { tag: 'x' })).statusCode).toBe(404);
      expect((await tag('PUT', '/wikis/BLOG/Heat_Gun/tag', moderator.token, { tag: 'x' })).statusCode).toBe(422);
      expect((await tag('PUT', '/wikis/ITEM/Heat_Gun/tag', moderator.token, {})).statusCode).toBe(422);
      expect((await tag('PUT', '/wikis/ITEM/Heat_Gun/tag', moderator.token, { tag: 'x'.repeat(33) })).statusCode).toBe(
        422,
      );
    });

    it('adds the tag and answers the detail plus url, fullUrl and editUrl', async () => {
      const res = await tag('PUT', '/wikis/ITEM/Heat_Gun/tag', moderator.token, { tag: 'Heat' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        wikiid: expect.any(Number),
        langid: 'en',
        namespace: 'ITEM',
        title: 'Heat Gun',
        display_title: 'Heat Gun',
        revisionid: expect.any(Number),
        modified_date: expect.any(Number),
        created_date: expect.any(Number),
        author: author.user.userid,
        contents_raw: 'Hot.',
        contents_rendered: '<p>Hot.</p>',
        contents_json: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Hot.' }] }] },
        linked_wikis: [],
        image: null,
        flags: [],
        tags: ['Heat'],
        table_of_contents: false,
        can_edit: true,
        available_langids: ['en'],
        source_revisionid: null,
        description: '',
        info: [],
        suppliers: [],
        url: 'http://guides.test/Item/Heat_Gun',
        fullUrl: 'http://guides.test/Item/Heat_Gun',
        editUrl: 'http://guides.test/Edit/Item/Heat_Gun',
      });
      await tag('PUT', '/wikis/ITEM/Heat_Gun/tag', moderator.token, { tag: 'adhesive' });
    });
  });

  describe('GET /wikis/{namespace}/{title}/tags', () => {
    it('404 unknown wiki; the tags sorted', async () => {
      expect((await t.inject({ method: 'GET', url: `${api}/wikis/ITEM/Nope/tags` })).statusCode).toBe(404);
      expect((await t.inject({ method: 'GET', url: `${api}/wikis/ITEM/Heat_Gun/tags` })).json()).toEqual([
        'adhesive',
        'Heat',
      ]);
    });
  });

  describe('DELETE /wikis/{namespace}/{title}/tag', () => {
    it('403 for an Author, 404 for a tag the wiki does not carry', async () => {
      expect((await tag('DELETE', '/wikis/ITEM/Heat_Gun/tag', author.token, { tag: 'Heat' })).statusCode).toBe(403);
      const missing = await tag('DELETE', '/wikis/ITEM/Heat_Gun/tag', moderator.token, { tag: 'cold' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ error: true, message: 'Tag not found' });
    });

    it('removes the tag (case-insensitively) and answers the detail with URLs', async () => {
      const res = await tag('DELETE', '/wikis/ITEM/Heat_Gun/tag', moderator.token, { tag: 'heat' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        title: 'Heat Gun',
        tags: ['adhesive'],
        url: 'http://guides.test/Item/Heat_Gun',
      });
    });
  });
});
