import { createGuide } from '../factories/guide.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { settle } from '../utils/events';
import { createTestApp, type TestApp } from '../utils/test-app';

/** The home page, the guide list and search results: HTML pages a client reads before its first API call. */
describe('HTML home page, /Guide and /Search', () => {
  let t: TestApp;
  let author: CreatedUser;
  const guideUrls: string[] = [];
  let privateUrl: string;

  const get = (url: string) => t.inject({ method: 'GET', url });
  const links = (html: string) => [...html.matchAll(/<li class="guide">.*?<a href="([^"]+)">/g)].map((m) => m[1]);

  beforeAll(async () => {
    t = await createTestApp();
    author = await createUser(t, { privilege: 'Author' });
    await createCategory(t, author.user, 'Pocket Radio');
    await createCategory(t, author.user, 'Toaster');
    await createCategory(t, author.user, 'Toaster Oven', 'Toaster');
    for (let i = 0; i < 52; i++) {
      const guide = await createGuide(t, author.user, {
        category: i % 2 ? 'Pocket Radio' : 'Toaster',
        subject: `Part <${i}>`,
        public: true,
      });
      guideUrls.push(guide.url);
    }
    privateUrl = (await createGuide(t, author.user, { category: 'Toaster', subject: 'Secret', public: false })).url;
    await settle(t);
  });
  afterAll(() => t.close());

  it('/Guide lists the public guides by guideid, 50 a page, each linking its guide page', async () => {
    const first = await get('/Guide');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(first.body).toContain('<title>Repair guides</title>');
    expect(first.body).toContain('<meta name="description" content="Every public repair guide.">');
    expect(first.body).toContain('<h1 class="page-title"><span>Repair guides</span></h1>');
    expect(links(first.body)).toEqual(guideUrls.slice(0, 50));
    expect(first.body).toContain('Toaster Part &#60;0&#62; Replacement');
    expect(first.body).toContain('<a rel="next" href="/Guide?page=2">Next</a>');
    expect(first.body).not.toContain('rel="prev"');
    const second = await get('/Guide?page=2');
    expect(links(second.body)).toEqual(guideUrls.slice(50));
    expect(second.body).toContain('<a rel="prev" href="/Guide">Previous</a>');
    expect(second.body).not.toContain('rel="next"');
    for (const body of [first.body, second.body]) expect(body).not.toContain(privateUrl);
    // Each link leads to its guide page.
    expect((await get(new URL(guideUrls[0]).pathname)).statusCode).toBe(200);
    expect((await get('/Guide?page=3')).body).toContain('<p>Nothing on this page.</p>');
  });

  it('/Guide with a malformed page is a 404 page', async () => {
    for (const url of ['/Guide?page=0', '/Guide?page=abc', '/Guide?page=-1', '/Guide?page=9999999']) {
      const res = await get(url);
      expect({ url, status: res.statusCode, type: res.headers['content-type'] }).toEqual({
        url,
        status: 404,
        type: 'text/html; charset=utf-8',
      });
    }
  });

  it('/ shows the top categories, a search box and the newest guides (private ones left out)', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<meta name="description" content="Step-by-step repair guides.">');
    expect([...res.body.matchAll(/class="featured-category-item" href="([^"]+)"/g)].map((m) => m[1])).toEqual([
      '/c/Pocket_Radio',
      '/c/Toaster',
    ]);
    expect(res.body).toContain('<form action="/Search" method="get" role="search">');
    expect(links(res.body)).toEqual(guideUrls.slice(-10).reverse());
    expect(res.body).not.toContain(privateUrl);
    expect((await get('/c/Toaster')).statusCode).toBe(200);
  });

  it('/Search lists the results of the API search; without a query it is the home page', async () => {
    const res = await get('/Search?query=toaster%20part');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<span>Results for toaster part</span>');
    expect(links(res.body).length).toBeGreaterThan(0);
    expect(res.body).not.toContain(privateUrl);
    expect((await get('/Search')).body).toContain('class="featured-category-item"');
  });
});
