import type { LightMyRequestResponse } from 'fastify';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';

const api = (path: string) => `/api/2.0${path}`;
const COMMENT = 'A helpful comment about this guide.';

/**
 * Guide detail in plain JSON is written from the stored revision's pieces (guide-fragments.ts); ?pretty and
 * XML still go through the object. Both must give the same answer byte for byte, and 200 answers carry an
 * ETag that a conditional GET revalidates.
 */
describe('guide detail: the JSON text and conditional GETs', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let author: CreatedUser;
  let reader: CreatedUser;
  let guideid: number;
  let prerequisiteid: number;
  let stepids: number[];

  const get = (url: string, token?: string, headers: Record<string, string> = {}) =>
    t.as(token, { method: 'GET', url: api(url), headers });

  /**
   * The plain answer, and the object path's answer (?pretty re-serialized compactly): the same bytes.
   * `indented`: what the pretty answer must hold (a guide detail's first member by default).
   */
  const expectSameAsObjectPath = async (path: string, token?: string, indented = '\n  "dataType": "guide"') => {
    const separator = path.includes('?') ? '&' : '?';
    const [plain, pretty] = await Promise.all([get(path, token), get(`${path}${separator}pretty`, token)]);
    expect({ path, status: plain.statusCode }).toEqual({ path, status: 200 });
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(pretty.body).toContain(indented);
    expect(plain.body).toBe(JSON.stringify(JSON.parse(pretty.body)));
    return plain;
  };

  /** PATCH of a guide's newest revision by its author. */
  const editGuide = async (id: number, payload: object) => {
    const head = (await get(`/guides/${id}?unpatrolled`, author.token)).json<{ revisionid: number }>();
    return t.as(author.token, { method: 'PATCH', url: api(`/guides/${id}?revisionid=${head.revisionid}`), payload });
  };

  const createGuide = async (payload: object) => {
    const res = await t.as(author.token, { method: 'POST', url: api('/guides'), payload });
    expect(res.statusCode).toBe(201);
    return res.json<{ guideid: number; revisionid: number }>().guideid;
  };
  const addStep = async (id: number, title: string, text: string) => {
    const res = await t.as(author.token, {
      method: 'POST',
      url: api(`/guides/${id}/steps`),
      payload: { title, lines: [{ text, bullet: 'black', level: 0 }] },
    });
    expect(res.statusCode).toBeLessThan(300);
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { privilege: 'Admin' });
    author = await createUser(t, { privilege: 'Author', username: 'Ünïcode "Author"' });
    reader = await createUser(t);
    await createCategory(t, admin.user, 'Dishwasher');
    prerequisiteid = await createGuide({ category: 'Dishwasher', type: 'technique', subject: 'Power', public: true });
    await addStep(prerequisiteid, 'Unplug it', 'Pull the plug.');
    guideid = await createGuide({
      category: 'Dishwasher',
      type: 'repair',
      subject: 'Door \u2028 "seal"',
      public: true,
      introduction: `'''Bold''' <script>alert(1)</script> and [guide|${prerequisiteid}]`,
      prerequisites: [prerequisiteid],
      parts: [{ name: 'Door seal', quantity: 2 }],
      flags: ['DANGER'],
    });
    await addStep(guideid, 'Open the door', "Mind the '''hinge''' 😀.");
    await addStep(guideid, 'Pull the seal', 'Slowly.');
    const detail = (await get(`/guides/${guideid}`, author.token)).json<{
      steps: { stepid: number; guideid: number }[];
    }>();
    stepids = detail.steps.filter((s) => s.guideid === guideid).map((s) => s.stepid);
    if (stepids.length !== 2) throw new Error(`expected 2 own steps, got ${stepids.length}`);
    // Comments on the guide and on one of its steps, and one on an inlined prerequisite step.
    const prereqStep = detail.steps.find((s) => s.guideid === prerequisiteid)!.stepid;
    for (const url of [`guide/${guideid}`, `step/${stepids[1]}`, `step/${prereqStep}`]) {
      const res = await t.as(reader.token, {
        method: 'POST',
        url: api(`/comments/${url}`),
        payload: { text: COMMENT },
      });
      if (res.statusCode !== 201) throw new Error(`comment on ${url}: ${res.statusCode} ${res.body}`);
    }
  });
  afterAll(() => t.close());

  it('answers the same bytes as the object path, for every caller and option', async () => {
    for (const token of [undefined, reader.token, author.token, admin.token]) {
      for (const query of ['', '?excludePrerequisiteSteps', '?unpatrolled', '?unpatrolled&excludePrerequisiteSteps']) {
        await expectSameAsObjectPath(`/guides/${guideid}${query}`, token);
      }
    }
    const plain = await expectSameAsObjectPath(`/guides/${guideid}`);
    const body = plain.json<{ steps: { stepid: number; comment_count: number }[]; comments: unknown[] }>();
    expect(body.steps.map((s) => s.comment_count)).toEqual([1, 0, 1]);
    expect(body.comments).toHaveLength(1);
    await expectSameAsObjectPath(`/guides/${prerequisiteid}`);
  });

  it('answers a translated view (object path) and an unpatrolled edit the same way', async () => {
    const translated = await editGuide(guideid, { langid: 'de', title: 'Türdichtung', summary: 'Auf Deutsch' });
    expect(translated.statusCode).toBe(200);
    await expectSameAsObjectPath(`/guides/${guideid}?langid=de`);
    expect((await get(`/guides/${guideid}?langid=de`)).json().title).toBe('Türdichtung');
    await expectSameAsObjectPath(`/guides/${guideid}?langid=fr`);
  });

  it('sets an ETag and answers 304 to a conditional GET until anything in the answer changes', async () => {
    const first = await get(`/guides/${guideid}`);
    const tag = first.headers.etag as string;
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect((await get(`/guides/${guideid}`)).headers.etag).toBe(tag);

    const revalidate = (value: string, token?: string) => get(`/guides/${guideid}`, token, { 'if-none-match': value });
    const notModified = (res: LightMyRequestResponse) => {
      expect(res.statusCode).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers.etag).toBe(tag);
    };
    notModified(await revalidate(tag));
    notModified(await revalidate(`W/${tag}`));
    notModified(await revalidate(`"other", ${tag}`));
    notModified(await revalidate('*'));
    const other = await revalidate('"other"');
    expect(other.statusCode).toBe(200);
    expect(other.body).toBe(first.body);

    // Another caller's answer differs (can_edit), so its tag does too.
    const authors = await get(`/guides/${guideid}`, author.token);
    expect(authors.headers.etag).not.toBe(tag);
    expect((await revalidate(tag, author.token)).statusCode).toBe(200);

    // A new comment changes the answer without a new revision: a new tag, and the old one no longer matches.
    await t.as(reader.token, { method: 'POST', url: api(`/comments/step/${stepids[0]}`), payload: { text: COMMENT } });
    const commented = await revalidate(tag);
    expect(commented.statusCode).toBe(200);
    expect(commented.headers.etag).not.toBe(tag);
    expect(commented.json().steps[1].comment_count).toBe(1);

    // So does a new revision, and the author's new name.
    const newTag = commented.headers.etag as string;
    const edited = await editGuide(guideid, { summary: 'A new summary' });
    expect(edited.statusCode).toBe(200);
    const afterEdit = await revalidate(newTag);
    expect(afterEdit.statusCode).toBe(200);
    expect(afterEdit.json().summary).toBe('A new summary');
    const renamed = await t.as(admin.token, {
      method: 'PATCH',
      url: api(`/users/${author.user.userid}`),
      payload: { username: 'Renamed Author' },
    });
    expect(renamed.statusCode).toBe(200);
    const afterRename = await revalidate(afterEdit.headers.etag as string);
    expect(afterRename.statusCode).toBe(200);
    expect(afterRename.json().username).toBe('Renamed Author');
    expect((await revalidate(afterRename.headers.etag as string)).statusCode).toBe(304);

    // The XML answer has its own tag and revalidates the same way.
    const xml = await get(`/guides/${guideid}?type=XML`);
    expect(xml.headers['content-type']).toContain('application/xml');
    expect(
      (await get(`/guides/${guideid}?type=XML`, undefined, { 'if-none-match': xml.headers.etag as string })).statusCode,
    ).toBe(304);

    // Errors carry no tag.
    const missing = await get('/guides/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
  });

  it('answers guide lists in the same bytes as the object path', async () => {
    const lists = [
      '',
      '?limit=1&offset=1',
      '?order=DESC',
      `?guideids=${guideid},${prerequisiteid},999`,
      '?filter=repair',
    ];
    for (const token of [undefined, reader.token, author.token, admin.token]) {
      for (const query of [...lists, '?includePrivate=true'])
        await expectSameAsObjectPath(`/guides${query}`, token, '\n');
    }
    const all = (await get('/guides')).json<{ guideid: number; prereq_modified_date: number }[]>();
    expect(all.map((g) => g.guideid)).toEqual([prerequisiteid, guideid]);
    expect(all[1].prereq_modified_date).toBeGreaterThan(0);
  });

  it('answers a guide pinned to its released release in the same bytes, in detail and in lists', async () => {
    const released = await t.as(author.token, {
      method: 'POST',
      url: api('/guides/releases'),
      payload: { guideid: prerequisiteid, type: 'major' },
    });
    expect(released.statusCode).toBe(201);
    const edited = await editGuide(prerequisiteid, { summary: 'After the release' });
    expect(edited.statusCode).toBe(200);
    // Readers see the release's revision; its editor sees the working copy.
    const pinned = await expectSameAsObjectPath(`/guides/${prerequisiteid}`, reader.token);
    expect(pinned.json().summary).not.toBe('After the release');
    expect((await expectSameAsObjectPath(`/guides/${prerequisiteid}`, author.token)).json().summary).toBe(
      'After the release',
    );
    await expectSameAsObjectPath(`/guides/${guideid}`);
    for (const token of [undefined, author.token]) {
      const plain = await expectSameAsObjectPath('/guides', token, '\n');
      const summaries = plain.json<{ guideid: number; summary: string }[]>();
      const summary = summaries.find((g) => g.guideid === prerequisiteid)!.summary;
      expect(summary === 'After the release').toBe(token === author.token);
    }
  });

  it('stores a layout with each document and answers from it; without one, or with one for another text, the same', async () => {
    const layoutOf = async () => {
      const shown = (await get(`/guides/${guideid}`, reader.token)).json<{ revisionid: number }>().revisionid;
      const [row] = await t.dataSource.query<{ layout: string | null }[]>(
        'SELECT layout FROM guide_revisions WHERE revisionid = ?',
        [shown],
      );
      return { revisionid: shown, layout: row.layout };
    };
    // A signed-in reader: anonymous answers may come whole from the answer cache.
    const before = (await get(`/guides/${guideid}`, reader.token)).body;
    const stored = await layoutOf();
    expect(JSON.parse(stored.layout!)).toEqual(
      expect.objectContaining({ length: expect.any(Number), fields: expect.any(Number), steps: expect.any(Array) }),
    );
    // Written before layouts were: the first read answers from the parsed document and stores the layout.
    await t.dataSource.query('UPDATE guide_revisions SET layout = NULL WHERE revisionid = ?', [stored.revisionid]);
    expect((await get(`/guides/${guideid}`, reader.token)).body).toBe(before);
    expect((await layoutOf()).layout).toBe(stored.layout);
    // A layout that does not fit the text (a database that rewrote the JSON) is not used.
    const other = { ...JSON.parse(stored.layout!), length: 1 };
    await t.dataSource.query('UPDATE guide_revisions SET layout = ? WHERE revisionid = ?', [
      JSON.stringify(other),
      stored.revisionid,
    ]);
    expect((await get(`/guides/${guideid}`, reader.token)).body).toBe(before);
    await expectSameAsObjectPath(`/guides/${guideid}`, reader.token);
  });

  it('reads a guide in as many statements as before (the pieces come from the stored document)', async () => {
    await get(`/guides/${guideid}`);
    const res = await get(`/guides/${guideid}`);
    expect(res.statusCode).toBe(200);
    expect(sqlCount(res)).toBeLessThanOrEqual(8);
  });
});
