import { buildOpenApiDocument } from '../../src/openapi/openapi';
import { createUser } from '../factories/user.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface DocumentedPath {
  path: string;
  methods: string[];
}

/** `/api/2.0/wikis/releases/{releaseid}` → its segments, a parameter as null. */
const segments = (path: string) => path.split('/').filter(Boolean);
const isParameter = (segment: string) => segment.startsWith('{');

/**
 * The documented paths under /guides and /wikis with a fixed segment where another documented path, spelled
 * alike before it, has a parameter (`/guides/duplicateReleases` beside `/guides/{guideid}`).
 */
function fixedSegmentPaths(paths: DocumentedPath[]): DocumentedPath[] {
  const shadows = (fixed: string[], other: string[]) => {
    for (let i = 0; i < Math.min(fixed.length, other.length); i += 1) {
      if (fixed[i] === other[i]) continue;
      return !isParameter(fixed[i]) && isParameter(other[i]);
    }
    return false;
  };
  return paths.filter(
    ({ path }) =>
      /^\/api\/2\.0\/(guides|wikis)\//.test(path) &&
      paths.some((other) => other.path !== path && shadows(segments(path), segments(other.path))),
  );
}

const allowOf = (methods: string[]) =>
  [...METHODS.filter((m) => methods.includes(m)), ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');

// A fixed path segment belongs to its route for every method: another method answers 405 with Allow, never
// falls through to a parametric route beside it (GET /wikis/releases/1 read a wiki in namespace "releases").
describe('Fixed path segments under /guides and /wikis', () => {
  let t: TestApp;
  let documented: DocumentedPath[];
  beforeAll(async () => {
    t = await createTestApp();
    const document = buildOpenApiDocument(t.app);
    documented = Object.entries(document.paths).map(([path, operations]) => ({
      path,
      methods: Object.keys(operations)
        .map((m) => m.toUpperCase())
        .filter((m) => METHODS.includes(m)),
    }));
  });
  afterAll(() => t.close());

  it('GET /wikis/releases/{id} and GET /guides/duplicateReleases: 405 with Allow', async () => {
    const wiki = await t.inject({ method: 'GET', url: '/api/2.0/wikis/releases/12' });
    expect(wiki.statusCode).toBe(405);
    expect(wiki.headers.allow).toBe('DELETE, OPTIONS');
    expect(wiki.json()).toEqual({ error: true, message: 'Method GET is not allowed on /api/2.0/wikis/releases/12' });
    const guides = await t.inject({ method: 'GET', url: '/api/2.0/guides/duplicateReleases?pretty' });
    expect(guides.statusCode).toBe(405);
    expect(guides.headers.allow).toBe('POST, OPTIONS');
    expect(guides.json()).toEqual({
      error: true,
      message: 'Method GET is not allowed on /api/2.0/guides/duplicateReleases',
    });
  });

  it('every other method on each such path answers 405 with the path’s own methods in Allow', async () => {
    const paths = fixedSegmentPaths(documented);
    expect(paths.map((p) => p.path)).toEqual(
      expect.arrayContaining([
        '/api/2.0/guides/duplicateReleases',
        '/api/2.0/guides/releases',
        '/api/2.0/guides/releases/{releaseid}',
        '/api/2.0/guides/featured',
        '/api/2.0/guides/steps/lines/preview',
        '/api/2.0/wikis/releases/{releaseid}',
      ]),
    );
    const wrong: string[] = [];
    for (const { path, methods } of paths) {
      const url = path.replace(/\{[^}]+\}/g, '12');
      for (const method of [
        ...METHODS.filter((m) => !methods.includes(m)),
        ...(methods.includes('GET') ? [] : ['HEAD']),
      ]) {
        const res = await t.inject({ method, url });
        const allow = allowOf(methods);
        if (res.statusCode !== 405 || res.headers.allow !== allow) {
          wrong.push(`${method} ${url}: ${res.statusCode} ${String(res.headers.allow)} ${res.body.slice(0, 80)}`);
        } else if (method !== 'HEAD') {
          expect(res.json()).toEqual({ error: true, message: `Method ${method} is not allowed on ${url}` });
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a parameter that only looks like a fixed segment of another route is still read', async () => {
    const author = await createUser(t, { privilege: 'Author' });
    await createWiki(t, author.user, { title: 'releases', contents: 'About releases.' });
    await createCategory(t, author.user, 'children');
    const wiki = await t.inject({ method: 'GET', url: '/api/2.0/wikis/WIKI/releases' });
    expect(wiki.statusCode).toBe(200);
    expect(wiki.json()).toMatchObject({ namespace: 'WIKI', title: 'releases' });
    const category = await t.inject({ method: 'GET', url: '/api/2.0/wikis/CATEGORY/children' });
    expect(category.statusCode).toBe(200);
    expect(category.json()).toMatchObject({ namespace: 'CATEGORY', title: 'children' });
    const tags = await t.inject({ method: 'GET', url: '/api/2.0/wikis/CATEGORY/children/tags' });
    expect(tags.statusCode).toBe(200);
  });
});
