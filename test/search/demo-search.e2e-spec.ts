import { settle } from '../utils/events';
import { createTestApp, type TestApp } from '../utils/test-app';
import { API, type SearchBody, type SuggestBody } from './search-kit';

/** What `npm start` shows on a new site: the demo content is indexed through the guide and wiki events. */
describe('search on the demo site', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { SEED_DEMO: 'true' } });
    await settle(t);
  });
  afterAll(() => t.close());

  it('GET /search/battery finds the battery guides first, ranked, with snippets', async () => {
    const response = await t.inject({ method: 'GET', url: `${API}/search/battery` });
    expect(response.statusCode).toBe(200);
    const body = response.json<SearchBody>();
    expect(body.totalResults).toBeGreaterThanOrEqual(2);
    const guides = body.results.filter((r) => r.dataType === 'guide');
    expect(guides.length).toBeGreaterThanOrEqual(1);
    const titleMatches = body.results.filter((r) => /battery/i.test(`${r.title} ${r.display_title ?? ''}`));
    expect(titleMatches).toContainEqual(
      expect.objectContaining({ dataType: 'guide', title: 'iPhone 6 Battery Replacement' }),
    );
    for (const result of body.results) expect(result.snippet).toMatch(/<mark>batter(y|ies)<\/mark>/i);
    // Title matches before body matches.
    const firstBodyOnly = body.results.findIndex(
      (r) => !/battery/i.test(r.title) && !/battery/i.test(r.display_title ?? ''),
    );
    const lastTitle = body.results
      .map((r) => /battery/i.test(r.title) || /battery/i.test(r.display_title ?? ''))
      .lastIndexOf(true);
    if (firstBodyOnly !== -1) expect(lastTitle).toBeLessThan(firstBodyOnly);
  });

  it('GET /suggest/iph suggests the iPhone category first (before iPhone 6…)', async () => {
    const response = await t.inject({ method: 'GET', url: `${API}/suggest/iph` });
    expect(response.statusCode).toBe(200);
    const body = response.json<SuggestBody>();
    expect(body.results.length).toBeLessThanOrEqual(10);
    // The shortest match first, on MariaDB as on SQLite: "iPhone" before "iPhone 6" and "iPhone 6s".
    expect(body.results[0]).toMatchObject({ dataType: 'wiki', namespace: 'CATEGORY', title: 'iPhone' });
    expect(body.results).toContainEqual(
      expect.objectContaining({ dataType: 'guide', title: 'iPhone 6 Battery Replacement' }),
    );
  });
});
