import { createGuide } from '../factories/guide.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { settle } from '../utils/events';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';

const api = '/api/2.0';

interface Summary {
  guideid: number;
  title: string;
  flags: string[];
}

/** The items of a JSON array answer, each as its own JSON text (key order kept). */
const itemsText = (body: string): string[] => (JSON.parse(body) as unknown[]).map((item) => JSON.stringify(item));

describe('category detail: guides, featured_guides, parts and tools', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let author: CreatedUser;
  let starred: number;
  let plain: number;
  let hidden: number;

  const get = (url: string, token?: string) => t.as(token, { method: 'GET', url: `${api}${url}` });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { privilege: 'Admin' });
    author = await createUser(t, { privilege: 'Author' });
    await createCategory(t, admin.user, 'Phone');
    await createCategory(t, admin.user, 'Empty Phone');
    await createCategory(t, admin.user, 'Big Phone');
    await createWiki(t, admin.user, { namespace: 'ITEM', title: 'Spudger', display_title: 'Spudger tool' });
    starred = (
      await createGuide(t, admin.user, {
        category: 'Phone',
        subject: 'Battery',
        public: true,
        flags: ['GUIDE_STARRED'],
        parts: [{ name: 'Battery' }, { name: 'battery' }],
        tools: [{ name: 'spudger' }, { name: 'Tweezers' }],
      })
    ).guideid;
    plain = (
      await createGuide(t, author.user, {
        category: 'phone',
        subject: 'Antenna',
        public: true,
        parts: [{ name: 'Battery' }, { name: 'Antenna' }],
        tools: [{ name: 'Spudger' }],
      })
    ).guideid;
    hidden = (await createGuide(t, author.user, { category: 'Phone', subject: 'Secret', public: false })).guideid;
    await settle(t);
  });
  afterAll(() => t.close());

  it('guides are the items GET /guides answers for them, byte for byte, for each caller', async () => {
    for (const token of [undefined, author.token, admin.token]) {
      const category = await get('/wikis/CATEGORY/phone', token);
      expect(category.statusCode).toBe(200);
      const detail = category.json<{ guides: Summary[] }>();
      // By title: Phone Antenna Replacement, then Phone Battery Replacement.
      expect(detail.guides.map((g) => g.guideid)).toEqual([plain, starred]);
      const listed = itemsText((await get(`/guides?guideids=${plain},${starred}`, token)).body);
      const byId = new Map(listed.map((text) => [(JSON.parse(text) as Summary).guideid, text]));
      expect(detail.guides.map((g) => JSON.stringify(g))).toEqual([byId.get(plain), byId.get(starred)]);
    }
    // The anonymous answer (kept whole) is written with the same bytes.
    const anonymous = await get('/wikis/CATEGORY/Phone');
    const [first, second] = itemsText((await get(`/guides?guideids=${plain},${starred}`)).body); // by guideid
    expect(anonymous.body).toContain(`"guides":[${second},${first}]`);
  });

  it('leaves out private guides, for everyone (as GET /guides does)', async () => {
    for (const token of [undefined, author.token, admin.token]) {
      const ids = (await get('/wikis/CATEGORY/Phone', token))
        .json<{ guides: Summary[] }>()
        .guides.map((g) => g.guideid);
      expect(ids).not.toContain(hidden);
    }
  });

  it('featured_guides: the guides flagged GUIDE_STARRED or GUIDE_FEATURED_STUDENT, same shape', async () => {
    const detail = (await get('/wikis/CATEGORY/Phone')).json<{ guides: Summary[]; featured_guides: Summary[] }>();
    expect(detail.featured_guides).toEqual(detail.guides.filter((g) => g.guideid === starred));
  });

  it('parts and tools: the ITEM pages the guides use, parts counted by guide', async () => {
    const detail = (await get('/wikis/CATEGORY/Phone')).json();
    const item = (title: string) => `http://guides.test/Item/${title}`;
    expect(detail.parts).toEqual({
      url: 'http://guides.test/c/Phone',
      total: 2,
      categories: [
        { name: 'Antenna', tag: 'Antenna', url: item('Antenna'), count: 1 },
        { name: 'Battery', tag: 'Battery', url: item('Battery'), count: 2 },
      ],
    });
    const noImage = `${t.config.publicUrl}/api/2.0/media/placeholders/no-image.standard.png`;
    expect(detail.tools).toEqual([
      { title: 'Spudger tool', target_url: item('Spudger'), image_url: noImage, itemcode: null },
      { title: 'Tweezers', target_url: item('Tweezers'), image_url: noImage, itemcode: null },
    ]);
    const placeholder = await t.inject({ method: 'GET', url: new URL(noImage).pathname });
    expect(placeholder.statusCode).toBe(200);
    expect(placeholder.headers['content-type']).toBe('image/png');
    expect(placeholder.rawPayload.subarray(1, 4).toString()).toBe('PNG');
  });

  it('a category without guides has empty lists', async () => {
    expect((await get('/wikis/CATEGORY/Empty_Phone')).json()).toMatchObject({
      guides: [],
      featured_guides: [],
      parts: { url: 'http://guides.test/c/Empty_Phone', total: 0, categories: [] },
      tools: [],
    });
  });

  it('an edit of a guide in the category changes the kept anonymous answer', async () => {
    const before = (await get('/wikis/CATEGORY/Phone')).json<{ guides: Summary[] }>();
    expect(sqlCount(await get('/wikis/CATEGORY/Phone'))).toBe(1);
    const guide = (await get(`/guides/${plain}`)).json<{ revisionid: number }>();
    const edited = await t.as(author.token, {
      method: 'PATCH',
      url: `${api}/guides/${plain}?revisionid=${guide.revisionid}`,
      payload: { summary: 'Now with a summary', flags: [] },
    });
    expect(edited.statusCode).toBe(200);
    const after = (await get('/wikis/CATEGORY/Phone')).json<{ guides: (Summary & { summary: string })[] }>();
    expect(after.guides.find((g) => g.guideid === plain)!.summary).toBe('Now with a summary');
    expect(after.guides).not.toEqual(before.guides);
    // A guide made private by a statement of its own (no event yet): gone from the answer at once.
    await t.dataSource.query('UPDATE guides SET public = 0 WHERE guideid = ?', [starred]);
    const hiddenNow = (await get('/wikis/CATEGORY/Phone')).json<{ guides: Summary[]; featured_guides: Summary[] }>();
    expect(hiddenNow.guides.map((g) => g.guideid)).toEqual([plain]);
    expect(hiddenNow.featured_guides).toEqual([]);
    await t.dataSource.query('UPDATE guides SET public = 1 WHERE guideid = ?', [starred]);
  });

  it('runs as many SQL statements for 30 guides as for 1', async () => {
    const one = await createGuide(t, admin.user, {
      category: 'Big Phone',
      subject: 'Part 0',
      public: true,
      parts: [{ name: 'Battery' }],
      tools: [{ name: 'Spudger' }],
    });
    await settle(t);
    const count = async () => {
      const signedIn = await get('/wikis/CATEGORY/Big_Phone', author.token);
      const fresh = await get('/wikis/CATEGORY/Big_Phone?pretty');
      return { signedIn: sqlCount(signedIn), fresh: sqlCount(fresh), guides: signedIn.json().guides.length };
    };
    const single = await count();
    expect(single.guides).toBe(1);
    for (let i = 1; i < 30; i++) {
      await createGuide(t, i % 2 ? author.user : admin.user, {
        category: 'Big Phone',
        subject: `Part ${i}`,
        public: true,
        parts: [{ name: `Part item ${i}` }],
        tools: [{ name: `Tool item ${i}` }],
      });
    }
    await settle(t);
    expect(await count()).toEqual({ ...single, guides: 30 });
    expect(one.guideid).toBeGreaterThan(0);
  });
});
