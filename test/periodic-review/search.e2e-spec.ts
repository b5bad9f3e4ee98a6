import { FakeClock } from '../../src/platform/clock/clock';
import { createGuide } from '../factories/guide.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { API, utc } from './periodic-review-kit';

/** P10: documents the caller may edit, by title. */
describe('Periodic review search (P10)', () => {
  let t: TestApp;
  const clock = new FakeClock(utc(2027, 1, 31, 10));
  let author: CreatedUser;
  let other: CreatedUser;
  let user: CreatedUser;

  const get = (token: string | undefined, url: string) => t.as(token, { method: 'GET', url: `${API}${url}` });

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
    author = await createUser(t, { privilege: 'Author' });
    other = await createUser(t, { privilege: 'Author' });
    user = await createUser(t);
    await createCategory(t, author.user, 'Kettle');
  });
  afterAll(() => t.close());

  it('401, 403 for a User, 422 for a term over 100 characters or a bad doctype', async () => {
    expect((await get(undefined, '/periodic_review/search/Descale')).statusCode).toBe(401);
    expect((await get(user.token, '/periodic_review/search/Descale')).statusCode).toBe(403);
    const long = await get(author.token, `/periodic_review/search/${'x'.repeat(101)}`);
    expect(long.statusCode).toBe(422);
    expect(long.json().errors[0].field).toBe('searchTerm');
    expect((await get(author.token, '/periodic_review/search/Descale?doctype=team')).statusCode).toBe(422);
    expect((await get(author.token, '/periodic_review/search/Descale?limit=0')).statusCode).toBe(422);
  });

  it('hits among editable documents, case-insensitive, with prsid and prdid when scheduled; doctype filter and paging', async () => {
    const mine = await createGuide(t, author.user, { category: 'Kettle', public: true, subject: 'Descaling' });
    const theirs = await createGuide(t, other.user, { category: 'Kettle', public: true, subject: 'Descaling too' });
    const wiki = await createWiki(t, author.user, { title: 'How to DESCALE a kettle', contents: 'x' });
    await createWiki(t, author.user, { title: 'Unrelated', contents: 'x' });
    const prsid = (
      await t.as(author.token, {
        method: 'POST',
        url: `${API}/periodic_review`,
        payload: { name: 'S', recurrence: { type: 'annual', month: 6, day: 1 } },
      })
    ).json().prsid;
    const added = await t.as(author.token, {
      method: 'POST',
      url: `${API}/periodic_review/documents`,
      payload: { prsid, documents: [{ doctype: 'WIKI', docid: wiki.wikiid }] },
    });
    const prdid = added.json().documents[0].prdid;
    const res = await get(author.token, '/periodic_review/search/descal');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { doctype: 'GUIDE', docid: mine.guideid, title: mine.title, url: mine.url, prsid: null, prdid: null },
      { doctype: 'WIKI', docid: wiki.wikiid, title: wiki.title, url: expect.any(String), prsid, prdid },
    ]);
    expect(res.json().map((h: { doctype: string; docid: number }) => `${h.doctype}:${h.docid}`)).not.toContain(
      `GUIDE:${theirs.guideid}`,
    );
    const asOther = (await get(other.token, '/periodic_review/search/descal?doctype=guide')).json();
    expect(asOther.map((h: { docid: number }) => h.docid)).toEqual([theirs.guideid]);
    const wikis = (await get(author.token, '/periodic_review/search/DESCAL?doctype=wiki')).json();
    expect(wikis.map((h: { docid: number }) => h.docid)).toEqual([wiki.wikiid]);
    const paged = (await get(author.token, '/periodic_review/search/descal?offset=1&limit=1')).json();
    expect(paged.map((h: { docid: number }) => h.docid)).toEqual([wiki.wikiid]);
    expect((await get(author.token, '/periodic_review/search/nothing-like-this')).json()).toEqual([]);
  });
});
