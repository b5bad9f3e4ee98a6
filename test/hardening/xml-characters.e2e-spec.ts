import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { buildOpenApiDocument } from '../../src/openapi/openapi';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

const api = (path: string) => `/api/2.0${path}`;
type Path = (string | number)[];

/** C0 controls other than tab, LF and CR, U+FFFE and U+FFFF: stored as sent, but not XML 1.0 characters. */
const FORBIDDEN = [
  ...Array.from({ length: 0x1f }, (_, i) => String.fromCharCode(i + 1)).filter((c) => !'\t\n\r'.includes(c)),
  '\uFFFE',
  '\uFFFF',
];
const ALLOWED = ['\t', '\n', '\r', '\uE000', '\u{10000}'];
/** What every content field below is written with. */
const MARKED = `start ${FORBIDDEN.join('')} mid ${ALLOWED.join('')} end`;
const XML_RULE = (value: string) => [...value].map((c) => (FORBIDDEN.includes(c) ? '\uFFFD' : c)).join('');

/**
 * fast-xml-parser's XMLValidator checks the structure but lets any character through, so the characters are
 * checked against XML 1.0's Char production here; a raw CR is refused too, as a parser would turn it into LF.
 */
function expectStrictXml(body: string): void {
  expect(XMLValidator.validate(body)).toBe(true);
  const bad = [...body].filter((c) => !/^[\t\n\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]$/u.test(c));
  expect(bad.map((c) => c.codePointAt(0)!.toString(16))).toEqual([]);
}

const parseXml = (body: string) =>
  new XMLParser({ ignoreAttributes: false, parseTagValue: false, trimValues: false, htmlEntities: true }).parse(
    body,
  ) as Record<string, Record<string, unknown>>;
/** The value at a path of keys and array indexes. */
const at = (value: unknown, path: (string | number)[]): unknown =>
  path.reduce<unknown>((v, key) => (v as Record<string | number, unknown> | undefined)?.[key], value);

describe('XML answers hold only XML characters (issue 42)', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let author: CreatedUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { privilege: 'Admin' });
    author = await createUser(t, { privilege: 'Author' });
    await createCategory(t, admin.user, 'Xml Kettle');
  });
  afterAll(() => t.close());

  /** Per XML-capable operation: writes content through the API; the URL, and each field's path in JSON and in XML. */
  const CASES: Record<string, () => Promise<{ url: string; fields: [json: Path, xml: Path][] }>> = {
    'GET /api/2.0/guides/{guideid}': async () => {
      const guide = await t.as(author.token, {
        method: 'POST',
        url: api('/guides'),
        payload: { category: 'Xml Kettle', type: 'repair', public: true, introduction: MARKED, conclusion: MARKED },
      });
      expect(guide.statusCode).toBe(201);
      const { guideid } = guide.json<{ guideid: number }>();
      const step = await t.as(author.token, {
        method: 'POST',
        url: api(`/guides/${guideid}/steps`),
        payload: { lines: [{ text: MARKED, bullet: 'black', level: 0 }] },
      });
      expect(step.statusCode).toBe(201);
      return {
        url: `/guides/${guideid}`,
        fields: [
          [['introduction_raw'], ['introduction_raw']],
          [['introduction_rendered'], ['introduction_rendered']],
          [['conclusion_raw'], ['conclusion_raw']],
          [
            ['steps', 0, 'lines', 0, 'text_raw'],
            ['steps', 'item', 'lines', 'item', 'text_raw'],
          ],
          [
            ['steps', 0, 'lines', 0, 'text_rendered'],
            ['steps', 'item', 'lines', 'item', 'text_rendered'],
          ],
        ],
      };
    },
    'GET /api/2.0/wikis/{namespace}/{title}': async () => {
      const wiki = await t.as(admin.token, {
        method: 'POST',
        url: api('/wikis'),
        payload: { namespace: 'CATEGORY', title: 'Xml Chars', contents: MARKED, description: MARKED },
      });
      expect(wiki.statusCode).toBe(201);
      return {
        url: '/wikis/CATEGORY/Xml%20Chars',
        fields: [
          [['contents_raw'], ['contents_raw']],
          [['contents_rendered'], ['contents_rendered']],
          [['description'], ['description']],
        ],
      };
    },
  };

  it('every operation that can answer application/xml has a case here (found in the OpenAPI document)', () => {
    const document = buildOpenApiDocument(t.app);
    const xmlOperations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { responses?: Record<string, { content?: object }> }>)
        .filter(([, op]) => Object.values(op.responses ?? {}).some((r) => r.content && 'application/xml' in r.content))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(xmlOperations.sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(Object.keys(CASES))(
    '%s: forbidden code points become U+FFFD, tab, LF, CR, U+E000 and U+10000 survive; JSON is unchanged',
    async (operation) => {
      const { url, fields } = await CASES[operation]();
      const json = await t.as(author.token, { method: 'GET', url: api(url) });
      expect(json.statusCode).toBe(200);
      for (const query of ['?type=XML', '?type=XML&pretty']) {
        const res = await t.as(author.token, { method: 'GET', url: api(url + query) });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/^application\/xml/);
        expectStrictXml(res.body);
        const { '?xml': _declaration, ...roots } = parseXml(res.body);
        const root = Object.values(roots)[0];
        // The raw fields keep what was written in JSON, every forbidden character included.
        expect(at(json.json(), fields[0][0])).toBe(MARKED);
        for (const [jsonPath, xmlPath] of fields) {
          const [jsonValue, xmlValue] = [at(json.json(), jsonPath), at(root, xmlPath)];
          expect(typeof jsonValue).toBe('string');
          expect({ query, xmlPath, xml: xmlValue }).toEqual({ query, xmlPath, xml: XML_RULE(jsonValue as string) });
        }
      }
    },
  );

  it('NUL and lone surrogates are refused on input (422), so no answer can hold them', async () => {
    for (const bad of ['a\u0000b', 'a\uD800b', 'a\uDFFFb']) {
      const res = await t.as(author.token, {
        method: 'POST',
        url: api('/guides'),
        payload: { category: 'Xml Kettle', type: 'repair', introduction: bad },
      });
      expect({ status: res.statusCode, field: res.json().errors?.[0]?.field }).toEqual({
        status: 422,
        field: 'introduction',
      });
    }
  });
});
