import { createGuide } from '../factories/guide.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { settle } from '../utils/events';
import { createTestApp, type TestApp } from '../utils/test-app';

/**
 * Browsing the HTML pages as a reader does: from the home page to a category, down its children to a guide and
 * back up by breadcrumbs and the guide's category link; missing and private documents answer an HTML 404 page.
 */
describe('HTML pages link to each other', () => {
  let t: TestApp;
  let author: CreatedUser;
  let guideUrl: string;
  let guideTitle: string;
  let privateGuide: { guideid: number; url: string };

  const get = (url: string) => t.inject({ method: 'GET', url });
  /** Same-site links are followed by path; the API's URLs are absolute (PUBLIC_URL). */
  const path = (href: string) => new URL(href, 'http://guides.test').pathname;
  const hrefs = (html: string, pattern: RegExp) => [...html.matchAll(pattern)].map((m) => m[1]);
  const breadcrumbs = (html: string) => {
    const nav = /<nav class="breadcrumbs" aria-label="Breadcrumbs"><ol>(.*?)<\/ol><\/nav>/.exec(html)?.[1] ?? '';
    return [...nav.matchAll(/<li( aria-current="page")?>(?:<a href="([^"]+)">)?([^<]*)/g)].map(
      ([, current, href, text]) => (current ? `${text}` : `${text} → ${href ? path(href) : ''}`),
    );
  };
  const section = (html: string, heading: string) =>
    new RegExp(`<h2>${heading}</h2><ul[^>]*>(.*?)</ul>`).exec(html)?.[1] ?? '';

  beforeAll(async () => {
    t = await createTestApp();
    author = await createUser(t, { privilege: 'Author' });
    await createCategory(t, author.user, 'Kitchen');
    await createCategory(t, author.user, 'Toaster', 'Kitchen');
    await createCategory(t, author.user, 'Toaster Oven', 'Toaster');
    await createCategory(t, author.user, 'Mini <Oven>', 'Toaster Oven');
    const guide = await createGuide(t, author.user, {
      category: 'Toaster Oven',
      subject: 'Door',
      public: true,
      tools: [{ name: 'Spudger' }],
      parts: [{ name: 'Oven Door Hinge' }],
    });
    guideUrl = guide.url;
    guideTitle = guide.title;
    const hidden = await createGuide(t, author.user, { category: 'Toaster Oven', subject: 'Secret', public: false });
    privateGuide = { guideid: hidden.guideid, url: hidden.url };
    await settle(t);
  });
  afterAll(() => t.close());

  it('every page has the site header leading to the home page, which is HTML', async () => {
    for (const url of ['/', '/Guide', '/c/Toaster_Oven', path(guideUrl), '/Item/Spudger', '/c/Nope']) {
      const res = await get(url);
      expect({ url, header: res.body.includes('<header><a class="site" href="/">') }).toEqual({ url, header: true });
    }
    const home = await get('/');
    expect(home.statusCode).toBe(200);
    expect(home.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(hrefs(home.body, /class="featured-category-item" href="([^"]+)"/g)).toEqual(['/c/Kitchen']);
  });

  it('a category page shows breadcrumbs of its ancestors, its children, its guides, parts and tools, all linked', async () => {
    const res = await get('/c/Toaster_Oven');
    expect(res.statusCode).toBe(200);
    expect(breadcrumbs(res.body)).toEqual(['Home → /', 'Kitchen → /c/Kitchen', 'Toaster → /c/Toaster', 'Toaster Oven']);
    expect(section(res.body, 'Categories')).toBe(
      '<li><a href="http://guides.test/c/Mini_%3COven%3E">Mini &#60;Oven&#62;</a></li>',
    );
    const guides = hrefs(section(res.body, 'Guides'), /<a href="([^"]+)">/g);
    expect(guides).toEqual([guideUrl]);
    expect(res.body).not.toContain(privateGuide.url);
    expect(hrefs(section(res.body, 'Parts'), /<a href="([^"]+)">/g)).toEqual([
      'http://guides.test/Item/Oven_Door_Hinge',
    ]);
    expect(hrefs(section(res.body, 'Tools'), /<a href="([^"]+)">/g)).toEqual(['http://guides.test/Item/Spudger']);
    // Every link of the page leads to a page (the JSON link to the API's answer).
    for (const href of hrefs(res.body, /<a href="([^"]+)"/g)) {
      expect({ href, status: (await get(path(href))).statusCode }).toEqual({ href, status: 200 });
    }
    // The same page at iFixit's /Device path; a top category has no ancestors but Home.
    expect(breadcrumbs((await get('/Device/Toaster_Oven')).body)).toContain('Toaster → /c/Toaster');
    const top = await get('/c/Kitchen');
    expect(breadcrumbs(top.body)).toEqual(['Home → /', 'Kitchen']);
    expect(hrefs(section(top.body, 'Categories'), /<a href="([^"]+)">/g)).toEqual(['http://guides.test/c/Toaster']);
    expect(top.body).not.toContain('<h2>Guides</h2>');
    // A leaf without guides says so.
    const leaf = (await get('/c/Mini_%3COven%3E')).body;
    expect(leaf).toContain('<p>No guides yet.</p>');
    expect(breadcrumbs(leaf).slice(-2)).toEqual(['Toaster Oven → /c/Toaster_Oven', 'Mini &#60;Oven&#62;']);
    expect(leaf).not.toContain('<Oven>');
  });

  it('a guide page links its category (breadcrumbs and facts), its author, parts and tools', async () => {
    const res = await get(path(guideUrl));
    expect(res.statusCode).toBe(200);
    expect(breadcrumbs(res.body)).toEqual(['Home → /', 'Toaster Oven → /c/Toaster_Oven', guideTitle]);
    expect(res.body).toContain('<dt>Category</dt><dd><a href="/c/Toaster_Oven">Toaster Oven</a></dd>');
    expect(res.body).toMatch(/<dt>Author<\/dt><dd><a href="http:\/\/guides\.test\/User\/\d+\/[^"]+">/);
    expect(hrefs(section(res.body, 'Parts'), /<a href="([^"]+)">/g)).toEqual([
      'http://guides.test/Item/Oven_Door_Hinge',
    ]);
    expect(hrefs(section(res.body, 'Tools'), /<a href="([^"]+)">/g)).toEqual(['http://guides.test/Item/Spudger']);
    for (const href of hrefs(res.body, /<a href="([^"]+)"/g)) {
      expect({ href, status: (await get(path(href))).statusCode }).toEqual({ href, status: 200 });
    }
  });

  it('a private guide is in no list and its URL answers an HTML 404 page that says why it may be missing', async () => {
    for (const url of ['/', '/Guide', '/c/Toaster_Oven', '/c/Toaster', '/Search?query=secret']) {
      expect({ url, listed: (await get(url)).body.includes(`/${privateGuide.guideid}"`) }).toEqual({
        url,
        listed: false,
      });
    }
    for (const url of [path(privateGuide.url), '/Guide/Anything/999999']) {
      const res = await get(url);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('<header><a class="site" href="/">Repair Guide Content Service</a>');
      expect(res.body).toContain('<h1>Not found</h1>');
      expect(res.body).toContain('This guide does not exist or is not public.');
      expect(res.body).toContain('<code>POST /api/2.0/user/token</code>');
      expect(res.body).toContain(`<code>GET /api/2.0/guides/${url.split('/').pop()}</code>`);
    }
    // The author reads it through the API with a token.
    expect(
      (await t.as(author.token, { method: 'GET', url: `/api/2.0/guides/${privateGuide.guideid}` })).statusCode,
    ).toBe(200);
  });

  it('a missing category, wiki page or user answers an HTML 404 page naming what is missing, escaped', async () => {
    const cases: [string, string][] = [
      ['/c/No_%3Cb%3ERadio', '<p>There is no category named “No &#60;b&#62;Radio”.</p>'],
      ['/Device/No_Radio', '<p>There is no category named “No Radio”.</p>'],
      ['/Item/No_Such_Tool', '<p>There is no wiki page named “No Such Tool”.</p>'],
      ['/User/999999/Nobody', '<p>There is no user with this id.</p>'],
      ['/Guide?page=abc', '<p>There is no page at this address.</p>'],
    ];
    for (const [url, text] of cases) {
      const res = await get(url);
      expect({ url, status: res.statusCode, type: res.headers['content-type'], text: res.body.includes(text) }).toEqual(
        {
          url,
          status: 404,
          type: 'text/html; charset=utf-8',
          text: true,
        },
      );
      expect(res.body).toContain('<a href="/">Browse the categories</a>');
    }
  });
});
