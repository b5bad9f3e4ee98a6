import { SearchRepository } from '../../src/modules/search/search.repository';
import { reindex } from '../../src/modules/search/reindex-cli';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { GuideRevised } from '../../src/modules/guides/guide.events';
import { publishEvents, settle } from '../utils/events';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';
import { API, indexedGuide, titles, type SearchBody, type SuggestBody } from './search-kit';

describe('GET /search/{query} and GET /suggest/{query}', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let author: CreatedUser;
  let otherAuthor: CreatedUser;
  let reader: CreatedUser;
  const ids: Record<string, number> = {};

  const search = async (query: string, params = '', token?: string) => {
    const query_ = params ? `?${params.replace(/^[?&]/, '')}` : '';
    const response = await t.as(token, { method: 'GET', url: `${API}/search/${encodeURIComponent(query)}${query_}` });
    expect(response.statusCode).toBe(200);
    return response.json<SearchBody>();
  };
  const suggest = async (query: string, params = '', token?: string) => {
    const query_ = params ? `?${params.replace(/^[?&]/, '')}` : '';
    const response = await t.as(token, { method: 'GET', url: `${API}/suggest/${encodeURIComponent(query)}${query_}` });
    expect(response.statusCode).toBe(200);
    return response.json<SuggestBody>();
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { privilege: 'Admin' });
    author = await createUser(t, { privilege: 'Author' });
    otherAuthor = await createUser(t, { privilege: 'Author' });
    reader = await createUser(t);
    await createCategory(t, admin.user, 'Phone', undefined, { contents: 'Phones of every maker.' });
    await createCategory(t, admin.user, 'iPhone', 'Phone', {
      display_title: 'Apple iPhone',
      contents: "Apple's smartphones. The battery wears out after a few years.",
    });
    await createCategory(t, admin.user, 'Laptop', undefined, { contents: 'Portable computers.' });
    await createWiki(t, admin.user, { namespace: 'INFO', title: 'Battery safety', contents: 'Never puncture a cell.' });
    ids.battery = (
      await indexedGuide(t, author.user, {
        category: 'iPhone',
        title: 'iPhone Battery Replacement',
        summary: 'Swap the worn cell.',
        introduction: 'A new cell restores the runtime.',
      })
    ).guideid;
    ids.display = (
      await indexedGuide(
        t,
        author.user,
        { category: 'iPhone', title: 'iPhone Display Repair', summary: 'A cracked screen.' },
        ['Disconnect the battery connector first.', 'Lift the display.'],
      )
    ).guideid;
    ids.keyboard = (
      await indexedGuide(t, author.user, {
        category: 'Laptop',
        title: 'Laptop Keyboard',
        summary: 'Résumé of the keyboard swap.',
        introduction: 'The keyboard sits above the battery.',
      })
    ).guideid;
    ids.resume = (
      await indexedGuide(t, author.user, { category: 'Laptop', title: 'Laptop Hinge', summary: 'A resume of hinges.' })
    ).guideid;
    ids.phrase = (
      await indexedGuide(t, author.user, {
        category: 'Phone',
        title: 'Phone Charging Port',
        introduction: 'Check the connector of the battery, then the port.',
      })
    ).guideid;
    ids.markup = (
      await indexedGuide(t, author.user, {
        category: 'Phone',
        title: 'Phone Antenna',
        introduction: 'Antenna cables: 5 < 6 & "quoted" <b>bold</b> antenna.',
      })
    ).guideid;
    ids.private = (
      await indexedGuide(t, author.user, {
        category: 'Phone',
        title: 'Secret Zanzibar Prototype',
        summary: 'Zanzibar internals.',
        public: false,
      })
    ).guideid;
  });
  afterAll(() => t.close());

  describe('bad input', () => {
    it.each([
      ['an empty query', `${API}/search/`],
      ['a query of spaces', `${API}/search/%20%20`],
      ['a query over 200 characters', `${API}/search/${'a'.repeat(201)}`],
      ['an unknown filter', `${API}/search/battery?filter=guides`],
      ['a limit of 0', `${API}/search/battery?limit=0`],
      ['a negative offset', `${API}/search/battery?offset=-1`],
      ['a bad langid', `${API}/search/battery?langid=english`],
      ['a suggest query over 200 characters', `${API}/suggest/${'b'.repeat(201)}`],
      ['suggest doctypes with no known one', `${API}/suggest/iph?doctypes=bogus,nothing`],
      // Names of Object.prototype's properties are no doctypes (the fuzz found a 500 for __proto__).
      ['suggest doctypes __proto__', `${API}/suggest/x?doctypes=__proto__`],
      ['suggest doctypes constructor,toString', `${API}/suggest/x?doctypes=constructor,toString`],
    ])('%s is 422 with the error body', async (_name, url) => {
      const response = await t.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ error: true, message: expect.any(String) });
    });

    it('a query of exactly 200 characters is accepted', async () => {
      const body = await search('a'.repeat(200));
      expect(body.totalResults).toBe(0);
    });
  });

  describe('ranking and matching', () => {
    it('ranks title matches above body matches, with the envelope and snippets', async () => {
      const body = await search('battery', '&filter=guide');
      expect(body).toMatchObject({ search: 'battery', limit: 20, offset: 0, moreResults: false });
      expect(titles(body)[0]).toBe('iPhone Battery Replacement');
      expect(new Set(titles(body).slice(1))).toEqual(
        new Set(['iPhone Display Repair', 'Laptop Keyboard', 'Phone Charging Port']),
      );
      expect(body.totalResults).toBe(4);
      const display = body.results.find((r) => r.guideid === ids.display)!;
      expect(display).toMatchObject({ dataType: 'guide', guideid: ids.display, public: true, locale: 'en' });
      expect(display.snippet).toMatch(
        /^A cracked screen\. Disconnect the <mark>battery<\/mark> connector first\. Lift/,
      );
      expect(body.results[0].snippet).toContain('<mark>');
    });

    it('matches words by prefix', async () => {
      expect(titles(await search('batt', '&filter=guide'))[0]).toBe('iPhone Battery Replacement');
      expect(titles(await search('keyb'))).toEqual(['Laptop Keyboard']);
    });

    it('is case- and accent-insensitive in both directions', async () => {
      expect(new Set(titles(await search('résumé')))).toEqual(new Set(['Laptop Keyboard', 'Laptop Hinge']));
      expect(new Set(titles(await search('RESUME')))).toEqual(new Set(['Laptop Keyboard', 'Laptop Hinge']));
      const hinge = (await search('résumé')).results.find((r) => r.guideid === ids.resume)!;
      expect(hinge.snippet).toMatch(/^A <mark>resume<\/mark> of hinges\. Laptop/);
    });

    it('joins words with AND', async () => {
      expect(titles(await search('battery keyboard'))).toEqual(['Laptop Keyboard']);
      expect(titles(await search('battery zebra'))).toEqual([]);
    });

    it('searches quoted phrases', async () => {
      expect(titles(await search('"battery connector"'))).toEqual(['iPhone Display Repair']);
      expect(new Set(titles(await search('battery connector')))).toEqual(
        new Set(['iPhone Display Repair', 'Phone Charging Port']),
      );
    });

    it('escapes everything in snippets but the marks', async () => {
      const [hit] = (await search('antenna cables')).results;
      expect(hit.snippet).toMatch(
        /^<mark>Antenna<\/mark> <mark>cables<\/mark>: 5 &lt; 6 &amp; &quot;quoted&quot; bold <mark>antenna<\/mark>\. Phone/,
      );
    });

    it('ranks identical documents newest first', async () => {
      const older = await indexedGuide(t, author.user, { category: 'Laptop', title: 'Twin Fan Cleaning' });
      const newer = await indexedGuide(t, author.user, { category: 'Laptop', title: 'Twin Fan Cleaning' });
      const body = await search('twin fan');
      expect(body.results.map((r) => r.guideid)).toEqual([newer.guideid, older.guideid]);
    });
  });

  describe('filters, languages and paging', () => {
    it('filters by kind', async () => {
      const categories = await search('iphone', '&filter=category');
      expect(categories.results).toEqual([
        expect.objectContaining({
          dataType: 'wiki',
          namespace: 'CATEGORY',
          title: 'iPhone',
          display_title: 'Apple iPhone',
        }),
      ]);
      const wikis = await search('battery', '&filter=wiki');
      expect(titles(wikis)).toEqual(['Battery safety']);
      expect(wikis.results[0].snippet).toBe('<mark>Battery</mark> safety');
      const mixed = await search('battery', '&filter=wiki,category');
      expect(new Set(titles(mixed))).toEqual(new Set(['Battery safety', 'iPhone']));
      const all = await search('battery');
      expect(all.totalResults).toBe(6);
      expect(all.results.filter((r) => r.dataType === 'guide')).toHaveLength(4);
    });

    it('searches the language asked for', async () => {
      expect((await search('battery', '&langid=de')).totalResults).toBe(0);
      expect((await search('battery', '&langid=en')).totalResults).toBe(6);
    });

    it('indexes a patrolled translation under its language', async () => {
      const guide = (await t.inject({ method: 'GET', url: `${API}/guides/${ids.display}` })).json<{
        steps: { stepid: number; revisionid: number }[];
      }>();
      const [step] = guide.steps;
      const translate = await t.as(author.token, {
        method: 'PATCH',
        url: `${API}/guides/${ids.display}/steps/${step.stepid}?revisionid=${step.revisionid}`,
        payload: {
          langid: 'de',
          title: 'Bildschirm lösen',
          lines: [
            { text: 'Zuerst den Akkustecker trennen.', bullet: 'black', level: 0 },
            { text: 'Das Display anheben.', bullet: 'black', level: 0 },
          ],
        },
      });
      expect(translate.statusCode).toBe(200);
      await settle(t);
      const german = await search('akkustecker', '&langid=de');
      expect(german.results.map((r) => r.guideid)).toEqual([ids.display]);
      expect(german.results[0].snippet).toContain('<mark>Akkustecker</mark>');
      expect((await search('losen', '&langid=de')).results.map((r) => r.guideid)).toEqual([ids.display]);
      expect((await search('akkustecker')).totalResults).toBe(0);
      expect((await search('akkustecker', '&langid=en')).totalResults).toBe(0);
    });

    it('pages with consistent totals', async () => {
      const all = await search('battery');
      const seen: string[] = [];
      for (let offset = 0; offset < 6; offset += 4) {
        const page = await search('battery', `&limit=4&offset=${offset}`);
        expect(page).toMatchObject({ limit: 4, offset, totalResults: 6, moreResults: offset + 4 < 6 });
        seen.push(...titles(page));
      }
      expect(seen).toEqual(titles(all));
      const past = await search('battery', '&limit=4&offset=10');
      expect(past).toMatchObject({ totalResults: 6, moreResults: false, results: [] });
    });

    it('answers a search with limit=20 in at most 3 SQL statements', async () => {
      const response = await t.inject({ method: 'GET', url: `${API}/search/battery?limit=20` });
      expect(response.statusCode).toBe(200);
      expect(response.json<SearchBody>().results).toHaveLength(6);
      // The first read of a URL: the cache's token, then the search's own statements.
      expect(sqlCount(response)).toBeLessThanOrEqual(1 + 3);
      const authenticated = await t.as(reader.token, { method: 'GET', url: `${API}/search/battery?limit=20` });
      expect(authenticated.json<SearchBody>().results).toHaveLength(6);
      // Authentication adds its token lookup (and at times the token's last-used update) to the search's own.
      expect(sqlCount(authenticated)).toBeLessThanOrEqual(3 + 2);
    });
  });

  describe('visibility', () => {
    it('hides private guides from others and finds them for their author and Admins', async () => {
      expect(await search('zanzibar')).toMatchObject({ totalResults: 0, results: [] });
      expect((await search('zanzibar', '', reader.token)).totalResults).toBe(0);
      expect((await search('zanzibar', '', otherAuthor.token)).totalResults).toBe(0);
      const own = await search('zanzibar', '', author.token);
      expect(own.results.map((r) => r.guideid)).toEqual([ids.private]);
      expect(own.totalResults).toBe(1);
      expect((await search('zanzibar', '', admin.token)).totalResults).toBe(1);
      expect((await suggest('zanz', '?doctypes=guide')).results).toEqual([]);
      expect((await suggest(`guideid:${ids.private}`)).results).toEqual([]);
      expect((await suggest(`guideid:${ids.private}`, '', author.token)).results).toHaveLength(1);
    });

    it('finds a patrolled edit once its event is delivered', async () => {
      const guide = (await t.inject({ method: 'GET', url: `${API}/guides/${ids.battery}` })).json<{
        revisionid: number;
      }>();
      const edit = await t.as(author.token, {
        method: 'PATCH',
        url: `${API}/guides/${ids.battery}?revisionid=${guide.revisionid}`,
        payload: { introduction: 'A wombat-proof cell restores the runtime.' },
      });
      expect(edit.statusCode).toBe(200);
      await settle(t);
      const body = await search('wombat');
      expect(body.results.map((r) => r.guideid)).toEqual([ids.battery]);
      expect(body.results[0].snippet).toContain('<mark>wombat</mark>');
    });

    it('never finds an unpatrolled wiki edit, nor shows its text', async () => {
      const page = (await t.inject({ method: 'GET', url: `${API}/wikis/INFO/Battery%20safety` })).json<{
        revisionid: number;
      }>();
      const edit = await t.as(otherAuthor.token, {
        method: 'PATCH',
        url: `${API}/wikis/INFO/Battery%20safety?revisionid=${page.revisionid}`,
        payload: { contents: 'Never puncture a quokka.' },
      });
      expect(edit.statusCode).toBe(200);
      await settle(t);
      expect((await search('quokka')).totalResults).toBe(0);
      const hit = (await search('puncture')).results[0];
      expect(hit.snippet).toBe('Never <mark>puncture</mark> a cell.');
    });

    it('indexes the release in force, not a newer patrolled edit readers do not see', async () => {
      const guide = await indexedGuide(t, author.user, {
        category: 'Phone',
        title: 'Released Speaker',
        introduction: 'The platypus grille.',
      });
      const release = await t.as(author.token, {
        method: 'POST',
        url: `${API}/guides/releases`,
        payload: { guideid: guide.guideid, type: 'major' },
      });
      expect(release.statusCode).toBe(201);
      await settle(t);
      const head = (
        await t.as(author.token, { method: 'GET', url: `${API}/guides/${guide.guideid}?unpatrolled` })
      ).json<{ revisionid: number }>();
      const edit = await t.as(author.token, {
        method: 'PATCH',
        url: `${API}/guides/${guide.guideid}?revisionid=${head.revisionid}`,
        payload: { introduction: 'The echidna grille.' },
      });
      expect(edit.statusCode).toBe(200);
      await settle(t);
      expect((await search('echidna', '', author.token)).totalResults).toBe(0);
      expect((await search('platypus')).results.map((r) => r.guideid)).toEqual([guide.guideid]);
    });

    it('drops a deleted guide', async () => {
      const doomed = await indexedGuide(t, author.user, { category: 'Phone', title: 'Doomed Vibrator Motor' });
      expect((await search('vibrator')).totalResults).toBe(1);
      const removed = await t.as(author.token, {
        method: 'DELETE',
        url: `${API}/guides/${doomed.guideid}?revisionid=${doomed.revisionid}`,
      });
      expect(removed.statusCode).toBe(204);
      await settle(t);
      expect(await search('vibrator')).toMatchObject({ totalResults: 0, results: [] });
      expect((await search('vibrator', '', admin.token)).totalResults).toBe(0);
    });
  });

  describe('suggestions', () => {
    it('suggests categories, then guides, by title prefix', async () => {
      const body = await suggest('iph');
      expect(body.query).toBe('iph');
      expect(body.results[0]).toMatchObject({ dataType: 'wiki', namespace: 'CATEGORY', title: 'iPhone' });
      expect(new Set(body.results.slice(1).map((r) => r.guideid))).toEqual(new Set([ids.battery, ids.display]));
    });

    it('keeps to the doctypes asked for, in their order', async () => {
      const guides = await suggest('iph', '?doctypes=guide');
      expect(guides.results.every((r) => r.dataType === 'guide')).toBe(true);
      const ordered = await suggest('iph', '?doctypes=guide,category');
      expect(ordered.results.map((r) => r.dataType)).toEqual(['guide', 'guide', 'wiki']);
      expect((await suggest('batt', '?doctypes=wiki')).results).toEqual([
        expect.objectContaining({ dataType: 'wiki', namespace: 'INFO', title: 'Battery safety' }),
      ]);
      expect((await suggest('iph', '?doctypes=question')).results).toEqual([]);
    });

    it('spreads at most 10 suggestions over the doctypes', async () => {
      for (let i = 0; i < 11; i += 1) await createCategory(t, admin.user, `Kettle ${i}`);
      for (let i = 0; i < 3; i += 1)
        await indexedGuide(t, author.user, { category: 'Kettle 0', title: `Kettle Lid ${i}` });
      await settle(t);
      const body = await suggest('kettle');
      expect(body.results).toHaveLength(10);
      expect(body.results.map((r) => r.dataType)).toEqual([...Array(7).fill('wiki'), ...Array(3).fill('guide')]);
    });

    it('answers the guideid shortcut and an empty query', async () => {
      expect((await suggest(`guideid:${ids.keyboard}`)).results).toEqual([
        expect.objectContaining({ dataType: 'guide', guideid: ids.keyboard, title: 'Laptop Keyboard' }),
      ]);
      const empty = await t.inject({ method: 'GET', url: `${API}/suggest/` });
      expect(empty.statusCode).toBe(200);
      expect(empty.json()).toEqual({ query: '', results: [] });
      expect(await suggest(' ')).toEqual({ query: ' ', results: [] });
    });
  });

  describe('hostile queries', () => {
    const HOSTILE = [
      '"', '""', '"""', '*', '**', '-', '--', '+', '++', '(', ')', '()', "'", "''", 'NEAR', 'NEAR(battery iphone)',
      'battery NEAR/2 iphone', 'battery AND', 'AND OR NOT', 'OR', 'NOT battery', '-battery', '+battery', 'battery*',
      '*battery', 'bat"tery', '"battery', 'battery"', '{title}: battery', 'title:battery', 'title : battery',
      "'; DROP TABLE search_documents; --", "' OR '1'='1", '1; SELECT 1', '\\', '\\"', '%', '_', '%_%',
      '@battery', '~battery', '<battery>', '>battery <iphone', 'battery^2', ':', ';', '&&', '||',
      '\u0000battery', '🔋 battery',
    ]; // prettier-ignore

    it('has 50 of them', () => expect(HOSTILE).toHaveLength(50));

    it.each(HOSTILE)('%j is answered without a server error', async (query) => {
      for (const path of ['search', 'suggest']) {
        const response = await t.inject({ method: 'GET', url: `${API}/${path}/${encodeURIComponent(query)}` });
        expect([200, 400, 422]).toContain(response.statusCode);
        if (response.statusCode === 200) expect(Array.isArray(response.json().results)).toBe(true);
      }
    });

    it('treats operators as text', async () => {
      expect(titles(await search('+battery -keyboard', '&filter=guide'))).toEqual(['Laptop Keyboard']);
      expect(titles(await search('keyboard* (swap)'))).toEqual(['Laptop Keyboard']);
      expect(titles(await search('résumé -hinge'))).toEqual(['Laptop Hinge']);
    });
  });

  describe('delivery', () => {
    it('a redelivered event rewrites the same rows (at-least-once delivery is harmless)', async () => {
      const before = await search('keyboard', '', admin.token);
      // The index lost the edit (as if the process died after the commit): the next delivery repairs it.
      await t.app.get(SearchRepository).replace(
        'GUIDE',
        [ids.keyboard],
        [
          {
            doctype: 'GUIDE',
            docid: ids.keyboard,
            langid: 'en',
            namespace: 'GUIDE',
            isSource: true,
            title: 'Stale zebra',
            body: '',
            data: {},
            modifiedDate: 1,
          },
        ],
      );
      expect((await search('zebra', '', admin.token)).totalResults).toBe(1);
      await publishEvents(t, GuideRevised({ guideid: ids.keyboard, langid: 'en' }));
      await publishEvents(t, GuideRevised({ guideid: ids.keyboard, langid: 'en' }));
      const after = await search('keyboard', '', admin.token);
      expect(after.totalResults).toBe(before.totalResults);
      expect(after.results.map((r) => r.guideid)).toEqual([ids.keyboard]);
      expect((await search('zebra', '', admin.token)).totalResults).toBe(0);
    });
  });

  describe('delivery of many events', () => {
    it('indexes every guide of one delivery with the same few statements, whatever their number', async () => {
      const index = t.app.get(SearchRepository);
      // Guides without translations: a translated guide's languages cost statements of their own.
      const translated = new Set(
        (await t.dataSource.query<{ guideid: number }[]>('SELECT guideid FROM guide_translations')).map((r) =>
          Number(r.guideid),
        ),
      );
      const guides = [ids.battery, ids.display, ids.keyboard, ids.resume, ids.phrase, ids.markup].filter(
        (id) => !translated.has(id),
      );
      expect(guides.length).toBeGreaterThanOrEqual(3);
      const stale = (docid: number) => ({
        doctype: 'GUIDE' as const,
        docid,
        langid: 'en',
        namespace: 'GUIDE',
        isSource: true,
        title: `Stale aardvarkish ${docid}`,
        body: '',
        data: {},
        modifiedDate: 1,
      });
      const statementsOfDelivery = async (guideids: number[]): Promise<string[]> => {
        await index.replace('GUIDE', guideids, guideids.map(stale));
        expect((await search('aardvarkish', '', admin.token)).totalResults).toBe(guideids.length);
        const logger = t.dataSource.logger;
        const logQuery = logger.logQuery.bind(logger);
        const statements: string[] = [];
        logger.logQuery = (sql, parameters, runner): void => {
          if (/\bsearch_(documents|fts)\b|\bguides g\b|\bguide_translations\b/.test(sql)) statements.push(sql);
          logQuery(sql, parameters, runner);
        };
        try {
          await publishEvents(t, ...guideids.map((guideid) => GuideRevised({ guideid, langid: 'en' })));
        } finally {
          logger.logQuery = logQuery;
        }
        expect((await search('aardvarkish', '', admin.token)).totalResults).toBe(0);
        return statements;
      };
      const indexed = () =>
        t.dataSource.query(
          `SELECT docid, langid, title, body FROM search_documents WHERE doctype = 'GUIDE' AND docid IN (${guides.join(', ')}) ORDER BY docid, langid`,
        );
      const before = await indexed();
      expect(before.length).toBeGreaterThanOrEqual(guides.length);
      const one = await statementsOfDelivery([guides[0]]);
      const all = await statementsOfDelivery(guides);
      expect(all.length).toBe(one.length);
      expect(all.length).toBeLessThanOrEqual(6);
      // Each guide is indexed again as it was, under its own title and text.
      expect(await indexed()).toEqual(before);
    });
  });

  describe('rebuild (npm run search:reindex)', () => {
    it('rebuilds the index from the patrolled documents and drops rows of missing ones', async () => {
      const before = await search('battery');
      const index = t.app.get(SearchRepository);
      await index.clear();
      await index.replace(
        'GUIDE',
        [999_999],
        [
          {
            doctype: 'GUIDE',
            docid: 999_999,
            langid: 'en',
            namespace: 'GUIDE',
            isSource: true,
            title: 'Ghost battery',
            body: '',
            data: {},
            modifiedDate: 1,
          },
        ],
      );
      expect((await search('battery', '', admin.token)).totalResults).toBe(0);
      const line = await reindex(t.app);
      expect(line).toMatch(/^search index rebuilt: \d+ guides, \d+ wikis, \d+ rows\n$/);
      expect(await index.indexedIds('GUIDE')).not.toContain(999_999);
      // The same results (InnoDB may order equally relevant rows differently once rows were rewritten).
      const after = await search('battery');
      const byId = (body: SearchBody) =>
        [...body.results].sort((a, b) =>
          `${a.dataType}${a.guideid ?? a.wikiid}`.localeCompare(`${b.dataType}${b.guideid ?? b.wikiid}`),
        );
      expect(after.totalResults).toBe(before.totalResults);
      expect(byId(after)).toEqual(byId(before));
      expect((await search('quokka')).totalResults).toBe(0);
    });
  });
});
