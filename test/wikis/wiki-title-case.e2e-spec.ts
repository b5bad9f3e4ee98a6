import { DataSource } from 'typeorm';
import { WikiEntity } from '../../src/modules/wikis/entities/wiki.entity';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { settle } from '../utils/events';
import { createTestApp, type TestApp } from '../utils/test-app';

const api = '/api/2.0';

describe('wiki titles compare case-insensitively', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let author: CreatedUser;

  const get = (url: string, token?: string) => t.as(token, { method: 'GET', url: `${api}${url}` });
  const post = (url: string, token: string, payload: object) =>
    t.as(token, { method: 'POST', url: `${api}${url}`, payload });
  const wikiCount = () => t.app.get(DataSource).getRepository(WikiEntity).count();

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { privilege: 'Admin' });
    author = await createUser(t, { privilege: 'Author' });
    await createCategory(t, admin.user, 'Electronics');
    await createCategory(t, admin.user, 'iPhone 6', 'Electronics', { display_title: 'Apple iPhone 6' });
    await createCategory(t, admin.user, 'Tablets');
    await createWiki(t, admin.user, { namespace: 'INFO', title: 'About', contents: 'About us.' });
    await createWiki(t, admin.user, { namespace: 'ITEM', title: 'Spudger', contents: '' });
  });
  afterAll(() => t.close());

  it('GET /wikis/{namespace}/{title} answers the same page in any case, with the stored spelling', async () => {
    const exact = await get('/wikis/CATEGORY/iPhone_6');
    expect(exact.statusCode).toBe(200);
    expect(exact.json()).toMatchObject({ title: 'iPhone 6', display_title: 'Apple iPhone 6' });
    for (const title of ['iphone_6', 'IPHONE_6', 'iPhone%206', 'IpHoNe_6']) {
      const anonymous = await get(`/wikis/CATEGORY/${title}`);
      expect({ title, status: anonymous.statusCode, body: anonymous.body }).toEqual({
        title,
        status: 200,
        body: exact.body,
      });
      const signedIn = await get(`/wikis/CATEGORY/${title}`, author.token);
      expect(signedIn.json()).toEqual({ ...exact.json(), can_edit: true });
    }
    const info = await get('/wikis/INFO/about');
    expect(info.statusCode).toBe(200);
    expect(info.json().title).toBe('About');
    expect((await get('/wikis/CATEGORY/iphone_6/children')).statusCode).toBe(200);
    expect((await get('/wikis/CATEGORY/IPHONE_6/identification')).json().title).toBe('iPhone 6');
  });

  it('a title differing only by case from an existing one is a 422, nothing written', async () => {
    const before = await wikiCount();
    for (const title of ['iphone 6', 'IPHONE_6', 'about']) {
      const namespace = title === 'about' ? 'INFO' : 'CATEGORY';
      const res = await post('/wikis', admin.token, { namespace, title, contents: 'x' });
      const stored = title === 'about' ? 'about' : title.replace(/_/g, ' ');
      const message = `A ${namespace} wiki titled ${stored} already exists`;
      expect({ title, status: res.statusCode, body: res.json() }).toEqual({
        title,
        status: 422,
        body: { error: true, message, errors: [{ message, field: 'title' }] },
      });
    }
    // Another namespace is another identity.
    expect((await post('/wikis', admin.token, { namespace: 'WIKI', title: 'iphone 6', contents: '' })).statusCode).toBe(
      201,
    );
    expect(await wikiCount()).toBe(before + 1);
  });

  it('of a burst creating one title in many cases, exactly one is created', async () => {
    const before = await wikiCount();
    const spellings = ['Case Burst', 'case burst', 'CASE BURST', 'Case burst', 'cAsE bUrSt', 'case_Burst'];
    const results = await Promise.all(
      [...spellings, ...spellings].map((title) =>
        post('/wikis', admin.token, { namespace: 'CATEGORY', title, contents: 'x' }),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, ...new Array<number>(11).fill(422)]);
    results.filter((r) => r.statusCode === 422).forEach((r) => expect(r.json().error).toBe(true));
    expect(await wikiCount()).toBe(before + 1);
  });

  it('links in wiki text resolve in any case and show the stored spelling', async () => {
    const res = await post('/wikis', admin.token, {
      namespace: 'WIKI',
      title: 'Links Page',
      contents: 'See [wiki|CATEGORY|iphone 6|the phone] and [wiki|INFO|ABOUT].',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.linked_wikis).toEqual([
      { wikiid: expect.any(Number), namespace: 'CATEGORY', title: 'iPhone 6' },
      { wikiid: expect.any(Number), namespace: 'INFO', title: 'About' },
    ]);
    expect(body.contents_rendered).toContain('href="http://guides.test/c/iPhone_6"');
    expect(body.contents_rendered).toContain('href="http://guides.test/Info/About"');
  });

  it("a guide's category is matched in any case and stored in the category's spelling", async () => {
    const created = await post('/guides', author.token, {
      category: 'IPHONE 6',
      type: 'replacement',
      subject: 'Battery',
      public: true,
      parts: [{ name: 'spudger' }],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ category: 'iPhone 6', title: 'iPhone 6 Battery Replacement' });
    // The ITEM page "Spudger" is reused, not created again as "spudger".
    expect(created.json().parts[0].text).toBe('Spudger');
    const items = await get('/wikis/ITEM?display=titles');
    expect(items.json()).toEqual(['Spudger']);
    await settle(t);
    const category = await get('/wikis/CATEGORY/iphone_6');
    expect(category.json().guides.map((g: { guideid: number }) => g.guideid)).toEqual([created.json().guideid]);
    const missing = await post('/guides', author.token, { category: 'iphone 7', type: 'replacement', subject: 'x' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual([{ message: 'Category iphone 7 does not exist', field: 'category' }]);
  });

  it('moves name the category and its parent in any case', async () => {
    const res = await t.as(admin.token, {
      method: 'PUT',
      url: `${api}/wikis/CATEGORY/IPHONE_6/parent`,
      payload: { parent: 'tablets' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ title: 'iPhone 6', parent: 'Tablets' });
    expect((await get('/categories')).json()).toMatchObject({ Tablets: { 'iPhone 6': null } });
  });

  it('a new wiki under a parent named in another case', async () => {
    const res = await post('/wikis', admin.token, {
      namespace: 'CATEGORY',
      title: 'iPad',
      parent: 'TABLETS',
      contents: 'x',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().parent).toBe('Tablets');
  });
});
