import { tempMediaDir } from '../factories/media.factory';
import { settle } from '../utils/events';
import { createTestApp, type TestApp } from '../utils/test-app';

/**
 * openZIM's ifixit2zim (the scraper that builds iFixit's offline archives) replayed against the demo content:
 * its calls in its order, with its parameters (Python's urlencode and quote, `True` for booleans, `langid`,
 * lower-cased titles), reading every field it reads. Each read is a check; all failures are reported at once.
 */
type Json = Record<string, unknown>;
type Kind = 'string' | 'integer' | 'boolean' | 'array' | 'object' | 'null' | 'number';

const ARCHIVE_LANG = 'en';
const PAGE = 200;
const BULLETS = ['black', 'red', 'orange', 'yellow', 'green', 'blue', 'light_blue', 'violet'];
const ICONS = ['icon_note', 'icon_caution', 'icon_reminder'];
const DIFFICULTIES = ['Very easy', 'Easy', 'Moderate', 'Difficult', 'Very difficult'];
const RASTER = /\.(png|jpe?g|gif|webp)$/i;

/** Python's urllib.parse.quote (safe '/'). */
const pyQuote = (path: string) =>
  path
    .split('/')
    .map((part) =>
      encodeURIComponent(part).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
    )
    .join('/');
/** Python's urlencode: booleans as True/False. */
const pyParams = (params: Record<string, string | number | boolean>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(typeof v === 'boolean' ? (v ? 'True' : 'False') : String(v))}`)
    .join('&');
/** The client's key of a category or INFO title: lower-cased, whitespace as underscores. */
const titleKey = (title: string) => title.toLowerCase().replace(/\s/g, '_');

const kindOf = (value: unknown): Kind =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'number'
        ? Number.isInteger(value)
          ? 'integer'
          : 'number'
        : (typeof value as Kind);

describe('ifixit2zim replayed against the demo content', () => {
  let t: TestApp;
  const failures: string[] = [];
  let checks = 0;
  const imageUrls = new Set<string>();

  /** One field check: the value at `path` has one of `kinds` (and passes `test`, when given). */
  const check = (where: string, value: unknown, kinds: Kind[], test?: (v: never) => boolean) => {
    checks += 1;
    const kind = kindOf(value);
    const ok =
      (kinds.includes(kind) || (kind === 'integer' && kinds.includes('number'))) && (!test || test(value as never));
    if (!ok) failures.push(`${where}: ${JSON.stringify(value)?.slice(0, 120)} (expected ${kinds.join('|')})`);
    return ok;
  };
  /** What get_image_url reads: standard, medium, large or original of `image`. */
  const image = (where: string, value: unknown, nullable = true) => {
    if (value === null && nullable) return check(where, value, ['null']);
    if (!check(where, value, ['object'])) return;
    const object = value as Json;
    const url = object.standard ?? object.medium ?? object.large ?? object.original;
    if (check(`${where}.standard`, url, ['string'], (u: string) => RASTER.test(u))) imageUrls.add(url as string);
  };

  const api = async (path: string, params: Record<string, string | number | boolean> = {}) => {
    const query = Object.keys(params).length ? `?${pyParams(params)}` : '';
    const res = await t.inject({ method: 'GET', url: `/api/2.0${pyQuote(path)}${query}` });
    checks += 1;
    if (res.statusCode !== 200) failures.push(`GET ${path}${query}: ${res.statusCode}`);
    return res.statusCode === 200 ? res.json<unknown>() : undefined;
  };
  const html = async (path: string) => {
    const res = await t.inject({ method: 'GET', url: path });
    check(`GET ${path} status`, res.statusCode, ['integer'], (s: number) => s === 200);
    check(`GET ${path} content-type`, res.headers['content-type'], ['string'], (c: string) =>
      c.startsWith('text/html'),
    );
    return res.body;
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { SEED_DEMO: 'true', MEDIA_DIR: tempMediaDir() } });
    await settle(t);
  });
  afterAll(() => t.close());

  /** A category by its lower-cased title, in the archive's language: what category.html reads. */
  const readCategory = async (title: string) => {
    const where = `/wikis/CATEGORY/${titleKey(title)}`;
    const category = (await api(`/wikis/CATEGORY/${titleKey(title)}`, { langid: ARCHIVE_LANG })) as Json | undefined;
    if (!category) return;
    check(`${where}.revisionid`, category.revisionid, ['integer'], (n: number) => n > 0);
    check(`${where}.title`, category.title, ['string'], (s: string) => s === title);
    check(`${where}.display_title`, category.display_title, ['string']);
    check(`${where}.description`, category.description, ['string']);
    check(`${where}.contents_rendered`, category.contents_rendered, ['string']);
    check(`${where}.repairability_score`, category.repairability_score, ['integer', 'null']);
    image(`${where}.image`, category.image);
    for (const [i, child] of ((category.children as Json[]) ?? []).entries()) {
      check(`${where}.children[${i}].title`, child.title, ['string']);
      check(`${where}.children[${i}].display_title`, child.display_title, ['string']);
      image(`${where}.children[${i}].image`, child.image);
    }
    for (const field of ['featured_guides', 'guides'] as const) {
      if (!check(`${where}.${field}`, category[field], ['array'])) continue;
      for (const [i, guide] of (category[field] as Json[]).entries()) {
        const at = `${where}.${field}[${i}]`;
        check(`${at}.guideid`, guide.guideid, ['integer']);
        check(`${at}.locale`, guide.locale, ['string'], (s: string) => s.length > 0);
        check(`${at}.title`, guide.title, ['string'], (s: string) => s.length > 0);
        check(`${at}.summary`, guide.summary, ['string']);
        check(`${at}.flags`, guide.flags, ['array']);
        check(`${at}.type`, guide.type, ['string']);
        check(`${at}.subject`, guide.subject, ['string']);
        image(`${at}.image`, guide.image);
      }
    }
    const parts = category.parts as Json;
    if (check(`${where}.parts`, parts, ['object'])) {
      check(`${where}.parts.total`, parts.total, ['integer']);
      for (const [i, part] of ((parts.categories as Json[]) ?? []).entries()) {
        check(`${where}.parts.categories[${i}].url`, part.url, ['string']);
        check(`${where}.parts.categories[${i}].tag`, part.tag, ['string']);
        check(`${where}.parts.categories[${i}].count`, part.count, ['integer']);
      }
    }
    if (check(`${where}.tools`, category.tools, ['array'])) {
      for (const [i, tool] of (category.tools as Json[]).entries()) {
        check(`${where}.tools[${i}].title`, tool.title, ['string']);
        check(`${where}.tools[${i}].target_url`, tool.target_url, ['string']);
        if (check(`${where}.tools[${i}].image_url`, tool.image_url, ['string'], (u: string) => RASTER.test(u)))
          imageUrls.add(tool.image_url as string);
      }
    }
  };

  /** A guide in the archive's language: what guide.html and the scraper's checks read; its author is kept. */
  const readGuide = async (summary: Json, users: Set<number>) => {
    const where = `/guides/${String(summary.guideid)}`;
    const guide = (await api(where, { langid: ARCHIVE_LANG })) as Json | undefined;
    if (!guide) return;
    check(`${where}.guideid`, guide.guideid, ['integer']);
    check(`${where}.title`, guide.title, ['string']);
    check(`${where}.type`, guide.type, ['string']);
    if (guide.type !== 'teardown')
      check(`${where}.difficulty`, guide.difficulty, ['string'], (d: string) => DIFFICULTIES.includes(d));
    check(`${where}.introduction_rendered`, guide.introduction_rendered, ['string']);
    check(`${where}.conclusion_rendered`, guide.conclusion_rendered, ['string']);
    check(`${where}.time_required`, guide.time_required, ['string']);
    check(`${where}.published_date`, guide.published_date, ['integer', 'null']);
    for (const field of ['tools', 'parts'] as const) {
      for (const [i, item] of ((guide[field] as Json[]) ?? []).entries()) {
        check(`${where}.${field}[${i}].text`, item.text, ['string']);
        check(`${where}.${field}[${i}].url`, item.url, ['string']);
        if (check(`${where}.${field}[${i}].thumbnail`, item.thumbnail, ['string'], (u: string) => RASTER.test(u)))
          imageUrls.add(item.thumbnail as string);
      }
    }
    for (const [s, step] of ((guide.steps as Json[]) ?? []).entries()) {
      const at = `${where}.steps[${s}]`;
      check(`${at}.stepid`, step.stepid, ['integer']);
      const media = step.media as Json;
      if (
        check(`${at}.media`, media, ['object']) &&
        check(`${at}.media.type`, media.type, ['string'], (m: string) => ['image', 'video', 'embed'].includes(m))
      ) {
        if (media.type === 'image')
          (media.data as Json[]).forEach((img, i) => {
            check(`${at}.media.data[${i}].id`, img.id, ['integer']);
            check(`${at}.media.data[${i}].guid`, img.guid, ['string']);
            image(`${at}.media.data[${i}]`, img, false);
          });
      }
      for (const [l, line] of ((step.lines as Json[]) ?? []).entries()) {
        check(`${at}.lines[${l}].bullet`, line.bullet, ['string'], (b: string) => [...BULLETS, ...ICONS].includes(b));
        check(`${at}.lines[${l}].text_rendered`, line.text_rendered, ['string']);
      }
      check(`${at}.comments`, step.comments, ['array']);
    }
    const author = guide.author as Json;
    if (check(`${where}.author`, author, ['object'])) {
      check(`${where}.author.userid`, author.userid, ['integer']);
      check(`${where}.author.username`, author.username, ['string']);
      check(`${where}.author.join_date`, author.join_date, ['integer']);
      check(`${where}.author.reputation`, author.reputation, ['integer']);
      users.add(author.userid as number);
    }
  };

  /** An INFO wiki by its lower-cased title (no langid): what info.html reads. */
  const readInfo = async (title: string) => {
    const where = `/wikis/INFO/${titleKey(title)}`;
    const info = (await api(where)) as Json | undefined;
    if (!info) return;
    check(`${where}.title`, info.title, ['string'], (s: string) => s === title);
    check(`${where}.display_title`, info.display_title, ['string']);
    check(`${where}.description`, info.description, ['string']);
    check(`${where}.contents_rendered`, info.contents_rendered, ['string']);
  };

  /** A user: what user.html reads. */
  const readUser = async (userid: number) => {
    const where = `/users/${userid}`;
    const user = (await api(where)) as Json | undefined;
    if (!user) return;
    check(`${where}.userid`, user.userid, ['integer']);
    check(`${where}.username`, user.username, ['string']);
    check(`${where}.unique_username`, user.unique_username, ['string', 'null']);
    check(`${where}.about_rendered`, user.about_rendered, ['string', 'boolean']);
    check(`${where}.summary`, user.summary, ['string', 'null']);
    check(`${where}.join_date`, user.join_date, ['integer']);
    check(`${where}.reputation`, user.reputation, ['integer']);
    image(`${where}.image`, user.image, false);
  };

  /** The expected items: the category tree with stubs, guides and INFO wikis paged by 200. */
  const expectedItems = async () => {
    const tree = (await api('/categories', { includeStubs: true })) as Json;
    const categories: string[] = [];
    const walk = (node: Json | null, where: string) => {
      if (!check(where, node, ['object', 'null']) || node === null) return;
      for (const [title, children] of Object.entries(node)) {
        categories.push(title);
        walk(children as Json | null, `${where}.${title}`);
      }
    };
    walk(tree, '/categories');
    const guides: Json[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = (await api('/guides', { limit: PAGE, offset })) as Json[];
      if (!page?.length) break;
      for (const [i, guide] of page.entries()) {
        check(`/guides[${offset + i}].flags`, guide.flags, ['array']);
        check(`/guides[${offset + i}].revisionid`, guide.revisionid, ['integer']);
        check(`/guides[${offset + i}].guideid`, guide.guideid, ['integer']);
        if (!(guide.flags as string[]).includes('GUIDE_ARCHIVED')) guides.push(guide);
      }
    }
    const infos: string[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = (await api('/wikis/INFO', { limit: PAGE, offset })) as Json[];
      if (!page?.length) break;
      page.forEach(
        (wiki, i) =>
          check(`/wikis/INFO[${offset + i}].title`, wiki.title, ['string']) && infos.push(wiki.title as string),
      );
    }
    return { categories, guides, infos };
  };

  it('every call answers and every field the client reads holds', async () => {
    // Website metadata from the home page, then the home page content from /Guide.
    const home = await html('/');
    check('/ <title>', /<title>([^<]+)<\/title>/.exec(home)?.[1], ['string']);
    check('/ meta description', /<meta name="description" content="([^"]+)">/.exec(home)?.[1], ['string']);
    const guidePage = await html('/Guide');
    check('/Guide <title>', /<title>([^<]+)<\/title>/.exec(guidePage)?.[1], ['string']);
    check('/Guide h1.page-title span', /<h1 class="page-title"><span>([^<]+)</.exec(guidePage)?.[1], ['string']);

    const { categories, guides, infos } = await expectedItems();
    expect(categories.length).toBeGreaterThan(5);
    expect(guides.length).toBeGreaterThan(3);
    expect(infos.length).toBeGreaterThan(0);
    const users = new Set<number>();
    for (const title of categories) await readCategory(title);
    for (const summary of guides) await readGuide(summary, users);
    for (const title of infos) await readInfo(title);
    for (const userid of users) await readUser(userid);
    // The images it downloads for offline use are raster files.
    for (const url of imageUrls) {
      const res = await t.inject({ method: 'GET', url: new URL(url).pathname });
      check(
        `GET ${url}`,
        res.headers['content-type'],
        ['string'],
        (c: string) => res.statusCode === 200 && /^image\/(png|jpeg|gif|webp)/.test(c),
      );
    }
    expect(failures).toEqual([]);
    expect(checks).toBeGreaterThan(500);
  });

  it('a category page is the same in any case of its title', async () => {
    const exact = await t.inject({ method: 'GET', url: '/api/2.0/wikis/CATEGORY/iPhone_6?langid=en' });
    expect(exact.statusCode).toBe(200);
    for (const title of ['iphone_6', 'IPHONE_6', 'iPhone%206']) {
      const res = await t.inject({ method: 'GET', url: `/api/2.0/wikis/CATEGORY/${title}?langid=en` });
      expect({ title, body: res.body }).toEqual({ title, body: exact.body });
    }
    // The new fields go through the XML form too.
    const xml = await t.inject({ method: 'GET', url: '/api/2.0/wikis/CATEGORY/iphone_6?type=XML' });
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toMatch(/<featured_guides>[\s\S]*<parts><url>[^<]+<\/url><total>\d+<\/total>/);
  });
});
