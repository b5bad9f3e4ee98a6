import type { WikiDetailDto } from '../../src/modules/wikis/dto/wiki-response.dto';
import { ContentVersions } from '../../src/platform/versions/content-versions';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';
import { withoutVersionToken } from '../utils/version-tokens';

const api = (path: string) => `/api/2.0${path}`;

/**
 * A category's ancestors and children (light rows) are kept per category and language shown under the
 * `category-tree` token, which category detail selects in its first statement: a kept family costs no
 * statement, and every category write (create, edit, translation, move, delete) shows at once.
 */
describe('category detail: the family kept under the category-tree token', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let author: CreatedUser;

  /**
   * An anonymous read, built each time: the whole answer an anonymous read keeps under the `answers` token is
   * replaced first, so that what is measured here is the family kept under the category tree's token.
   */
  const get = async (title: string, query = '') => {
    await t.app.get(ContentVersions).bump('answers');
    return t.inject({ method: 'GET', url: api(`/wikis/CATEGORY/${title}${query}`) });
  };
  const detail = async (title: string, query = '') => {
    const res = await get(title, query);
    expect(res.statusCode).toBe(200);
    return res.json<WikiDetailDto>();
  };
  const summaries = async (title: string, query = ''): Promise<string[]> =>
    ((await detail(title, query)).children ?? []).map((c) => `${c.title}: ${c.summary}`);
  const edit = async (token: string, title: string, payload: object, query = '') => {
    const current = await detail(title, query);
    const res = await t.as(token, {
      method: 'PATCH',
      url: api(`/wikis/CATEGORY/${title}?revisionid=${current.revisionid}${query ? `&${query.slice(1)}` : ''}`),
      payload,
    });
    expect(res.statusCode).toBe(200);
  };
  /** The same read with nothing kept (no token row), then the token back. */
  const withoutToken = <T>(read: () => Promise<T>): Promise<T> => withoutVersionToken(t, 'category-tree', read);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { privilege: 'Admin' });
    author = await createUser(t, { privilege: 'Author' });
    await createCategory(t, admin.user, 'Kitchen');
    await createCategory(t, admin.user, 'Kettles', 'Kitchen', { description: 'Boiling water' });
    await createCategory(t, admin.user, 'Electric Kettle', 'Kettles');
    await createCategory(t, admin.user, 'Stovetop Kettle', 'Kettles');
  });
  afterAll(() => t.close());

  it('a kept family costs one statement less than one read from the rows, with the same bytes', async () => {
    await get('Kettles');
    const kept = await get('Kettles');
    const built = await withoutToken(() => get('Kettles'));
    expect(kept.body).toBe(built.body);
    expect(sqlCount(built) - sqlCount(kept)).toBe(1);
    expect(kept.json().ancestors.map((a: { title: string }) => a.title)).toEqual(['Kitchen']);
  });

  it('shows at once: a child created, a child edited, a translation, a move and a delete', async () => {
    expect(await summaries('Kettles')).toEqual(['Electric Kettle: ', 'Stovetop Kettle: ']);
    await createCategory(t, admin.user, 'Camping Kettle', 'Kettles');
    await edit(admin.token, 'Electric Kettle', { description: 'Plugs in' });
    expect(await summaries('Kettles')).toEqual(['Camping Kettle: ', 'Electric Kettle: Plugs in', 'Stovetop Kettle: ']);

    // A view in German (of a category translated to German) is kept apart; a translation of a child shows in it
    // only.
    await edit(admin.token, 'Kettles', { display_title: 'Kessel' }, '?langid=de');
    expect((await detail('Kettles', '?langid=de')).children![1].display_title).toBe('Electric Kettle');
    await edit(admin.token, 'Electric Kettle', { display_title: 'Wasserkocher', description: 'Elektrisch' }, '?langid=de');
    expect((await detail('Kettles', '?langid=de')).children![1]).toMatchObject({
      display_title: 'Wasserkocher',
      summary: 'Elektrisch',
      langid: 'de',
    });
    expect((await detail('Kettles')).children![1].display_title).toBe('Electric Kettle');

    // An ancestor edited shows in a grandchild's ancestors.
    expect((await detail('Electric Kettle')).ancestors!.map((a: { summary: string }) => a.summary)).toEqual([
      'Boiling water',
      '',
    ]);
    await edit(admin.token, 'Kitchen', { description: 'Where food is made' });
    expect((await detail('Electric Kettle')).ancestors!.map((a: { summary: string }) => a.summary)).toEqual([
      'Boiling water',
      'Where food is made',
    ]);

    const moved = await t.as(admin.token, {
      method: 'PUT',
      url: api('/wikis/CATEGORY/Camping Kettle/parent'),
      payload: { parent: 'Kitchen' },
    });
    expect(moved.statusCode).toBe(200);
    expect((await detail('Kettles')).children!.map((c: { title: string }) => c.title)).toEqual([
      'Electric Kettle',
      'Stovetop Kettle',
    ]);
    const stovetop = await detail('Stovetop Kettle');
    const deleted = await t.as(admin.token, {
      method: 'DELETE',
      url: api(`/wikis/CATEGORY/Stovetop Kettle?revisionid=${stovetop.revisionid}`),
    });
    expect(deleted.statusCode).toBe(204);
    expect((await detail('Kettles')).children!.map((c: { title: string }) => c.title)).toEqual(['Electric Kettle']);
    // Every answer above is what the rows give.
    const kept = await get('Kettles');
    expect(kept.body).toBe((await withoutToken(() => get('Kettles'))).body);
  });

  it('an unpatrolled edit changes nothing a reader sees, kept or not', async () => {
    const before = await get('Kettles');
    await edit(author.token, 'Electric Kettle', { description: 'Unpatrolled words' });
    const after = await get('Kettles');
    expect(after.body).toBe(before.body);
    expect(after.body).toBe((await withoutToken(() => get('Kettles'))).body);
  });

  it('rows changed under the service show once the token changes, and not before', async () => {
    const before = await summaries('Kettles');
    await t.dataSource.query(
      `UPDATE wiki_revisions SET summary = 'Changed underneath' WHERE revisionid =
         (SELECT revisionid FROM wiki_languages WHERE langid = 'en' AND wikiid =
           (SELECT wikiid FROM wikis WHERE namespace = 'CATEGORY' AND title = 'Electric Kettle'))`,
    );
    expect(await summaries('Kettles')).toEqual(before);
    await t.app.get(ContentVersions).bump('category-tree');
    expect(await summaries('Kettles')).toEqual(
      before.map((line: string) => (line.startsWith('Electric Kettle:') ? 'Electric Kettle: Changed underneath' : line)),
    );
    expect(before).toContain('Electric Kettle: Plugs in');
  });
});
