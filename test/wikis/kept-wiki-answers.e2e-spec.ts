import type { LightMyRequestResponse } from 'fastify';
import { answerSources } from '../../src/database/answer-sources';
import { WIKI_ANSWER_SOURCES } from '../../src/modules/wikis/wiki-reader.service';
import { EventBus } from '../../src/platform/events/event-bus';
import { ContentVersions } from '../../src/platform/versions/content-versions';
import { createGuide } from '../factories/guide.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';
import { tablesRead } from '../utils/tables-read';

const api = (path: string) => `/api/2.0${path}`;

interface Detail {
  revisionid: number;
  contents_raw: string;
  contents_rendered: string;
  tags: string[];
  children: { title: string }[];
  guides: { guideid: number; title: string }[];
}

/**
 * An anonymous wiki detail (plain JSON) is kept whole under the `answers` token (ResponseCache) and served with one
 * statement until a write changes a table it is built from (WIKI_ANSWER_SOURCES).
 */
describe('Wiki detail: anonymous answers kept whole', () => {
  let t: TestApp;
  let admin: CreatedUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { privilege: 'Admin' });
    // On MySQL the test database is emptied before each file's app starts, token rows included.
    await t.app.get(ContentVersions).bump('answers');
    await t.app.get(ContentVersions).bump('releases');
  });
  afterAll(() => t.close());

  const get = (path: string, query = '') => t.inject({ method: 'GET', url: api(`/wikis/${path}${query}`) });
  /** The anonymous answer, checked against the object path (`?pretty`, never kept). */
  const anonymous = async (path: string): Promise<LightMyRequestResponse> => {
    const plain = await get(path);
    const fresh = await get(path, '?pretty');
    expect(plain.statusCode).toBe(fresh.statusCode);
    if (plain.statusCode === 200) {
      expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(plain.body).toBe(JSON.stringify(fresh.json()));
    }
    return plain;
  };
  const as = (method: 'PATCH' | 'PUT' | 'DELETE', path: string, payload?: object) =>
    t.as(admin.token, { method, url: api(`/wikis/${path}`), ...(payload ? { payload } : {}) });
  /** PATCH with the newest revisionid. */
  const edit = async (path: string, payload: object) => {
    const { revisionid } = (await get(path, '?pretty')).json<Detail>();
    const res = await as('PATCH', `${path}?revisionid=${revisionid}`, payload);
    expect(res.statusCode).toBe(200);
    return res;
  };

  it('keeps a category detail whole, and shows every change of what it is built from at once', async () => {
    await createCategory(t, admin.user, 'Blender');
    const linked = await createCategory(t, admin.user, 'Blade safety');
    const guide = await createGuide(t, admin.user, { category: 'Blender', public: true });
    await edit('CATEGORY/Blender', { contents: `See [guide|${guide.guideid}] and [wiki|CATEGORY|${linked.title}].` });
    await t.app.get(EventBus).drain();
    const path = 'CATEGORY/Blender';
    let body = (await anonymous(path)).json<Detail>();
    expect(sqlCount(await get(path))).toBe(1);
    expect(body.guides.map((g) => g.guideid)).toEqual([guide.guideid]);
    // Signed-in callers and other languages are not served this answer.
    expect(sqlCount(await t.as(admin.token, { method: 'GET', url: api(`/wikis/${path}`) }))).toBeGreaterThan(1);
    expect(sqlCount(await get(path, '?langid=fr'))).toBeGreaterThan(1);

    // The wiki edited; a child category; a tag; a guide's title (in `guides` and in the rendered link).
    await edit(path, { contents: `Edited. See [guide|${guide.guideid}] and [wiki|CATEGORY|${linked.title}].` });
    body = (await anonymous(path)).json<Detail>();
    expect(body.contents_raw).toMatch(/^Edited\./);
    await createCategory(t, admin.user, 'Blender jar', 'Blender');
    body = (await anonymous(path)).json<Detail>();
    expect(body.children.map((c) => c.title)).toEqual(['Blender jar']);
    expect((await as('PUT', `${path}/tag`, { tag: 'kitchen' })).statusCode).toBe(200);
    body = (await anonymous(path)).json<Detail>();
    expect(body.tags).toEqual(['kitchen']);
    const renamed = await t.as(admin.token, {
      method: 'PATCH',
      url: api(`/guides/${guide.guideid}?revisionid=${guide.revisionid}`),
      payload: { title: 'Blender blade replacement' },
    });
    expect(renamed.statusCode).toBe(200);
    await t.app.get(EventBus).drain(); // the category's guide list is derived by an event's subscriber
    body = (await anonymous(path)).json<Detail>();
    expect(body.guides.map((g) => g.title)).toEqual(['Blender blade replacement']);
    expect(body.contents_rendered).toContain('Blender blade replacement');
    // The linked page's display title, changed by a statement outside any transaction.
    await t.dataSource.query('UPDATE wiki_revisions SET display_title = ? WHERE wikiid = ?', [
      'Blade safety first',
      linked.wikiid,
    ]);
    body = (await anonymous(path)).json<Detail>();
    expect(body.contents_rendered).toContain('Blade safety first');

    // The child deleted: its detail is a 404, the parent has no children.
    const child = 'CATEGORY/Blender jar';
    expect((await anonymous(child)).statusCode).toBe(200);
    const current = (await get(child, '?pretty')).json<Detail>();
    const deleted = await as('DELETE', `${child}?revisionid=${current.revisionid}`);
    expect(deleted.statusCode).toBe(204);
    expect((await anonymous(child)).statusCode).toBe(404);
    expect((await anonymous(path)).json<Detail>().children).toEqual([]);
  });

  it('names every table a wiki detail is built from as a source of cached answers', async () => {
    await createCategory(t, admin.user, 'Mixer');
    await createCategory(t, admin.user, 'Stand mixer', 'Mixer');
    const info = await createWiki(t, admin.user, { namespace: 'INFO', title: 'Mixing bowls', contents: 'Bowls.' });
    const guide = await createGuide(t, admin.user, { category: 'Stand mixer', public: true });
    const references = `[guide|${guide.guideid}] [wiki|INFO|${info.title}] [image|1] [document|1]`;
    await edit('CATEGORY/Stand mixer', { contents: `Mixers. ${references}` });
    expect((await as('PUT', 'CATEGORY/Stand mixer/tag', { tag: 'kitchen' })).statusCode).toBe(200);
    const item = await createWiki(t, admin.user, { namespace: 'ITEM', title: 'Whisk', contents: references });
    await t.app.get(EventBus).drain();
    await t.app.get(ContentVersions).bump('answers');
    const read = await tablesRead(t, async () => {
      for (const path of ['CATEGORY/Stand mixer', 'CATEGORY/Mixer', `ITEM/${item.title}`, `INFO/${info.title}`])
        expect((await get(path)).statusCode).toBe(200);
    });
    expect(read.size).toBeGreaterThan(3);
    const registered = answerSources();
    for (const table of WIKI_ANSWER_SOURCES) expect(registered.has(table)).toBe(true);
    expect([...read].filter((table) => table !== 'content_versions' && !registered.has(table))).toEqual([]);
  });
});
