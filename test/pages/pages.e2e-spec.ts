import { createGuide, addStep } from '../factories/guide.factory';
import { uploadImage, solidImage } from '../factories/media.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

/** The HTML pages behind the `url` fields of API responses. */
describe('HTML pages behind the URLs in responses', () => {
  let t: TestApp;
  let author: CreatedUser;
  let publicGuide: { guideid: number; url: string };
  let privateGuideUrl: string;

  beforeAll(async () => {
    t = await createTestApp();
    author = await createUser(t, { privilege: 'Author', username: 'Page <Author>' });
    await createCategory(t, author.user, 'Pocket Radio', undefined, {
      contents: "A '''radio''' page.\n\n== Repairs ==\nKnobs break.",
    });
    const image = (await uploadImage(t, author.token, await solidImage(640, 480))).json<{ image: { id: number } }>();
    const created = await createGuide(t, author.user, {
      category: 'Pocket Radio',
      subject: 'Knob',
      title: 'Pocket Radio <script>alert(1)</script> Knob',
      introduction: "Knobs come off with '''care'''.",
      public: true,
      tools: [{ name: 'Spudger' }],
    });
    await addStep(t, author.user, created.guideid, {
      title: 'Pull the knob',
      lines: [
        { text: 'Grip the knob.', bullet: 'black', level: 0 },
        { text: "Don't twist it.", bullet: 'icon_caution', level: 1 },
      ],
      media: { type: 'image', data: [image.image.id] },
    });
    publicGuide = { guideid: created.guideid, url: new URL(created.url).pathname };
    const hidden = await createGuide(t, author.user, { category: 'Pocket Radio', subject: 'Dial', public: false });
    privateGuideUrl = new URL(hidden.url).pathname;
  });
  afterAll(() => t.close());

  const get = (url: string) => t.inject({ method: 'GET', url });

  it('a guide page shows the title escaped, the rendered introduction, tools, steps with images, and a JSON link', async () => {
    const res = await get(publicGuide.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    const html = res.body;
    expect(html).not.toContain('<script');
    expect(html).toContain('<h1>Pocket Radio &#60;script&#62;alert(1)&#60;/script&#62; Knob</h1>');
    expect(html).toContain('Knobs come off with <strong>care</strong>.');
    expect(html).toMatch(
      /<h2>Tools<\/h2><ul><li><a href="http:\/\/guides\.test\/Item\/Spudger">Spudger<\/a><\/li><\/ul>/,
    );
    expect(html).toContain('<h3>Pull the knob</h3>');
    expect(html).toMatch(
      /<img src="http:\/\/guides\.test\/api\/2\.0\/media\/files\/images\/[^"]+\.standard\.\w+" alt="Pull the knob">/,
    );
    expect(html).toContain(`<li class="bullet-icon_caution level-1"><p>Don't twist it.</p></li>`);
    expect(html).toContain(
      `<a href="/api/2.0/guides/${publicGuide.guideid}" rel="alternate" type="application/json">JSON</a>`,
    );
  });

  it('a guide the API would not show anonymously is a 404 page, as is a malformed or unknown id', async () => {
    expect(
      (await t.inject({ method: 'GET', url: `/api/2.0/guides/${privateGuideUrl.split('/').pop()}` })).statusCode,
    ).toBe(404);
    for (const url of [privateGuideUrl, '/Guide/Anything/999999', '/Guide/Anything/abc', '/Guide/Anything/0']) {
      const res = await get(url);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('<h1>Not found</h1>');
    }
  });

  it('category pages answer at /c/{title} and /Device/{title}, item pages at /Item/{title}', async () => {
    for (const url of ['/c/Pocket_Radio', '/Device/Pocket_Radio', '/Wiki/CATEGORY/Pocket_Radio']) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<h1>Pocket Radio</h1>');
      expect(res.body).toContain('A <strong>radio</strong> page.');
      expect(res.body).toContain('<h2>Repairs</h2>');
      expect(res.body).toContain('href="/api/2.0/wikis/CATEGORY/Pocket_Radio"');
    }
    // Creating the guide created the ITEM page of its tool.
    const item = await get('/Item/Spudger');
    expect(item.statusCode).toBe(200);
    expect(item.body).toContain('<h1>Spudger</h1>');
    expect((await get('/c/No_Such_Category')).statusCode).toBe(404);
    expect((await get('/Wiki/NOPE/Pocket_Radio')).statusCode).toBe(404);
  });

  it('every wiki URL the API returns leads to its page', async () => {
    await createWiki(t, author.user, { namespace: 'INFO', title: 'Opening Hours', contents: 'Mondays.' });
    const listed = (await get('/api/2.0/wikis/INFO')).json<{ title: string; url: string }[]>();
    const info = listed.find((wiki) => wiki.title === 'Opening Hours')!;
    expect(info.url).toBe('http://guides.test/Info/Opening_Hours');
    const res = await get(new URL(info.url).pathname);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<p>Mondays.</p>');
  });

  it('a user page shows the profile with the name escaped; an unknown user is a 404 page', async () => {
    const profile = (await t.inject({ method: 'GET', url: `/api/2.0/users/${author.user.userid}` })).json<{
      url: string;
    }>();
    const res = await get(new URL(profile.url).pathname);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1>Page &#60;Author&#62;</h1>');
    expect(res.body).toContain('<dt>Reputation</dt>');
    expect((await get('/User/999999/Nobody')).statusCode).toBe(404);
  });
});
