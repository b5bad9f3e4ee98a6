import { ViewHistoryEntity } from '../../src/modules/view-history/entities/view-history.entity';
import { ViewHistoryService } from '../../src/modules/view-history/view-history.service';
import { createUser } from '../factories/user.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';

const API = '/api/2.0/user_view_history';

describe('view history', () => {
  let t: TestApp;
  let history: ViewHistoryService;
  let reader: Awaited<ReturnType<typeof createUser>>;
  let other: Awaited<ReturnType<typeof createUser>>;
  let moderator: Awaited<ReturnType<typeof createUser>>;
  let admin: Awaited<ReturnType<typeof createUser>>;

  beforeAll(async () => {
    t = await createTestApp();
    history = t.app.get(ViewHistoryService);
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

  describe('record', () => {
    it('queues without waiting or throwing, writes in one batch, and counts a repeated read once', async () => {
      const before = await t.dataSource.getRepository(ViewHistoryEntity).count();
      expect(history.record(other.user.userid, 'GUIDE', 55)).toBeUndefined();
      history.record(other.user.userid, 'GUIDE', 55);
      history.record(other.user.userid, 'WIKI', 55);
      history.record(999999, 'GUIDE', 1); // unknown user: dropped at write time, the others still land
      history.record(other.user.userid, 'BOGUS' as 'GUIDE', 1);
      expect(await t.dataSource.getRepository(ViewHistoryEntity).count()).toBe(before);
      await history.flush();
      const rows = await t.dataSource.getRepository(ViewHistoryEntity).find({ where: { userid: other.user.userid } });
      expect(rows.map((r) => [r.docType, r.docid])).toEqual([
        ['GUIDE', 10],
        ['GUIDE', 55],
        ['WIKI', 55],
      ]);
      expect(Math.abs(rows[1].date - Date.now() / 1000)).toBeLessThan(5);
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
