import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContentVersions } from '../../src/platform/versions/content-versions';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';
import { usingMysql } from '../utils/test-config';

const api = (path: string) => `/api/2.0${path}`;
const HIERARCHY = '/wikis/CATEGORY?display=hierarchy';
/** Every option set whose answer is kept, and two that are always built (requireGuides, machine translation). */
const VARIANTS = [
  HIERARCHY,
  `${HIERARCHY}&includeStubs=true`,
  `${HIERARCHY}&langid=de`,
  `${HIERARCHY}&includeStubs=true&langid=de`,
  `${HIERARCHY}&requireGuides=true`,
  `${HIERARCHY}&machineTranslateLangid=fr`,
];

/**
 * The hierarchy in plain JSON is kept as text while no category changes (checked by one statement: the
 * category tree's token); ?pretty builds it every time. After every kind of category write both must give
 * the same answer, byte for byte, and conditional GETs revalidate it.
 */
describe('category hierarchy: the kept text and conditional GETs', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let dir: string | undefined;

  const get = (app: TestApp, url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: api(url), headers });

  /** The plain answer of every variant equals the object path's (?pretty re-serialized compactly). */
  const expectFresh = async (app: TestApp = t) => {
    for (const path of [...VARIANTS, '/categories']) {
      const separator = path.includes('?') ? '&' : '?';
      const plain = await get(app, path);
      const pretty = await get(app, `${path}${separator}pretty`);
      expect({ path, status: plain.statusCode, type: plain.headers['content-type'] }).toEqual({
        path,
        status: 200,
        type: 'application/json; charset=utf-8',
      });
      expect(pretty.body).toContain('\n  ');
      expect({ path, body: plain.body }).toEqual({ path, body: JSON.stringify(JSON.parse(pretty.body)) });
    }
  };
  interface Hierarchy {
    hierarchy: Record<string, unknown>;
    display_titles: Record<string, string>;
  }
  const hierarchy = async (app: TestApp = t, query = '') => (await get(app, `${HIERARCHY}${query}`)).json<Hierarchy>();
  const edit = async (title: string, payload: object, langid?: string) => {
    const path = `/wikis/CATEGORY/${encodeURIComponent(title)}${langid ? `?langid=${langid}` : ''}`;
    const current = (await t.as(admin.token, { method: 'GET', url: api(path) })).json<{ revisionid: number }>();
    const separator = langid ? '&' : '?';
    const res = await t.as(admin.token, {
      method: 'PATCH',
      url: api(`${path}${separator}revisionid=${current.revisionid}`),
      payload,
    });
    expect(res.statusCode).toBe(200);
  };

  beforeAll(async () => {
    // A file on SQLite, so that a second instance can share the database (MySQL: the run's database).
    dir = usingMysql() ? undefined : mkdtempSync(join(tmpdir(), 'rgcs-tree-'));
    t = await createTestApp({ env: dir ? { DB_PATH: join(dir, 'tree.sqlite') } : {} });
    admin = await createUser(t, { privilege: 'Admin' });
    await createCategory(t, admin.user, 'Electronics');
    await createCategory(t, admin.user, 'Phone', 'Electronics');
    await createCategory(t, admin.user, 'Laptop', 'Electronics');
    await createCategory(t, admin.user, 'Appliances');
  });
  afterAll(async () => {
    await t.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers the same bytes as the object path, and a cached answer for one statement', async () => {
    await expectFresh();
    const first = await get(t, HIERARCHY);
    const again = await get(t, HIERARCHY);
    expect(again.body).toBe(first.body);
    expect(sqlCount(again)).toBe(1);
    expect(JSON.parse(again.body)).toEqual({
      hierarchy: { Appliances: null, Electronics: { Laptop: null, Phone: null } },
      display_titles: { Appliances: 'Appliances', Electronics: 'Electronics', Laptop: 'Laptop', Phone: 'Phone' },
    });
    // Built every time: they depend on guides and on the translation provider, which do not replace the token.
    expect(sqlCount(await get(t, `${HIERARCHY}&requireGuides=true`))).toBeGreaterThan(1);
  });

  it('ETag and 304 on both routes; the tag changes with the tree', async () => {
    for (const path of [HIERARCHY, '/categories']) {
      const res = await get(t, path);
      const etag = res.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]{27}"$/);
      const revalidated = await get(t, path, { 'if-none-match': `W/${etag}` });
      expect({ status: revalidated.statusCode, body: revalidated.body }).toEqual({ status: 304, body: '' });
      expect((await get(t, path, { 'if-none-match': '"other"' })).statusCode).toBe(200);
    }
    const before = (await get(t, HIERARCHY)).headers.etag as string;
    await createCategory(t, admin.user, 'Tablet', 'Electronics');
    const after = await get(t, HIERARCHY, { 'if-none-match': before });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before);
    expect(after.json().hierarchy.Electronics).toEqual({ Laptop: null, Phone: null, Tablet: null });
  });

  it('every kind of category write shows in the next answer of every variant', async () => {
    await expectFresh();
    // A new display title.
    await edit('Phone', { display_title: 'Phones and smartphones' });
    expect((await hierarchy()).display_titles.Phone).toBe('Phones and smartphones');
    await expectFresh();
    // A stub: out of the default tree, in the includeStubs one.
    await edit('Laptop', { flags: ['WIKI_STUB'] });
    expect((await hierarchy()).hierarchy.Electronics).toEqual({ Phone: null, Tablet: null });
    expect((await hierarchy(t, '&includeStubs=true')).hierarchy.Electronics).toHaveProperty('Laptop', null);
    await expectFresh();
    // A translation.
    await edit('Phone', { display_title: 'Telefone' }, 'de');
    expect((await hierarchy(t, '&langid=de')).display_titles.Phone).toBe('Telefone');
    await expectFresh();
    // A move, to the top level and below another category.
    const move = (title: string, parent: string | null) =>
      t.as(admin.token, { method: 'PUT', url: api(`/wikis/CATEGORY/${title}/parent`), payload: { parent } });
    expect((await move('Tablet', null)).statusCode).toBe(200);
    expect((await hierarchy()).hierarchy).toHaveProperty('Tablet', null);
    expect((await move('Tablet', 'Appliances')).statusCode).toBe(200);
    expect((await hierarchy()).hierarchy.Appliances).toEqual({ Tablet: null });
    await expectFresh();
    // A delete, and the revert that restores it.
    const live = (await get(t, '/wikis/CATEGORY/Tablet')).json<{ wikiid: number; revisionid: number }>();
    const deleted = await t.as(admin.token, {
      method: 'DELETE',
      url: api(`/wikis/CATEGORY/Tablet?revisionid=${live.revisionid}`),
    });
    expect(deleted.statusCode).toBe(204);
    expect((await hierarchy()).hierarchy.Appliances).toBeNull();
    await expectFresh();
    const [{ head }] = await t.dataSource.query<{ head: number }[]>(
      'SELECT MAX(revisionid) AS head FROM wiki_revisions WHERE wikiid = ?',
      [live.wikiid],
    );
    const restored = await t.as(admin.token, {
      method: 'POST',
      url: api(`/wikis/CATEGORY/Tablet/revert?revisionid=${head}&to_revisionid=${live.revisionid}`),
    });
    expect(restored.statusCode).toBe(200);
    expect((await hierarchy()).hierarchy.Appliances).toEqual({ Tablet: null });
    await expectFresh();
  });

  it('writes to other namespaces keep the cached answer', async () => {
    await get(t, HIERARCHY);
    await createWiki(t, admin.user, { namespace: 'WIKI', title: 'Not a category' });
    expect(sqlCount(await get(t, HIERARCHY))).toBe(1);
  });

  it('a database without the token row keeps nothing, and the next category write brings it back', async () => {
    await t.dataSource.query("DELETE FROM content_versions WHERE name = 'category-tree'");
    expect(await t.app.get(ContentVersions).read('category-tree')).toBeNull();
    await get(t, HIERARCHY);
    expect(sqlCount(await get(t, HIERARCHY))).toBe(2);
    await createCategory(t, admin.user, 'Camera');
    expect((await hierarchy()).hierarchy).toHaveProperty('Camera', null);
    expect(sqlCount(await get(t, HIERARCHY))).toBe(1);
    await expectFresh();
  });

  it("a second instance's category write shows in the first instance's next answer", async () => {
    const other = await createTestApp({ env: dir ? { DB_PATH: join(dir, 'tree.sqlite') } : {}, keepData: true });
    try {
      const kept = await get(t, HIERARCHY);
      expect(sqlCount(await get(t, HIERARCHY))).toBe(1);
      await createCategory(other, admin.user, 'Drone', 'Electronics');
      const moved = await other.as(admin.token, {
        method: 'PUT',
        url: api('/wikis/CATEGORY/Camera/parent'),
        payload: { parent: 'Electronics' },
      });
      expect(moved.statusCode).toBe(200);
      const next = await get(t, HIERARCHY);
      expect(next.body).not.toBe(kept.body);
      expect(next.json().hierarchy.Electronics).toEqual({ Camera: null, Drone: null, Phone: null });
      await expectFresh(t);
      await expectFresh(other);
    } finally {
      await other.close();
    }
  });
});
