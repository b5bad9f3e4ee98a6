import { wikiPath } from '../../src/modules/wikis/wiki-namespaces';
import { createGuide } from '../factories/guide.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

const API = '/api/2.0';

const TRICKY = [
  '.',
  '..',
  ' .. ',
  '._.',
  '...',
  'a/b',
  '/',
  '%',
  '%2E%2E',
  'a%2Fb',
  '?',
  'a?b=c',
  '#',
  'a#b',
  '  spaced   out  ',
  'under_score',
  'Ünïcødé 語 🔧',
  '．．',
  '+',
  '\\',
  ';',
  '&=',
  '~',
  '"\'<>',
  '@:',
  'a'.repeat(255),
  '語'.repeat(255),
  '🔧'.repeat(127),
];

/** Titles from pieces that URLs treat specially, from a fixed seed (the same every run). */
function generatedTitles(count: number): string[] {
  const pieces = ['.', '..', '/', '%', '?', '#', ' ', '_', '語', '🔧', '+', ';', '%2F', '%2E', 'a', 'Z', '\\', '&'];
  let seed = 42;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + (next() % 5) }, () => pieces[next() % pieces.length]).join(''),
  );
}

/**
 * Reads a wiki back the way a client does: at the API path whose title segment is the one of the URL the service
 * builds for the wiki (its `url` in lists, links and search), resolved as a WHATWG URL (so `.` and `..` segments
 * are resolved, as browsers and fetch do).
 */
function readBackPath(namespace: string, title: string): string {
  const url = wikiPath(namespace, title);
  const segment = url.slice(url.lastIndexOf('/') + 1);
  const resolved = new URL(`http://guides.test${API}/wikis/${namespace}/${segment}`);
  return resolved.pathname + resolved.search;
}

// Every title POST /wikis accepts can be read back at the URL the service builds for it; others are a 422.
describe('Wiki titles round-trip through URLs', () => {
  let t: TestApp;
  let author: CreatedUser;
  beforeAll(async () => {
    t = await createTestApp();
    author = await createUser(t, { privilege: 'Author' });
  });
  afterAll(() => t.close());

  const roundTrip = async (title: string, namespace = 'WIKI') => {
    const created = await t.as(author.token, {
      method: 'POST',
      url: `${API}/wikis`,
      payload: { namespace, title, contents: 'Body.' },
    });
    if (created.statusCode === 422) {
      return { title, created: 422, field: created.json().errors?.[0]?.field as string | undefined };
    }
    if (created.statusCode !== 201) return { title, created: created.statusCode, body: created.body.slice(0, 120) };
    const wiki = created.json<{ wikiid: number; title: string }>();
    const read = await t.inject({ method: 'GET', url: readBackPath(namespace, wiki.title) });
    return {
      title,
      created: 201,
      read: read.statusCode,
      same: read.statusCode === 200 && read.json<{ wikiid: number }>().wikiid === wiki.wikiid,
    };
  };

  const expectRoundTrips = (outcomes: Awaited<ReturnType<typeof roundTrip>>[]) => {
    const broken = outcomes.filter((o) =>
      o.created === 201 ? !(o.read === 200 && o.same) : !(o.created === 422 && o.field === 'title'),
    );
    expect(broken).toEqual([]);
  };

  it('`.` and `..` (however spaced) are refused with 422 naming title; nothing is written', async () => {
    for (const title of ['.', '..', ' .. ', '_._', '..__']) {
      const res = await t.as(author.token, {
        method: 'POST',
        url: `${API}/wikis`,
        payload: { namespace: 'WIKI', title, contents: '' },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        error: true,
        message: 'title must not be . or .., which URLs cannot address',
        errors: [{ message: 'title must not be . or .., which URLs cannot address', field: 'title' }],
      });
    }
    const [{ n }] = await t.dataSource.query<{ n: number }[]>(
      "SELECT COUNT(*) AS n FROM wikis WHERE title IN ('.', '..')",
    );
    expect(Number(n)).toBe(0);
  });

  it('a guide part or tool named `..` is refused (422) instead of creating an ITEM page no URL can read', async () => {
    await createCategory(t, author.user, 'Kettle');
    const guide = await createGuide(t, author.user, { category: 'Kettle' });
    for (const body of [{ parts: [{ name: '..' }] }, { tools: [{ name: ' . ' }] }]) {
      const res = await t.as(author.token, {
        method: 'PATCH',
        url: `${API}/guides/${guide.guideid}?revisionid=${guide.head_revisionid}`,
        payload: body,
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ error: true, errors: [expect.objectContaining({ field: 'name' })] });
    }
    const [{ n }] = await t.dataSource.query<{ n: number }[]>(
      "SELECT COUNT(*) AS n FROM wikis WHERE namespace = 'ITEM' AND title IN ('.', '..')",
    );
    expect(Number(n)).toBe(0);
  });

  it('every tricky title accepted is read back at its own URL (WIKI and CATEGORY)', async () => {
    const outcomes = [];
    for (const title of TRICKY) outcomes.push(await roundTrip(title));
    for (const title of TRICKY.slice(0, 12)) outcomes.push(await roundTrip(title, 'CATEGORY'));
    expectRoundTrips(outcomes);
    expect(outcomes.filter((o) => o.created === 201).length).toBeGreaterThan(TRICKY.length);
  });

  it('generated titles: each is either read back at its URL or refused with 422 naming title', async () => {
    const outcomes = [];
    for (const title of new Set(generatedTitles(150))) {
      const outcome = await roundTrip(title, 'INFO');
      // A generated title may repeat another after normalization (a duplicate is a 422 on title too).
      outcomes.push(outcome);
    }
    expectRoundTrips(outcomes);
  });
});
