import type { LightMyRequestResponse } from 'fastify';
import { answerSources } from '../../src/database/answer-sources';
import { SEARCH_ANSWER_SOURCES } from '../../src/modules/search/search.service';
import { ContentVersions } from '../../src/platform/versions/content-versions';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { settle } from '../utils/events';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';
import { tablesRead } from '../utils/tables-read';
import { API, indexedGuide, titles, type SearchBody } from './search-kit';

/**
 * An anonymous search (plain JSON) is kept whole under the `answers-search` token (SearchService.anonymousJson) and
 * answered with one statement until a write changes a table it is built from (SEARCH_ANSWER_SOURCES).
 */
describe('Search: anonymous answers kept whole', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let author: CreatedUser;

  const get = (query: string, params = '', token?: string) =>
    t.as(token, { method: 'GET', url: `${API}/search/${encodeURIComponent(query)}${params}` });
  /** The anonymous answer, checked against the object path (`?pretty`, never kept). */
  const anonymous = async (query: string, params = ''): Promise<LightMyRequestResponse> => {
    const plain = await get(query, params);
    const object = await get(query, params ? `${params}&pretty` : '?pretty');
    expect(plain.statusCode).toBe(object.statusCode);
    if (plain.statusCode === 200) expect(plain.json()).toEqual(object.json());
    return plain;
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { privilege: 'Admin' });
    author = await createUser(t, { privilege: 'Author' });
    // On MySQL the test database is emptied before each file's app starts, token rows included.
    await t.app.get(ContentVersions).bump('answers-search');
    await createCategory(t, admin.user, 'Kettle', undefined, { contents: 'Kettles boil water; scale builds up.' });
    await createWiki(t, admin.user, { namespace: 'INFO', title: 'Scale', contents: 'Limescale in a kettle.' });
    await indexedGuide(t, author.user, { category: 'Kettle', title: 'Kettle Descaling', summary: 'Remove scale.' });
    await settle(t);
  });
  afterAll(() => t.close());

  it('answers a second anonymous search with one statement and the same bytes, per query', async () => {
    const first = await anonymous('kettle');
    expect(first.json<SearchBody>().totalResults).toBeGreaterThan(1);
    const second = await get('kettle');
    expect(second.body).toBe(first.body);
    expect(sqlCount(second)).toBe(1);
    expect(sqlCount(await get('kettle', '?limit=1'))).toBeGreaterThan(1);
    expect(sqlCount(await get('kettle', '?limit=1'))).toBe(1);
    expect(sqlCount(await get('kettle', '', author.token))).toBeGreaterThan(2);
    expect((await get('x'.repeat(201))).statusCode).toBe(422);
    expect((await get('x'.repeat(201))).statusCode).toBe(422);
  });

  it('is fresh after a guide is indexed, renamed and made private', async () => {
    expect(titles(await anonymous('kettle').then((r) => r.json<SearchBody>()))).not.toContain('Kettle Lid Repair');
    const guide = await indexedGuide(t, author.user, { category: 'Kettle', title: 'Kettle Lid Repair' });
    expect(titles((await anonymous('kettle')).json<SearchBody>())).toContain('Kettle Lid Repair');
    const renamed = await t.as(author.token, {
      method: 'PATCH',
      url: `${API}/guides/${guide.guideid}?revisionid=${guide.revisionid}`,
      payload: { title: 'Kettle Lid Hinge' },
    });
    expect(renamed.statusCode).toBe(200);
    await settle(t);
    expect(titles((await anonymous('kettle')).json<SearchBody>())).toContain('Kettle Lid Hinge');
    const hidden = await t.as(author.token, {
      method: 'PATCH',
      url: `${API}/guides/${guide.guideid}?revisionid=${renamed.json<{ revisionid: number }>().revisionid}`,
      payload: { public: false },
    });
    expect(hidden.statusCode).toBe(200);
    await settle(t);
    expect(titles((await anonymous('kettle')).json<SearchBody>())).not.toContain('Kettle Lid Hinge');
  });

  it('reads only tables registered as sources of cached answers', async () => {
    await t.app.get(ContentVersions).bump('answers-search');
    const read = await tablesRead(t, async () => {
      expect((await get('kettle')).statusCode).toBe(200);
      expect((await get('scale', '?filter=wiki')).statusCode).toBe(200);
    });
    expect(read.size).toBeGreaterThan(2);
    const registered = answerSources('answers-search');
    for (const table of SEARCH_ANSWER_SOURCES) expect(registered.has(table)).toBe(true);
    expect([...read].filter((table) => table !== 'content_versions' && !registered.has(table))).toEqual([]);
  });
});
