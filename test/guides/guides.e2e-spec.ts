import type { GuideDetailDto } from '../../src/modules/guides/dto/guide-response.dto';
import { EventBus } from '../../src/platform/events/event-bus';
import { GuideChanged, GuideCompleted } from '../../src/modules/guides/guide.events';
import { settle } from '../utils/events';

type DomainEvent = { name: string; payload: unknown };
import { CommentsService } from '../../src/modules/comments/comments.service';
import { addStep, createGuide } from '../factories/guide.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { asCaller, createCategory } from '../factories/wiki.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';

const api = (path: string) => `/api/2.0${path}`;

describe('Guides', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let moderator: CreatedUser;
  let author: CreatedUser;
  let other: CreatedUser;
  let user: CreatedUser;
  const events: DomainEvent[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { privilege: 'Admin' });
    moderator = await createUser(t, { privilege: 'Moderator' });
    author = await createUser(t, { privilege: 'Author' });
    other = await createUser(t, { privilege: 'Author' });
    user = await createUser(t);
    await createCategory(t, admin.user, 'iPhone 6');
    await createCategory(t, admin.user, 'Washer');
    const bus = t.app.get(EventBus);
    bus.subscribe(
      GuideChanged,
      'test.guide-changed',
      (payload) => void events.push({ name: 'guide.changed', payload }),
    );
    bus.subscribe(
      GuideCompleted,
      'test.guide-completed',
      (payload) => void events.push({ name: 'guide.completed', payload }),
    );
  });
  afterAll(() => t.close());

  const post = (token: string | undefined, payload: object) =>
    t.as(token, { method: 'POST', url: api('/guides'), payload });

  describe('POST /guides', () => {
    it('401 without a token, 403 below Author', async () => {
      expect((await post(undefined, { category: 'iPhone 6', type: 'repair' })).statusCode).toBe(401);
      const res = await post(user.token, { category: 'iPhone 6', type: 'repair' });
      expect(res.statusCode).toBe(403);
      expect(res.json().requiredPrivileges).toEqual(['Admin', 'Moderator', 'Author']);
    });

    it('422 for each broken rule, naming the field', async () => {
      const cases: [object, string, number?][] = [
        [{ type: 'repair' }, 'category'],
        [{ category: 'iPhone 7', type: 'repair' }, 'category'],
        [{ category: 'iPhone 6', type: 'fixing' }, 'type'],
        [{ category: 'iPhone 6', type: 'repair', summary: 'x'.repeat(156) }, 'summary'],
        [{ category: 'iPhone 6', type: 'repair', introduction: 'a\n'.repeat(49) + 'b' }, 'introduction'],
        [{ category: 'iPhone 6', type: 'repair', parts: [{ name: 'Screw', quantity: 0 }] }, 'parts.quantity', 0],
        [{ category: 'iPhone 6', type: 'repair', tools: [{ name: 'A' }, { name: 'B', featured: true }] }, 'tools', 1],
        [{ category: 'iPhone 6', type: 'repair', flags: ['DANGER', 'NOPE'] }, 'flags', 1],
        [{ category: 'iPhone 6', type: 'repair', prerequisites: [999] }, 'prerequisites', 0],
        [
          { category: 'iPhone 6', type: 'repair', prerequisite_releases: [{ guideid: 1, releaseid: null }] },
          'prerequisite_releases',
        ],
        [{ category: 'iPhone 6', type: 'repair', documents: [5], featured_documentid: 6 }, 'featured_documentid'],
        [{ category: 'iPhone 6', type: 'repair', image: 999 }, 'image'],
        [{ category: 'iPhone 6', type: 'repair', bogus: 1 }, 'bogus'],
      ];
      for (const [payload, field, index] of cases) {
        const res = await post(author.token, payload);
        expect({ payload, status: res.statusCode }).toEqual({ payload, status: 422 });
        expect(res.json().errors).toContainEqual(
          expect.objectContaining({ field, ...(index !== undefined ? { index } : {}) }),
        );
      }
      expect(
        (
          await post(author.token, {
            category: 'iPhone 6',
            type: 'repair',
            prerequisite_releases: [{ guideid: 1, releaseid: null }],
          })
        ).json().message,
      ).toBe('Guide 1 is not one of prerequisites');
    });

    it('403 when a non-Admin sets another author or a flag above their privilege', async () => {
      expect(
        (await post(author.token, { category: 'iPhone 6', type: 'repair', author: other.user.userid })).statusCode,
      ).toBe(403);
      const res = await post(author.token, { category: 'iPhone 6', type: 'repair', flags: ['GUIDE_STARRED'] });
      expect(res.statusCode).toBe(403);
      expect(res.json().requiredPrivileges).toEqual(['Admin', 'Moderator']);
    });

    it('201 with the guide detail; title generated, items created, GUIDE_IN_PROGRESS added, event published', async () => {
      await settle(t);
      events.length = 0;
      const res = await post(author.token, {
        category: 'iPhone 6',
        type: 'replacement',
        subject: 'Battery',
        summary: 'Swap it.',
        introduction: "''Intro''",
        conclusion: 'Done.',
        difficulty: 'Easy',
        time_required_min: 600,
        time_required_max: 1800,
        flags: ['DANGER'],
        parts: [{ name: 'iPhone 6 Battery', quantity: 2, notes: 'genuine', featured: true, summary: 'A battery.' }],
        tools: [{ name: 'Spudger', type: 'plastic' }],
      });
      expect(res.statusCode).toBe(201);
      expect(sqlCount(res)).toBeLessThanOrEqual(30); // two ITEM pages are created too
      const body = res.json();
      const url = `${t.config.publicUrl}/Guide/iPhone_6_Battery_Replacement/${body.guideid}`;
      expect(body).toEqual({
        dataType: 'guide',
        guideid: expect.any(Number),
        locale: 'en',
        revisionid: expect.any(Number),
        head_revisionid: body.revisionid,
        modified_date: expect.any(Number),
        prereq_modified_date: 0,
        url,
        type: 'replacement',
        category: 'iPhone 6',
        subject: 'Battery',
        title: 'iPhone 6 Battery Replacement',
        summary: 'Swap it.',
        difficulty: 'Easy',
        time_required: '10 minutes - 30 minutes',
        time_required_min: 600,
        time_required_max: 1800,
        public: false,
        userid: author.user.userid,
        username: author.user.username,
        flags: ['DANGER', 'GUIDE_IN_PROGRESS'],
        image: null,
        introduction_raw: "''Intro''",
        introduction_rendered: '<p><em>Intro</em></p>',
        conclusion_raw: 'Done.',
        conclusion_rendered: '<p>Done.</p>',
        documents: [],
        featured_documentid: null,
        featured_document_embed_url: '',
        featured_document_thumbnail_url: '',
        parts: [
          {
            text: 'iPhone 6 Battery',
            type: '',
            quantity: 2,
            notes: 'genuine',
            url: `${t.config.publicUrl}/Item/iPhone_6_Battery`,
            thumbnail: 'http://guides.test/api/2.0/media/placeholders/no-image.thumbnail.png',
            isoptional: false,
            featured: true,
            wikiid: expect.any(Number),
          },
        ],
        tools: [
          {
            text: 'Spudger',
            type: 'plastic',
            quantity: 1,
            notes: '',
            url: `${t.config.publicUrl}/Item/Spudger`,
            thumbnail: 'http://guides.test/api/2.0/media/placeholders/no-image.thumbnail.png',
            isoptional: false,
            featured: false,
            wikiid: expect.any(Number),
          },
        ],
        prerequisites: [],
        prerequisite_releases: [],
        steps: [],
        comments: [],
        author: expect.objectContaining({ userid: author.user.userid, username: author.user.username }),
        langid: 'en',
        available_langids: ['en'],
        created_date: expect.any(Number),
        published_date: 0,
        patrolled: true,
        can_edit: true,
        favorited: false,
        completed: false,
      });
      await settle(t);
      expect(events).toEqual([
        {
          name: 'guide.changed',
          payload: {
            guideid: body.guideid,
            before: null,
            after: {
              authorid: author.user.userid,
              category: 'iPhone 6',
              title: 'iPhone 6 Battery Replacement',
              public: false,
              deleted: false,
            },
          },
        },
      ]);
    });

    it("answers what the creator's GET shows, with the answer built from the write instead of read back", async () => {
      const prerequisite = await post(author.token, { category: 'Washer', type: 'repair', public: true });
      expect(prerequisite.statusCode).toBe(201);
      const bodies: object[] = [
        { category: 'iPhone 6', type: 'repair' },
        {
          category: 'iPhone 6',
          type: 'replacement',
          subject: 'Screen',
          public: true,
          introduction: `'''Bold''' and [guide|${prerequisite.json().guideid}] and [https://example.com a link]`,
          prerequisites: [prerequisite.json().guideid],
          parts: [{ name: 'iPhone 6 Screen', quantity: 1 }],
          flags: ['DANGER'],
        },
        { category: 'Washer', type: 'technique', conclusion: "''Done''", difficulty: 'Moderate' },
      ];
      for (const payload of bodies) {
        const created = await post(author.token, payload);
        expect({ payload, status: created.statusCode, body: created.json() }).toMatchObject({ payload, status: 201 });
        // 12 when the answer was read back (the guide row, and its comments).
        expect(sqlCount(created)).toBeLessThanOrEqual(payload === bodies[0] ? 10 : 30);
        const id = created.json().guideid;
        const read = await t.as(author.token, {
          method: 'GET',
          url: api(`/guides/${id}?unpatrolled&excludePrerequisiteSteps`),
        });
        expect(read.statusCode).toBe(200);
        // Reputation is derived data, updated from the outbox after a commit: the answer shows it as of the
        // write, and a public guide (this one or the prerequisite) may have raised it by the time of the GET.
        const asOfWrite = (body: GuideDetailDto) => ({
          ...body,
          author: { ...body.author, reputation: expect.any(Number) as number },
        });
        expect({ payload, answer: created.json() }).toEqual({ payload, answer: asOfWrite(read.json()) });
        expect(created.json()).toMatchObject({ comments: [], can_edit: true, favorited: false, completed: false });
      }
    });

    it('lets an Admin set the author', async () => {
      const res = await post(admin.token, {
        category: 'Washer',
        type: 'repair',
        author: other.user.userid,
        public: true,
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ userid: other.user.userid, public: true, flags: [], title: 'Washer Repair' });
    });
  });

  describe('GET /guides/{guideid}', () => {
    it('404 for unknown, malformed, private-to-others and deleted guides', async () => {
      const priv = await createGuide(t, author.user, { category: 'iPhone 6' });
      expect((await t.inject({ method: 'GET', url: api('/guides/999999') })).statusCode).toBe(404);
      expect((await t.inject({ method: 'GET', url: api('/guides/abc') })).statusCode).toBe(404);
      expect((await t.inject({ method: 'GET', url: api(`/guides/${priv.guideid}`) })).statusCode).toBe(404);
      expect((await t.as(other.token, { method: 'GET', url: api(`/guides/${priv.guideid}`) })).statusCode).toBe(404);
      expect((await t.as(moderator.token, { method: 'GET', url: api(`/guides/${priv.guideid}`) })).statusCode).toBe(
        200,
      );
      expect((await t.as(user.token, { method: 'GET', url: api(`/guides/${priv.guideid}/tags`) })).statusCode).toBe(
        404,
      );
    });

    it('inlines readable prerequisites’ steps first, embeds comments, in a bounded number of statements', async () => {
      const prereq = await createGuide(t, author.user, { category: 'iPhone 6', public: true, title: 'Open it' });
      await addStep(t, author.user, prereq.guideid, { title: 'P1' });
      const hidden = await createGuide(t, other.user, { category: 'iPhone 6', title: 'Hidden' });
      const guide = await createGuide(t, author.user, {
        category: 'iPhone 6',
        public: true,
        prerequisites: [prereq.guideid],
      });
      for (let i = 0; i < 6; i += 1) await addStep(t, author.user, guide.guideid, { title: `S${i}` });
      // a private prerequisite the reader may not see (added by a Moderator, who can read it)
      const current = await t.as(moderator.token, { method: 'GET', url: api(`/guides/${guide.guideid}`) });
      const patched = await t.as(moderator.token, {
        method: 'PATCH',
        url: api(`/guides/${guide.guideid}?revisionid=${current.json().head_revisionid}`),
        payload: { prerequisites: [prereq.guideid, hidden.guideid] },
      });
      expect(patched.statusCode).toBe(200);
      const comments = t.app.get(CommentsService);
      const stepid = patched.json().steps[0].stepid;
      await comments.create('guide', guide.guideid, { text: 'A comment on the guide.' }, asCaller(user.user));
      await comments.create('step', stepid, { text: 'A comment on a step.' }, asCaller(user.user));

      const res = await t.as(user.token, { method: 'GET', url: api(`/guides/${guide.guideid}`) });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.prerequisites.map((p: { guideid: number }) => p.guideid)).toEqual([prereq.guideid]);
      expect(body.steps.map((s: { title: string; guideid: number }) => [s.title, s.guideid])).toEqual([
        ['P1', prereq.guideid],
        ...[0, 1, 2, 3, 4, 5].map((i) => [`S${i}`, guide.guideid]),
      ]);
      expect(body.steps.map((s: { orderby: number }) => s.orderby)).toEqual([1, 1, 2, 3, 4, 5, 6]);
      expect(body.comments).toEqual([
        expect.objectContaining({ text_raw: 'A comment on the guide.', context: 'guide' }),
      ]);
      expect(body.steps[1].comments).toEqual([expect.objectContaining({ text_raw: 'A comment on a step.' })]);
      expect(body.steps[1].comment_count).toBe(1);
      expect(body.prereq_modified_date).toBeGreaterThan(0);
      expect(sqlCount(res)).toBeLessThanOrEqual(8);

      const excluded = await t.as(user.token, {
        method: 'GET',
        url: api(`/guides/${guide.guideid}?excludePrerequisiteSteps=false`),
      });
      expect(excluded.json().steps).toHaveLength(6);
      const anonymous = await t.inject({ method: 'GET', url: api(`/guides/${prereq.guideid}`) });
      expect(sqlCount(anonymous)).toBeLessThanOrEqual(8);
      const withoutComments = await t.as(user.token, { method: 'GET', url: api(`/guides/${prereq.guideid}`) });
      expect(sqlCount(withoutComments)).toBeLessThanOrEqual(8);

      const xml = await t.as(user.token, { method: 'GET', url: api(`/guides/${guide.guideid}?type=XML`) });
      expect(xml.headers['content-type']).toContain('application/xml');
      expect(xml.body).toContain('<guide>');
    });
  });

  describe('GET /guides and /guides/featured', () => {
    it('serves list items from the stored summary; a revision without one gets it rebuilt once', async () => {
      const guide = await createGuide(t, author.user, { category: 'Washer', public: true, summary: 'Kept apart' });
      const url = api(`/guides?guideids=${guide.guideid}`);
      const before = (await t.inject({ method: 'GET', url })).json();
      expect(before).toEqual([expect.objectContaining({ guideid: guide.guideid, summary: 'Kept apart' })]);
      const stored = async () =>
        (await t.dataSource.query('SELECT summary FROM guide_revisions WHERE revisionid = ?', [guide.revisionid]))[0]
          .summary as unknown;
      await expect(stored()).resolves.not.toBeNull();
      await t.dataSource.query('UPDATE guide_revisions SET summary = NULL WHERE revisionid = ?', [guide.revisionid]);
      const rebuilt = await t.inject({ method: 'GET', url });
      expect(rebuilt.json()).toEqual(before);
      expect(sqlCount(rebuilt)).toBeGreaterThan(sqlCount(await t.inject({ method: 'GET', url })));
      const summary = await stored();
      expect(typeof summary === 'string' ? JSON.parse(summary) : summary).toMatchObject({
        summary: 'Kept apart',
        prerequisiteids: [],
      });
    });

    it('lists public guides; includePrivate only for Admins; 200 items in at most 5 statements', async () => {
      for (let i = 0; i < 25; i += 1)
        await createGuide(t, author.user, { category: 'Washer', public: true, type: 'repair' });
      const res = await t.as(user.token, { method: 'GET', url: api('/guides?limit=200') });
      expect(res.statusCode).toBe(200);
      const items = res.json<{ public: boolean; guideid: number }[]>();
      expect(items.every((g) => g.public)).toBe(true);
      expect(items.map((g) => g.guideid)).toEqual([...items.map((g) => g.guideid)].sort((a, b) => a - b));
      // 4 for the page, 1 for its live releases (readers see released revisions, docs/enterprise/releases.md)
      expect(sqlCount(res)).toBeLessThanOrEqual(5);
      const ignored = await t.as(user.token, { method: 'GET', url: api('/guides?limit=200&includePrivate=true') });
      expect(ignored.json()).toEqual(items);
      const all = await t.as(admin.token, { method: 'GET', url: api('/guides?limit=200&includePrivate=true') });
      expect(all.json().length).toBeGreaterThan(items.length);
      const filtered = await t.inject({ method: 'GET', url: api('/guides?filter=replacement&limit=200') });
      expect(filtered.json().every((g: { type: string }) => g.type === 'replacement')).toBe(true);
      const byIds = await t.inject({
        method: 'GET',
        url: api(`/guides?guideids=${items[1].guideid},${items[0].guideid}`),
      });
      expect(byIds.json().map((g: { guideid: number }) => g.guideid)).toEqual([items[0].guideid, items[1].guideid]);
      expect((await t.inject({ method: 'GET', url: api('/guides?limit=0') })).statusCode).toBe(422);
      const ids = items.map((g) => g.guideid);
      const page = await t.inject({ method: 'GET', url: api('/guides?limit=5&offset=3') });
      expect(page.json().map((g: { guideid: number }) => g.guideid)).toEqual(ids.slice(3, 8));
      const last = await t.inject({ method: 'GET', url: api('/guides?limit=3&order=DESC') });
      expect(last.json().map((g: { guideid: number }) => g.guideid)).toEqual(ids.slice(-3).reverse());
      const future = await t.inject({ method: 'GET', url: api(`/guides?modifiedSince=${2 ** 31}&limit=200`) });
      expect(future.json()).toEqual([]);
      const since = await t.inject({ method: 'GET', url: api('/guides?modifiedSince=1&limit=200') });
      expect(since.json()).toEqual(items);
      expect(items[0]).toEqual({
        dataType: 'guide',
        guideid: expect.any(Number),
        locale: 'en',
        revisionid: expect.any(Number),
        modified_date: expect.any(Number),
        prereq_modified_date: expect.any(Number),
        url: expect.stringContaining('/Guide/'),
        type: expect.any(String),
        category: expect.any(String),
        subject: expect.any(String),
        title: expect.any(String),
        summary: expect.any(String),
        difficulty: null,
        time_required_max: expect.any(Number),
        public: true,
        userid: expect.any(Number),
        username: expect.any(String),
        flags: expect.any(Array),
        image: null,
      });
    });

    it('featured lists public starred guides', async () => {
      const starred = await createGuide(t, moderator.user, {
        category: 'Washer',
        public: true,
        flags: ['GUIDE_STARRED'],
      });
      await createGuide(t, moderator.user, { category: 'Washer', flags: ['GUIDE_FEATURED_STUDENT'] });
      const res = await t.inject({ method: 'GET', url: api('/guides/featured') });
      expect(res.json().map((g: { guideid: number }) => g.guideid)).toEqual([starred.guideid]);
    });
  });

  describe('PATCH /guides/{guideid}', () => {
    let guideid: number;
    let revisionid: number;
    beforeAll(async () => {
      const guide = await createGuide(t, author.user, { category: 'iPhone 6', public: true });
      guideid = guide.guideid;
      revisionid = guide.revisionid;
    });
    const patch = (token: string | undefined, rev: number | undefined, payload: object) =>
      t.as(token, {
        method: 'PATCH',
        url: api(`/guides/${guideid}${rev === undefined ? '' : `?revisionid=${rev}`}`),
        payload,
      });

    it('401, 403 for non-editors, 404 unknown, 422 missing revisionid or broken rules', async () => {
      expect((await patch(undefined, revisionid, { title: 'x' })).statusCode).toBe(401);
      expect((await patch(other.token, revisionid, { title: 'x' })).statusCode).toBe(403);
      expect(
        (await t.as(author.token, { method: 'PATCH', url: api('/guides/999999?revisionid=1'), payload: {} }))
          .statusCode,
      ).toBe(404);
      const missing = await patch(author.token, undefined, { title: 'x' });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().errors).toEqual([{ message: 'revisionid is required', field: 'revisionid' }]);
      expect((await patch(author.token, revisionid, { summary: 'y'.repeat(200) })).statusCode).toBe(422);
      expect((await patch(author.token, revisionid, { category: 'Nope' })).statusCode).toBe(422);
    });

    it('saves a new revision, none for equal values, 409 with the current guide when stale', async () => {
      await settle(t);
      events.length = 0;
      const res = await patch(author.token, revisionid, { title: 'New title', summary: 'S' });
      expect(res.statusCode).toBe(200);
      const saved = res.json();
      expect(saved).toMatchObject({
        title: 'New title',
        summary: 'S',
        url: expect.stringContaining('/Guide/New_title/'),
      });
      expect(saved.revisionid).toBeGreaterThan(revisionid);
      expect(sqlCount(res)).toBeLessThanOrEqual(16);
      const same = await patch(author.token, saved.revisionid, { title: 'New title' });
      expect(same.json().revisionid).toBe(saved.revisionid);
      const stale = await patch(author.token, revisionid, { title: 'Other' });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual(same.json());
      await settle(t);
      expect(events.map((e) => (e.payload as { after: { title: string } }).after.title)).toEqual(['New title']);
      revisionid = saved.revisionid;
    });

    it('keeps edits by granted users unpatrolled until a patrolled save', async () => {
      expect(
        (await t.as(author.token, { method: 'PUT', url: api(`/guides/${guideid}/users/${user.user.userid}`) }))
          .statusCode,
      ).toBe(201);
      const res = await patch(user.token, revisionid, { summary: 'Vandal' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ summary: 'Vandal', patrolled: false });
      const read = await t.inject({ method: 'GET', url: api(`/guides/${guideid}`) });
      expect(read.json()).toMatchObject({ summary: 'S', revisionid, head_revisionid: res.json().revisionid });
      // unpatrolled content is for editors: anonymous readers asking for it get the patrolled revision
      const unpatrolled = await t.inject({ method: 'GET', url: api(`/guides/${guideid}?unpatrolled`) });
      expect(unpatrolled.json().summary).toBe('S');
      const asEditor = await t.as(author.token, { method: 'GET', url: api(`/guides/${guideid}?unpatrolled`) });
      expect(asEditor.json().summary).toBe('Vandal');
      expect((await patch(author.token, revisionid, { summary: 'Fixed' })).statusCode).toBe(409);
      const fixed = await patch(author.token, res.json().revisionid, { summary: 'Fixed' });
      expect(fixed.json()).toMatchObject({ summary: 'Fixed', patrolled: true });
      revisionid = fixed.json().revisionid;
      await t.as(author.token, { method: 'DELETE', url: api(`/guides/${guideid}/users/${user.user.userid}`) });
    });

    it('translates text fields with langid and reads fall back to the source language', async () => {
      const bad = await patch(author.token, revisionid, { langid: 'de', category: 'Washer' });
      expect(bad.statusCode).toBe(422);
      const res = await patch(author.token, revisionid, { langid: 'de', title: 'Neuer Titel' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ title: 'Neuer Titel', locale: 'de', summary: 'Fixed' });
      const de = await t.inject({ method: 'GET', url: api(`/guides/${guideid}?langid=de`) });
      expect(de.json()).toMatchObject({ title: 'Neuer Titel', locale: 'de', available_langids: ['en', 'de'] });
      const fr = await t.inject({ method: 'GET', url: api(`/guides/${guideid}?langid=fr`) });
      expect(fr.json()).toMatchObject({ title: 'New title', locale: 'en' });
    });
  });

  describe('steps', () => {
    let guideid: number;
    beforeAll(async () => {
      guideid = (await createGuide(t, author.user, { category: 'iPhone 6', public: true })).guideid;
    });
    const current = async () =>
      (await t.as(author.token, { method: 'GET', url: api(`/guides/${guideid}?unpatrolled`) })).json<GuideDetailDto>();

    it('POST: 401, 403, 422 with index for lines, then 201', async () => {
      const url = api(`/guides/${guideid}/steps`);
      const line = { text: 'Do it', bullet: 'black', level: 0 };
      expect((await t.inject({ method: 'POST', url, payload: { lines: [line] } })).statusCode).toBe(401);
      expect((await t.as(other.token, { method: 'POST', url, payload: { lines: [line] } })).statusCode).toBe(403);
      const bad = await t.as(author.token, {
        method: 'POST',
        url,
        payload: { lines: [line, { text: 'x'.repeat(351), bullet: 'pink', level: 3 }] },
      });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: 'lines.text', index: 1 }),
          expect.objectContaining({ field: 'lines.bullet', index: 1 }),
          expect.objectContaining({ field: 'lines.level', index: 1 }),
        ]),
      );
      const tooMany = await t.as(author.token, { method: 'POST', url, payload: { lines: Array(9).fill(line) } });
      expect(tooMany.statusCode).toBe(422);
      const deep = await t.as(author.token, { method: 'POST', url, payload: { lines: [line, { ...line, level: 2 }] } });
      expect(deep.json().errors).toEqual([expect.objectContaining({ field: 'lines.level', index: 1 })]);
      const image = await t.as(author.token, {
        method: 'POST',
        url,
        payload: { lines: [line], media: { type: 'image', data: [999] } },
      });
      expect(image.json().errors).toEqual([expect.objectContaining({ field: 'media.data' })]);
      const created = await t.as(author.token, {
        method: 'POST',
        url,
        payload: { title: 'First', lines: [line, { text: "''careful''", bullet: 'icon_caution', level: 1 }] },
      });
      expect(created.statusCode).toBe(201);
      expect(created.json().steps).toEqual([
        {
          stepid: expect.any(Number),
          guideid,
          orderby: 1,
          revisionid: expect.any(Number),
          title: 'First',
          lines: [
            { text_raw: 'Do it', text_rendered: '<p>Do it</p>', bullet: 'black', level: 0, lineid: null },
            {
              text_raw: "''careful''",
              text_rendered: '<p><em>careful</em></p>',
              bullet: 'icon_caution',
              level: 1,
              lineid: null,
            },
          ],
          media: { type: 'image', data: [] },
          form: null,
          comments: [],
          comment_count: 0,
        },
      ]);
      await t.as(author.token, { method: 'POST', url, payload: { title: 'Zero', orderby: 1, lines: [line] } });
      expect((await current()).steps.map((s: { title: string }) => s.title)).toEqual(['Zero', 'First']);
    });

    it('PATCH/DELETE: step revisionid required, 409 with the step, 404 for another guide’s step', async () => {
      const guide = await current();
      const step = guide.steps[1];
      const url = api(`/guides/${guideid}/steps/${step.stepid}`);
      expect((await t.as(author.token, { method: 'PATCH', url, payload: { title: 'X' } })).statusCode).toBe(422);
      const otherGuide = await createGuide(t, author.user, { category: 'iPhone 6' });
      expect(
        (
          await t.as(author.token, {
            method: 'PATCH',
            url: api(`/guides/${otherGuide.guideid}/steps/${step.stepid}?revisionid=${step.revisionid}`),
            payload: { title: 'X' },
          })
        ).statusCode,
      ).toBe(404);
      const saved = await t.as(author.token, {
        method: 'PATCH',
        url: `${url}?revisionid=${step.revisionid}`,
        payload: { title: 'Renamed' },
      });
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toMatchObject({ stepid: step.stepid, title: 'Renamed', orderby: 2, comments: [] });
      expect(saved.json().revisionid).toBeGreaterThan(step.revisionid);
      const stale = await t.as(author.token, {
        method: 'PATCH',
        url: `${url}?revisionid=${step.revisionid}`,
        payload: { title: 'Y' },
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual(saved.json());
      const removed = await t.as(author.token, {
        method: 'DELETE',
        url: `${url}?revisionid=${saved.json().revisionid}`,
      });
      expect(removed.statusCode).toBe(200);
      expect(removed.json().steps.map((s: { title: string }) => s.title)).toEqual(['Zero']);
    });

    it('PUT steporder: a permutation, else 422', async () => {
      await addStep(t, author.user, guideid, { title: 'Last' });
      const guide = await current();
      const ids = guide.steps.map((s: { stepid: number }) => s.stepid);
      const url = (rev: number) => api(`/guides/${guideid}/steporder?revisionid=${rev}`);
      expect(
        (await t.as(author.token, { method: 'PUT', url: url(guide.head_revisionid), payload: { stepids: [ids[0]] } }))
          .statusCode,
      ).toBe(422);
      expect(
        (
          await t.as(author.token, {
            method: 'PUT',
            url: url(guide.head_revisionid),
            payload: { stepids: [ids[0], ids[0]] },
          })
        ).statusCode,
      ).toBe(422);
      const res = await t.as(author.token, {
        method: 'PUT',
        url: url(guide.head_revisionid),
        payload: { stepids: [...ids].reverse() },
      });
      expect(res.json().steps.map((s: { title: string; orderby: number }) => [s.title, s.orderby])).toEqual([
        ['Last', 1],
        ['Zero', 2],
      ]);
    });

    it('previews lines without saving', async () => {
      const res = await t.as(user.token, {
        method: 'POST',
        url: api('/guides/steps/lines/preview'),
        payload: { lines: [{ text: "'''bold'''", bullet: 'red', level: 0 }] },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        lines: [
          {
            text_raw: "'''bold'''",
            text_rendered: '<p><strong>bold</strong></p>',
            bullet: 'red',
            level: 0,
            lineid: null,
          },
        ],
      });
    });
  });

  describe('public, delete, restore', () => {
    it('follows the state table and publishes changes', async () => {
      const guide = await createGuide(t, author.user, { category: 'Washer' });
      const url = (path: string, rev?: number) =>
        api(`/guides/${guide.guideid}${path}${rev ? `?revisionid=${rev}` : ''}`);
      expect((await t.as(other.token, { method: 'PUT', url: url('/public', guide.revisionid) })).statusCode).toBe(404);
      expect((await t.as(author.token, { method: 'PUT', url: url('/public') })).statusCode).toBe(422);
      await settle(t);
      events.length = 0;
      const published = await t.as(author.token, { method: 'PUT', url: url('/public', guide.revisionid) });
      expect(published.json()).toMatchObject({ public: true, flags: [] });
      const again = await t.as(author.token, { method: 'PUT', url: url('/public', published.json().revisionid) });
      expect(again.json().revisionid).toBe(published.json().revisionid);
      expect((await t.inject({ method: 'GET', url: url('') })).statusCode).toBe(200);
      expect((await t.as(other.token, { method: 'DELETE', url: url('', again.json().revisionid) })).statusCode).toBe(
        403,
      );
      expect((await t.as(author.token, { method: 'DELETE', url: url('', guide.revisionid) })).statusCode).toBe(409);
      expect((await t.as(author.token, { method: 'DELETE', url: url('', again.json().revisionid) })).statusCode).toBe(
        204,
      );
      expect((await t.inject({ method: 'GET', url: url('') })).statusCode).toBe(404);
      expect((await t.as(author.token, { method: 'POST', url: url('/fr/restore') })).statusCode).toBe(404);
      const restored = await t.as(author.token, { method: 'POST', url: url('/en/restore') });
      expect(restored.statusCode).toBe(200);
      await settle(t);
      const facts = (e: DomainEvent) => (e.payload as { after: { public: boolean; deleted: boolean } }).after;
      expect(events.map(facts).map((f) => [f.public, f.deleted])).toEqual([
        [true, false],
        [true, true],
        [true, false],
      ]);
    });
  });

  describe('access grants', () => {
    it('lets granted users and teams read and edit a private guide', async () => {
      const guide = await createGuide(t, author.user, { category: 'Washer' });
      const url = api(`/guides/${guide.guideid}`);
      expect((await t.as(user.token, { method: 'GET', url })).statusCode).toBe(404);
      expect((await t.as(other.token, { method: 'PUT', url: `${url}/users/${user.user.userid}` })).statusCode).toBe(
        404,
      );
      expect((await t.as(author.token, { method: 'PUT', url: `${url}/users/999999` })).statusCode).toBe(404);
      const granted = await t.as(author.token, { method: 'PUT', url: `${url}/users/${user.user.userid}` });
      expect(granted.statusCode).toBe(201);
      expect(granted.json()).toEqual([
        expect.objectContaining({ userid: user.user.userid, username: user.user.username }),
      ]);
      expect((await t.as(user.token, { method: 'GET', url })).json().can_edit).toBe(true);
      expect((await t.as(user.token, { method: 'GET', url: `${url}/users` })).json()).toEqual(granted.json());
      expect((await t.as(author.token, { method: 'DELETE', url: `${url}/users/${user.user.userid}` })).json()).toEqual(
        [],
      );
      expect((await t.as(user.token, { method: 'GET', url })).statusCode).toBe(404);
      const teams = await t.as(author.token, { method: 'GET', url: `${url}/teams` });
      expect(teams.json()).toEqual({
        guideTeams: [],
        canIViewGuide: true,
        canIEditGuide: true,
        canIChangeGuidePrivacy: true,
      });
      expect((await t.as(author.token, { method: 'PUT', url: `${url}/teams/999999` })).statusCode).toBe(404);
    });
  });

  describe('completions, favorites, tags, user lists', () => {
    it('marks, lists and unmarks; publishes guide.completed once', async () => {
      const guide = await createGuide(t, author.user, { category: 'Washer', public: true });
      const priv = await createGuide(t, author.user, { category: 'Washer' });
      const url = api(`/guides/${guide.guideid}/completed`);
      expect((await t.inject({ method: 'PUT', url })).statusCode).toBe(401);
      expect(
        (await t.as(user.token, { method: 'PUT', url: api(`/guides/${priv.guideid}/completed`) })).statusCode,
      ).toBe(404);
      expect((await t.as(user.token, { method: 'PUT', url, payload: { langid: 'fr' } })).statusCode).toBe(404);
      await settle(t);
      events.length = 0;
      expect((await t.as(user.token, { method: 'PUT', url })).statusCode).toBe(204);
      expect((await t.as(user.token, { method: 'PUT', url })).statusCode).toBe(204);
      await settle(t);
      expect(events).toEqual([
        {
          name: 'guide.completed',
          payload: { guideid: guide.guideid, userid: user.user.userid, authorid: author.user.userid },
        },
      ]);
      const mine = await t.as(user.token, { method: 'GET', url: api('/user/completions') });
      expect(mine.json().map((g: { guideid: number }) => g.guideid)).toEqual([guide.guideid]);
      const theirs = await t.inject({ method: 'GET', url: api(`/users/${user.user.userid}/completions`) });
      expect(theirs.json()).toEqual(mine.json());
      expect((await t.inject({ method: 'GET', url: api('/users/999999/completions') })).statusCode).toBe(404);
      expect((await t.as(user.token, { method: 'GET', url: api(`/guides/${guide.guideid}`) })).json().completed).toBe(
        true,
      );
      expect((await t.as(user.token, { method: 'DELETE', url })).statusCode).toBe(204);
      expect((await t.as(user.token, { method: 'GET', url: api('/user/completions') })).json()).toEqual([]);

      const fav = api(`/user/favorites/guides/${guide.guideid}`);
      expect((await t.as(user.token, { method: 'PUT', url: fav })).statusCode).toBe(204);
      expect((await t.as(user.token, { method: 'GET', url: api('/user/favorites/guides') })).json()).toEqual([
        expect.objectContaining({ guideid: guide.guideid }),
      ]);
      expect(
        (await t.inject({ method: 'GET', url: api(`/users/${user.user.userid}/favorites/guides`) })).json(),
      ).toHaveLength(1);
      expect((await t.as(user.token, { method: 'DELETE', url: fav })).statusCode).toBe(204);
      expect((await t.as(user.token, { method: 'GET', url: api('/user/favorites/guides') })).json()).toEqual([]);

      const mineGuides = await t.as(author.token, { method: 'GET', url: api('/user/guides?limit=200') });
      expect(mineGuides.json().map((g: { guideid: number }) => g.guideid)).toEqual(
        expect.arrayContaining([guide.guideid, priv.guideid]),
      );
      const public_ = await t.inject({ method: 'GET', url: api(`/users/${author.user.userid}/guides?limit=200`) });
      expect(public_.json().map((g: { guideid: number }) => g.guideid)).not.toContain(priv.guideid);
    });

    it('tags: array of strings; PUT/DELETE by editors answer the guide', async () => {
      const guide = await createGuide(t, author.user, { category: 'Washer', public: true });
      const url = api(`/guides/${guide.guideid}/tag`);
      expect((await t.as(user.token, { method: 'PUT', url, payload: { tag: 'x' } })).statusCode).toBe(403);
      expect((await t.as(author.token, { method: 'PUT', url, payload: { tag: '' } })).statusCode).toBe(422);
      const added = await t.as(author.token, { method: 'PUT', url, payload: { tag: 'Battery' } });
      expect(added.statusCode).toBe(200);
      expect(added.json()).toMatchObject({ guideid: guide.guideid, revisionid: guide.revisionid });
      await t.as(author.token, { method: 'PUT', url, payload: { tag: 'apple' } });
      expect((await t.inject({ method: 'GET', url: api(`/guides/${guide.guideid}/tags`) })).json()).toEqual([
        'apple',
        'Battery',
      ]);
      expect((await t.as(author.token, { method: 'DELETE', url, payload: { tag: 'nope' } })).statusCode).toBe(404);
      expect((await t.as(author.token, { method: 'DELETE', url, payload: { tag: 'battery' } })).statusCode).toBe(200);
      expect((await t.inject({ method: 'GET', url: api(`/guides/${guide.guideid}/tags`) })).json()).toEqual(['apple']);
    });
  });
});
