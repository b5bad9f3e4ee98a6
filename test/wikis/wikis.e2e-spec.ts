import { DataSource } from 'typeorm';
import { TeamEntity } from '../../src/modules/teams/entities/team.entity';
import { TeamMemberEntity } from '../../src/modules/teams/entities/team-member.entity';
import { ViewHistoryService } from '../../src/modules/view-history/view-history.service';
import { WikiRevisionEntity } from '../../src/modules/wikis/entities/wiki-revision.entity';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';

const api = '/api/2.0';

describe('wikis', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let moderator: CreatedUser;
  let author: CreatedUser;
  let author2: CreatedUser;
  let user: CreatedUser;

  const revisionCount = () => t.app.get(DataSource).getRepository(WikiRevisionEntity).count();
  const get = (url: string, token?: string) => t.as(token, { method: 'GET', url: `${api}${url}` });
  const patch = (url: string, token: string, payload: object) =>
    t.as(token, { method: 'PATCH', url: `${api}${url}`, payload });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { privilege: 'Admin' });
    moderator = await createUser(t, { privilege: 'Moderator' });
    author = await createUser(t, { privilege: 'Author' });
    author2 = await createUser(t, { privilege: 'Author' });
    user = await createUser(t);
  });
  afterAll(() => t.close());

  describe('POST /wikis', () => {
    const post = (token: string | undefined, payload: object) =>
      t.as(token, { method: 'POST', url: `${api}/wikis`, payload });

    it('401 without a token', async () => {
      expect((await post(undefined, { namespace: 'WIKI', title: 'X', contents: '' })).statusCode).toBe(401);
    });

    it('403 for a User outside their own USER page or their teams', async () => {
      const res = await post(user.token, { namespace: 'WIKI', title: 'Nope', contents: '' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        error: true,
        message: 'You may not create this wiki',
        requiredPrivileges: ['Admin', 'Moderator', 'Author'],
      });
      expect(
        (await post(user.token, { namespace: 'USER', title: String(author.user.userid), contents: '' })).statusCode,
      ).toBe(403);
    });

    it('422 for an unknown namespace, a foreign field, a missing contents or an unknown field', async () => {
      const cases: [object, string][] = [
        [{ namespace: 'BLOG', title: 'X', contents: '' }, 'namespace'],
        [{ namespace: 'CATEGORY', title: 'X', contents: '', suppliers: [] }, 'suppliers'],
        [{ namespace: 'WIKI', title: 'X', contents: '', parent: 'Y' }, 'parent'],
        [{ namespace: 'USER', title: String(user.user.userid), contents: '', description: 'd' }, 'description'],
        [{ namespace: 'WIKI', title: 'X' }, 'contents'],
        [{ namespace: 'WIKI', title: 'X', contents: '', flags: ['NOPE'] }, 'flags'],
        [{ namespace: 'CATEGORY', title: 'X', contents: '', repairability_score: 11 }, 'repairability_score'],
      ];
      for (const [payload, field] of cases) {
        const res = await post(author.token, payload);
        expect(res.statusCode).toBe(422);
        expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
      }
      const unknown = await post(author.token, { namespace: 'WIKI', title: 'X', contents: '', color: 'red' });
      expect(unknown.statusCode).toBe(422);
    });

    it('422 for a USER page of a missing user, a TEAM page of a missing team, an unknown parent, over-long contents', async () => {
      expect((await post(admin.token, { namespace: 'USER', title: '999999', contents: '' })).statusCode).toBe(422);
      expect((await post(admin.token, { namespace: 'TEAM', title: 'abc', contents: '' })).statusCode).toBe(422);
      const parent = await post(admin.token, {
        namespace: 'CATEGORY',
        title: 'Orphan',
        contents: '',
        parent: 'No Such',
      });
      expect(parent.statusCode).toBe(422);
      expect(parent.json().errors).toEqual([{ field: 'parent', message: 'No category titled No Such' }]);
      const long = await post(admin.token, { namespace: 'WIKI', title: 'Long', contents: 'é'.repeat(40_000) });
      expect(long.json().errors).toEqual([{ field: 'contents', message: 'contents must be at most 65535 bytes' }]);
    });

    it('creates a wiki (201, whole detail); underscores become spaces; a duplicate title is a 422', async () => {
      const res = await post(author.token, {
        namespace: 'WIKI',
        title: 'How_to solder',
        contents: "'''Heat''' the joint.",
        display_title: 'How to Solder',
        description: 'Soldering basics',
        flags: ['WIKI_IN_PROGRESS'],
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({
        wikiid: expect.any(Number),
        langid: 'en',
        namespace: 'WIKI',
        title: 'How to solder',
        display_title: 'How to Solder',
        revisionid: expect.any(Number),
        modified_date: expect.any(Number),
        created_date: expect.any(Number),
        author: author.user.userid,
        contents_raw: "'''Heat''' the joint.",
        contents_rendered: '<p><strong>Heat</strong> the joint.</p>',
        contents_json: {
          type: 'doc',
          content: [
            {
              type: 'paragraph',
              content: [
                { type: 'text', text: 'Heat', marks: [{ type: 'strong' }] },
                { type: 'text', text: ' the joint.' },
              ],
            },
          ],
        },
        linked_wikis: [],
        image: null,
        flags: ['WIKI_IN_PROGRESS'],
        tags: [],
        table_of_contents: false,
        can_edit: true,
        available_langids: ['en'],
        source_revisionid: null,
        description: 'Soldering basics',
      });
      const duplicate = await post(admin.token, { namespace: 'WIKI', title: 'How to solder', contents: '' });
      expect(duplicate.statusCode).toBe(422);
      expect(duplicate.json().errors).toEqual([
        { field: 'title', message: 'A WIKI wiki titled How to solder already exists' },
      ]);
      // Titles compare case-insensitively: another case is the same wiki.
      const cased = await post(admin.token, { namespace: 'WIKI', title: 'How To Solder', contents: '' });
      expect(cased.statusCode).toBe(422);
      expect(cased.json().errors).toEqual([
        { field: 'title', message: 'A WIKI wiki titled How To Solder already exists' },
      ]);
      expect((await post(admin.token, { namespace: 'WIKI', title: 'Soldering Irons', contents: '' })).statusCode).toBe(
        201,
      );
    });

    it('lets a User create their own USER page and a member their TEAM page (display title from the user/team)', async () => {
      const own = await post(user.token, { namespace: 'USER', title: String(user.user.userid), contents: 'About me' });
      expect(own.statusCode).toBe(201);
      expect(own.json()).toMatchObject({ namespace: 'USER', display_title: user.user.username, can_edit: true });
      expect(own.json()).not.toHaveProperty('description');
      const dataSource = t.app.get(DataSource);
      const team = await dataSource.getRepository(TeamEntity).save({
        name: 'Fixers',
        description: '',
        createdByUserid: null,
        ownerUserid: null,
        createdDate: 1,
      } as unknown as TeamEntity);
      await dataSource
        .getRepository(TeamMemberEntity)
        .save({ teamid: team.teamid, userid: user.user.userid, joinedDate: 1 });
      const teamPage = await post(user.token, { namespace: 'TEAM', title: String(team.teamid), contents: 'We fix.' });
      expect(teamPage.statusCode).toBe(201);
      expect(teamPage.json()).toMatchObject({ namespace: 'TEAM', title: String(team.teamid), display_title: 'Fixers' });
    });
  });

  describe('GET /wikis/{namespace}/{title}', () => {
    beforeAll(async () => {
      await createCategory(t, admin.user, 'Phone');
      await createWiki(t, author.user, {
        namespace: 'ITEM',
        title: 'Spudger',
        contents: 'Pry with it. See [wiki|CATEGORY|Phone|phones] and [wiki|WIKI|Missing|nothing].',
        description: 'A prying tool',
        info: [{ name: 'Material', value: 'Nylon' }],
        suppliers: [{ supplier: 'Acme', url: 'https://acme.test/spudger' }],
      });
    });

    it('422 for an unknown namespace, 404 for an unknown title (titles match in any case)', async () => {
      expect((await get('/wikis/BLOG/Spudger')).statusCode).toBe(422);
      expect((await get('/wikis/ITEM/spudger')).json().title).toBe('Spudger');
      const missing = await get('/wikis/ITEM/spudgers');
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ error: true, message: 'Wiki not found' });
      expect((await get('/wikis/CATEGORY/Phone/nope')).statusCode).toBe(404);
    });

    it('422 for type=XML outside CATEGORY; XML for CATEGORY', async () => {
      expect((await get('/wikis/ITEM/Spudger?type=XML')).statusCode).toBe(422);
      const xml = await get('/wikis/CATEGORY/Phone?type=XML');
      expect(xml.statusCode).toBe(200);
      expect(xml.headers['content-type']).toMatch(/application\/xml/);
      expect(xml.body).toContain('<title>Phone</title>');
    });

    it('answers the ITEM detail with its namespace fields, links and linked_wikis, in bounded SQL', async () => {
      const res = await get('/wikis/ITEM/Spudger');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({
        namespace: 'ITEM',
        title: 'Spudger',
        description: 'A prying tool',
        info: [{ name: 'Material', value: 'Nylon' }],
        suppliers: [{ 'part_#': '', type: '', supplier: 'Acme', url: 'https://acme.test/spudger' }],
        linked_wikis: [{ wikiid: expect.any(Number), namespace: 'CATEGORY', title: 'Phone' }],
        can_edit: false,
      });
      expect(body.contents_rendered).toBe(
        '<p>Pry with it. See <a href="http://guides.test/c/Phone" rel="nofollow noopener noreferrer">phones</a> and nothing.</p>',
      );
      expect(Object.keys(body)).not.toEqual(
        expect.arrayContaining(['parent', 'children', 'guides', 'repairability_score']),
      );
      // The `answers` token (nothing kept yet), then the build; one of them asks for the live release (readers
      // who are not editors see it, docs/enterprise/releases.md).
      expect(sqlCount(res)).toBeLessThanOrEqual(6);
    });

    it('looks titles up with underscores as spaces and URL-decoded', async () => {
      expect((await get('/wikis/WIKI/How_to_solder')).json().title).toBe('How to solder');
      expect((await get('/wikis/wiki/How%20to%20solder')).statusCode).toBe(200);
    });

    it('records an authenticated read in the view history', async () => {
      const res = await get('/wikis/ITEM/Spudger', author2.token);
      const views = t.app.get(ViewHistoryService);
      await views.flush();
      const history = await views.forDocument('wiki', res.json().wikiid, { offset: 0, limit: 20 });
      expect(history.map((h) => h.userid)).toEqual([author2.user.userid]);
    });
  });

  describe('GET /wikis/{namespace}', () => {
    it('422 for an unknown namespace, a bad limit, or display=hierarchy outside CATEGORY', async () => {
      expect((await get('/wikis/BLOG')).statusCode).toBe(422);
      expect((await get('/wikis/WIKI?limit=0')).statusCode).toBe(422);
      expect((await get('/wikis/WIKI?display=hierarchy')).statusCode).toBe(422);
      expect((await get('/wikis/WIKI?display=tree')).statusCode).toBe(422);
    });

    it('lists light objects by title with offset/limit, and titles with display=titles', async () => {
      const titles = (await get('/wikis/WIKI?display=titles')).json();
      expect(titles).toEqual(['How to solder', 'Soldering Irons']);
      expect((await get('/wikis/WIKI?display=titles&limit=1&offset=1')).json()).toEqual([titles[1]]);
      const res = await get('/wikis/WIKI');
      expect(res.statusCode).toBe(200);
      expect(res.json().find((w: { title: string }) => w.title === 'How to solder')).toEqual({
        dataType: 'wiki',
        wikiid: expect.any(Number),
        namespace: 'WIKI',
        title: 'How to solder',
        display_title: 'How to Solder',
        langid: 'en',
        summary: 'Soldering basics',
        text: 'Soldering basics',
        url: 'http://guides.test/Wiki/How_to_solder',
        image: null,
        modified_date: expect.any(Number),
      });
      expect(sqlCount(await get('/wikis/WIKI?limit=200'))).toBeLessThanOrEqual(2);
    });

    it('filters with modifiedSince (newest first)', async () => {
      const future = Math.floor(Date.now() / 1000) + 3600;
      expect((await get(`/wikis/WIKI?modifiedSince=${future}`)).json()).toEqual([]);
      expect((await get('/wikis/WIKI?display=titles&modifiedSince=0')).json()).toHaveLength(2);
    });
  });

  describe('PATCH /wikis/{namespace}/{title}', () => {
    let revisionid: number;
    beforeAll(async () => {
      revisionid = (
        await createWiki(t, author.user, { namespace: 'INFO', title: 'About', contents: 'v1', description: 'd1' })
      ).revisionid;
    });

    it('401, 422 without revisionid, 404 unknown, 403 for a User, 422 for a foreign field', async () => {
      expect(
        (await t.inject({ method: 'PATCH', url: `${api}/wikis/INFO/About?revisionid=${revisionid}`, payload: {} }))
          .statusCode,
      ).toBe(401);
      expect((await patch('/wikis/INFO/About', author.token, { contents: 'x' })).statusCode).toBe(422);
      expect(
        (await patch(`/wikis/INFO/Nope?revisionid=${revisionid}`, author.token, { contents: 'x' })).statusCode,
      ).toBe(404);
      expect(
        (await patch(`/wikis/INFO/About?revisionid=${revisionid}`, user.token, { contents: 'x' })).statusCode,
      ).toBe(403);
      const foreign = await patch(`/wikis/INFO/About?revisionid=${revisionid}`, author.token, { info: [] });
      expect(foreign.json().errors).toEqual([{ field: 'info', message: 'info is not a field of INFO wikis' }]);
      expect(
        (await patch(`/wikis/INFO/About?revisionid=${revisionid}`, author.token, { parent: 'x' })).statusCode,
      ).toBe(422);
    });

    it('409 with the current wiki for a stale revisionid, nothing written', async () => {
      const before = await revisionCount();
      const res = await patch(`/wikis/INFO/About?revisionid=${revisionid - 1}`, author.token, { contents: 'v2' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual((await get('/wikis/INFO/About?unpatrolled', author.token)).json());
      expect(res.json().contents_raw).toBe('v1');
      expect(await revisionCount()).toBe(before);
    });

    it('saves a new revision; equal values create none and keep the revisionid', async () => {
      const res = await patch(`/wikis/INFO/About?revisionid=${revisionid}`, author.token, { contents: 'v2' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ contents_raw: 'v2', description: 'd1', revisionid: expect.any(Number) });
      expect(res.json().revisionid).toBeGreaterThan(revisionid);
      revisionid = res.json().revisionid;
      const before = await revisionCount();
      const same = await patch(`/wikis/INFO/About?revisionid=${revisionid}`, author.token, {
        contents: 'v2',
        description: 'd1',
      });
      expect(same.statusCode).toBe(200);
      expect(same.json().revisionid).toBe(revisionid);
      expect(await revisionCount()).toBe(before);
      expect(
        (await patch(`/wikis/INFO/About?revisionid=${revisionid - 1}`, author.token, { contents: 'v2' })).statusCode,
      ).toBe(409);
    });

    it('patrol: an edit by another Author is unpatrolled until a Moderator+ saves on it', async () => {
      const unpatrolled = await patch(`/wikis/INFO/About?revisionid=${revisionid}`, author2.token, {
        contents: 'v3 by another',
      });
      expect(unpatrolled.statusCode).toBe(200);
      expect(unpatrolled.json().contents_raw).toBe('v3 by another');
      expect((await get('/wikis/INFO/About')).json()).toMatchObject({ contents_raw: 'v2', revisionid });
      // unpatrolled content is for editors: anonymous readers asking for it get the patrolled revision
      expect((await get('/wikis/INFO/About?unpatrolled=false')).json().contents_raw).toBe('v2');
      const newest = (await get('/wikis/INFO/About?unpatrolled=false', author.token)).json();
      expect(newest.contents_raw).toBe('v3 by another');
      // An edit against the patrolled revision while newer unpatrolled content exists is stale.
      const stale = await patch(`/wikis/INFO/About?revisionid=${revisionid}`, author.token, {
        contents: 'v3 by author',
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().revisionid).toBe(newest.revisionid);
      // A Moderator's save without changes patrols the newest revision.
      const patrolled = await patch(`/wikis/INFO/About?revisionid=${newest.revisionid}`, moderator.token, {});
      expect(patrolled.json().revisionid).toBe(newest.revisionid);
      expect((await get('/wikis/INFO/About')).json()).toMatchObject({
        contents_raw: 'v3 by another',
        revisionid: newest.revisionid,
      });
      revisionid = newest.revisionid;
    });

    it('translations: langid starts one from the source revision; reads fall back to the source language', async () => {
      const foreign = await patch(`/wikis/INFO/About?revisionid=${revisionid}&langid=de`, author.token, { flags: [] });
      expect(foreign.json().errors).toEqual([
        { field: 'flags', message: "flags can only be changed in the wiki's source language" },
      ]);
      expect(
        (await patch(`/wikis/INFO/About?revisionid=${revisionid}&langid=DE`, author.token, { contents: 'x' }))
          .statusCode,
      ).toBe(422);
      const de = await patch(`/wikis/INFO/About?revisionid=${revisionid}&langid=de`, author.token, {
        contents: 'Über uns',
        display_title: 'Über',
      });
      expect(de.statusCode).toBe(200);
      expect(de.json()).toMatchObject({
        langid: 'de',
        contents_raw: 'Über uns',
        display_title: 'Über',
        description: 'd1',
        source_revisionid: revisionid,
      });
      expect((await get('/wikis/INFO/About?langid=de')).json()).toMatchObject({
        langid: 'de',
        display_title: 'Über',
        available_langids: ['de', 'en'],
      });
      expect((await get('/wikis/INFO/About?langid=fr')).json()).toMatchObject({
        langid: 'en',
        contents_raw: 'v3 by another',
      });
      expect((await get('/wikis/INFO?langid=de')).json()[0]).toMatchObject({
        langid: 'de',
        display_title: 'Über',
        summary: 'd1',
      });
      const deRevision = de.json().revisionid;
      expect(
        (await patch(`/wikis/INFO/About?revisionid=${revisionid}&langid=de`, author.token, { contents: 'y' }))
          .statusCode,
      ).toBe(409);
      expect(
        (
          await patch(`/wikis/INFO/About?revisionid=${deRevision}&langid=de`, author.token, { contents: 'Über uns!' })
        ).json().contents_raw,
      ).toBe('Über uns!');
    });
  });

  describe('DELETE /wikis/{namespace}/{title} and POST …/revert', () => {
    let revisionid: number;
    let firstRevision: number;
    const del = (url: string, token: string) => t.as(token, { method: 'DELETE', url: `${api}${url}` });
    const revert = (url: string, token: string) => t.as(token, { method: 'POST', url: `${api}${url}` });

    beforeAll(async () => {
      firstRevision = (await createWiki(t, author.user, { namespace: 'WIKI', title: 'Old', contents: 'first' }))
        .revisionid;
      revisionid = (
        await patch(`/wikis/WIKI/Old?revisionid=${firstRevision}`, author.token, { contents: 'second' })
      ).json().revisionid;
      await createCategory(t, admin.user, 'Parent');
      await createCategory(t, admin.user, 'Child', 'Parent');
    });

    it('403 for an Author, 422 without revisionid, 404 unknown, 422 for a category with children, 409 stale', async () => {
      const forbidden = await del(`/wikis/WIKI/Old?revisionid=${revisionid}`, author.token);
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json().requiredPrivileges).toEqual(['Admin', 'Moderator']);
      expect((await del('/wikis/WIKI/Old', moderator.token)).statusCode).toBe(422);
      expect((await del(`/wikis/WIKI/Nope?revisionid=1`, moderator.token)).statusCode).toBe(404);
      const parent = (await get('/wikis/CATEGORY/Parent')).json();
      const withChildren = await del(`/wikis/CATEGORY/Parent?revisionid=${parent.revisionid}`, moderator.token);
      expect(withChildren.statusCode).toBe(422);
      const stale = await del(`/wikis/WIKI/Old?revisionid=${firstRevision}`, moderator.token);
      expect(stale.statusCode).toBe(409);
      expect(stale.json().contents_raw).toBe('second');
    });

    it('soft-deletes (204): reads and lists answer as if it did not exist; revert restores it', async () => {
      const res = await del(`/wikis/WIKI/Old?revisionid=${revisionid}`, moderator.token);
      expect(res.statusCode).toBe(204);
      expect((await get('/wikis/WIKI/Old')).statusCode).toBe(404);
      expect((await get('/wikis/WIKI/Old/tags')).statusCode).toBe(404);
      expect((await get('/wikis/WIKI?display=titles')).json()).not.toContain('Old');
      expect(
        (await patch(`/wikis/WIKI/Old?revisionid=${revisionid}`, author.token, { contents: 'x' })).statusCode,
      ).toBe(404);
      const head = (await t.app.get(DataSource).query('SELECT MAX(revisionid) AS id FROM wiki_revisions'))[0]
        .id as number;

      expect((await revert(`/wikis/WIKI/Old/revert?revisionid=${head}`, author.token)).statusCode).toBe(422);
      expect(
        (await revert(`/wikis/WIKI/Old/revert?revisionid=${head}&to_revisionid=${head}`, author.token)).statusCode,
      ).toBe(422);
      expect((await revert(`/wikis/WIKI/Old/revert?revisionid=${head}&to_revisionid=1`, author.token)).statusCode).toBe(
        422,
      );
      expect(
        (await revert(`/wikis/WIKI/Old/revert?revisionid=${head}&to_revisionid=${firstRevision}`, user.token))
          .statusCode,
      ).toBe(403);
      expect(
        (await revert(`/wikis/WIKI/Old/revert?revisionid=${revisionid}&to_revisionid=${firstRevision}`, author.token))
          .statusCode,
      ).toBe(409);
      const restored = await revert(
        `/wikis/WIKI/Old/revert?revisionid=${head}&to_revisionid=${firstRevision}`,
        author.token,
      );
      expect(restored.statusCode).toBe(200);
      expect(restored.json()).toMatchObject({ title: 'Old', contents_raw: 'first' });
      expect(restored.json().revisionid).toBeGreaterThan(head);
      expect((await get('/wikis/WIKI/Old')).json().contents_raw).toBe('first');
    });

    it('deleting a translation leaves the source language', async () => {
      const en = (await get('/wikis/WIKI/Old')).json();
      const de = (
        await patch(`/wikis/WIKI/Old?revisionid=${en.revisionid}&langid=de`, author.token, { contents: 'erste' })
      ).json();
      expect((await del(`/wikis/WIKI/Old?revisionid=${de.revisionid}&langid=de`, moderator.token)).statusCode).toBe(
        204,
      );
      expect((await get('/wikis/WIKI/Old?langid=de')).json()).toMatchObject({
        langid: 'en',
        contents_raw: 'first',
        available_langids: ['en'],
      });
      expect((await del(`/wikis/WIKI/Old?revisionid=${de.revisionid}&langid=fr`, moderator.token)).statusCode).toBe(
        404,
      );
    });
  });
});
