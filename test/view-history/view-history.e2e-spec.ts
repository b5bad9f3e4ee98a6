import { ViewHistoryEntity } from '../../src/modules/view-history/entities/view-history.entity';
import { GuideViewed } from '../../src/modules/guides/guide.events';
import { EventBus } from '../../src/platform/events/event-bus';
import { createGuide } from '../factories/guide.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { publishEvents } from '../utils/events';
import { createUser } from '../factories/user.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';

const API = '/api/2.0/user_view_history';

describe('view history', () => {
  let t: TestApp;
  let reader: Awaited<ReturnType<typeof createUser>>;
  let other: Awaited<ReturnType<typeof createUser>>;
  let moderator: Awaited<ReturnType<typeof createUser>>;
  let admin: Awaited<ReturnType<typeof createUser>>;

  beforeAll(async () => {
    t = await createTestApp();
    reader = await createUser(t, { username: 'Reader' });
    other = await createUser(t, { username: 'Other' });
    moderator = await createUser(t, { privilege: 'Moderator' });
    admin = await createUser(t, { privilege: 'Admin' });
    const rows = t.dataSource.getRepository(ViewHistoryEntity);
    await rows.insert([
      { userid: reader.user.userid, docType: 'GUIDE', docid: 10, date: 1000 },
      { userid: reader.user.userid, docType: 'WIKI', docid: 3, date: 2000 },
      { userid: other.user.userid, docType: 'GUIDE', docid: 10, date: 3000 },
      { userid: reader.user.userid, docType: 'GUIDE', docid: 10, date: 4000 },
    ]);
  });
  afterAll(() => t.close());

  const entry = (who: typeof reader, doc_type: string, docid: string, date: number) => ({
    userid: who.user.userid,
    username: who.user.username,
    doc_type,
    docid,
    date,
  });

  describe('recording views (outbox events from guide and wiki reads)', () => {
    it('an authenticated read publishes a view; written when events are delivered; a repeat within a minute counts once', async () => {
      const author = await createUser(t, { privilege: 'Admin' });
      await createCategory(t, author.user, 'Viewed Things');
      const guide = await createGuide(t, author.user, { category: 'Viewed Things', public: true });
      const wiki = await createWiki(t, author.user, { title: 'Viewed Page' });
      const mine = () =>
        t.dataSource
          .getRepository(ViewHistoryEntity)
          .find({ where: { userid: other.user.userid }, order: { historyid: 'ASC' } });
      const before = (await mine()).length;
      const read = (url: string, token?: string) => t.as(token, { method: 'GET', url: `/api/2.0${url}` });
      expect((await read(`/guides/${guide.guideid}`, other.token)).statusCode).toBe(200);
      expect((await read(`/guides/${guide.guideid}`, other.token)).statusCode).toBe(200);
      expect((await read(`/wikis/WIKI/Viewed_Page`, other.token)).statusCode).toBe(200);
      expect((await read(`/guides/${guide.guideid}`)).statusCode).toBe(200); // anonymous: not recorded
      await t.app.get(EventBus).drain();
      const rows = (await mine()).slice(before);
      expect(rows.map((r) => [r.docType, r.docid])).toEqual([
        ['GUIDE', guide.guideid],
        ['WIKI', wiki.wikiid],
      ]);
      expect(Math.abs(rows[0].date - Date.now() / 1000)).toBeLessThan(5);
    });

    it('a view of a user deleted meanwhile is dropped; the others of the batch still land', async () => {
      const ghost = await createUser(t);
      await publishEvents(
        t,
        GuideViewed({ userid: ghost.user.userid, guideid: 77, date: 5000 }),
        GuideViewed({ userid: other.user.userid, guideid: 78, date: 5000 }),
      );
      await t.dataSource.query('DELETE FROM user_view_history WHERE docid = 77');
      await t.dataSource.query('DELETE FROM auth_tokens WHERE userid = ?', [ghost.user.userid]);
      await t.dataSource.query('DELETE FROM users WHERE userid = ?', [ghost.user.userid]);
      await publishEvents(
        t,
        GuideViewed({ userid: ghost.user.userid, guideid: 79, date: 5001 }),
        GuideViewed({ userid: other.user.userid, guideid: 80, date: 5001 }),
      );
      const rows = await t.dataSource.getRepository(ViewHistoryEntity).find({ where: { date: 5001 } });
      expect(rows.map((r) => [r.userid, r.docid])).toEqual([[other.user.userid, 80]]);
    });
  });

  describe('GET /user_view_history/user/{userid}', () => {
    it('401 anonymous, 403 for another user, 422 bad id or dates, 404 unknown user (Admin)', async () => {
      expect((await t.inject({ method: 'GET', url: `${API}/user/${reader.user.userid}` })).statusCode).toBe(401);
      const forbidden = await t.as(other.token, { method: 'GET', url: `${API}/user/${reader.user.userid}` });
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json().requiredPrivileges).toEqual(['Admin']);
      expect(
        (await t.as(moderator.token, { method: 'GET', url: `${API}/user/${reader.user.userid}` })).statusCode,
      ).toBe(403);
      expect((await t.as(admin.token, { method: 'GET', url: `${API}/user/abc` })).statusCode).toBe(422);
      expect(
        (await t.as(reader.token, { method: 'GET', url: `${API}/user/${reader.user.userid}?start_date=x` })).statusCode,
      ).toBe(422);
      expect((await t.as(admin.token, { method: 'GET', url: `${API}/user/999999` })).statusCode).toBe(404);
    });

    it('answers the user (and Admins) their views, newest first, with inclusive date bounds', async () => {
      const own = await t.as(reader.token, { method: 'GET', url: `${API}/user/${reader.user.userid}` });
      expect(own.statusCode).toBe(200);
      expect(own.json()).toEqual([
        entry(reader, 'GUIDE', '10', 4000),
        entry(reader, 'WIKI', '3', 2000),
        entry(reader, 'GUIDE', '10', 1000),
      ]);
      expect(sqlCount(own)).toBeLessThanOrEqual(4); // 2 for the token, 1 user check, 1 page
      const ranged = await t.as(admin.token, {
        method: 'GET',
        url: `${API}/user/${reader.user.userid}?start_date=1000&end_date=2000`,
      });
      expect(ranged.json()).toEqual([entry(reader, 'WIKI', '3', 2000), entry(reader, 'GUIDE', '10', 1000)]);
      const paged = await t.as(reader.token, {
        method: 'GET',
        url: `${API}/user/${reader.user.userid}?offset=1&limit=1`,
      });
      expect(paged.json()).toEqual([entry(reader, 'WIKI', '3', 2000)]);
    });
  });

  describe('GET /user_view_history/{doc_type}/{docid}', () => {
    it('401 anonymous, 403 below Moderator, 422 unknown doc_type or bad docid', async () => {
      expect((await t.inject({ method: 'GET', url: `${API}/guide/10` })).statusCode).toBe(401);
      const forbidden = await t.as(reader.token, { method: 'GET', url: `${API}/guide/10` });
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json().requiredPrivileges).toEqual(['Admin', 'Moderator']);
      const badType = await t.as(moderator.token, { method: 'GET', url: `${API}/comment/10` });
      expect(badType.statusCode).toBe(422);
      expect(badType.json().errors).toEqual([{ message: 'doc_type must be guide or wiki', field: 'doc_type' }]);
      expect((await t.as(moderator.token, { method: 'GET', url: `${API}/guide/-1` })).statusCode).toBe(422);
    });

    it("answers a document's views for Moderators, doc_type case-insensitive, with date bounds", async () => {
      const res = await t.as(moderator.token, { method: 'GET', url: `${API}/GuIdE/10?end_date=3000` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([entry(other, 'GUIDE', '10', 3000), entry(reader, 'GUIDE', '10', 1000)]);
      const wiki = await t.as(admin.token, { method: 'GET', url: `${API}/wiki/3?start_date=2000` });
      expect(wiki.json()).toEqual([entry(reader, 'WIKI', '3', 2000)]);
      expect((await t.as(admin.token, { method: 'GET', url: `${API}/wiki/777` })).json()).toEqual([]);
    });
  });
});
