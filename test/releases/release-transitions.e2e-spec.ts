import { FakeClock } from '../../src/platform/clock/clock';
import { ReleasesService } from '../../src/modules/releases/releases.service';
import { addStep, createGuide } from '../factories/guide.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { API, auditRows, eventRows, useTestGateway, type TestApprovalGateway } from './release-test-kit';

interface ReleaseBody {
  releaseid: number;
  revisionid: number;
  version: string;
  status: string;
  approval_requestid: number | null;
}

/** PATCH and DELETE (R4, R5, R8) and every move of docs/enterprise/releases.md, end to end. */
describe('Release transitions', () => {
  let t: TestApp;
  let gateway: TestApprovalGateway;
  let service: ReleasesService;
  const clock = new FakeClock(Date.UTC(2026, 10, 2, 9));
  let admin: CreatedUser;
  let moderator: CreatedUser;
  let author: CreatedUser;
  let coAuthor: CreatedUser;
  let reader: CreatedUser;

  const call = (
    token: string | undefined,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) => t.as(token, { method, url: `${API}${url}`, ...(payload ? { payload } : {}) });
  const newGuide = async (gated = false) => {
    const guide = await createGuide(t, author.user, { category: 'Toaster', public: true });
    await addStep(t, author.user, guide.guideid);
    // A co-author granted on the guide is an editor too.
    await call(author.token, 'PUT', `/guides/${guide.guideid}/users/${coAuthor.user.userid}`);
    if (gated) gateway.gate('GUIDE', guide.guideid);
    return guide.guideid;
  };
  const create = async (token: string, guideid: number, type: 'major' | 'minor' = 'major') => {
    const res = await call(token, 'POST', '/guides/releases', { guideid, type });
    expect(res.statusCode).toBe(201);
    return res.json<ReleaseBody>();
  };
  const get = async (token: string, releaseid: number) => {
    const list = (await call(token, 'GET', '/guides/releases?limit=200')).json().releases as { releaseid: number }[];
    return list.find((r) => r.releaseid === releaseid);
  };

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
    gateway = useTestGateway(t);
    service = t.app.get(ReleasesService);
    admin = await createUser(t, { privilege: 'Admin' });
    moderator = await createUser(t, { privilege: 'Moderator' });
    author = await createUser(t, { privilege: 'Author' });
    coAuthor = await createUser(t, { privilege: 'Author' });
    reader = await createUser(t);
    await createCategory(t, author.user, 'Toaster');
  });
  afterAll(() => t.close());

  describe('PATCH /guides/releases/{releaseid} (R4)', () => {
    it('401, 422 without a field, 404 unknown or a wiki release, 403 neither creator nor Moderator, 409 not pending', async () => {
      const guideid = await newGuide(true);
      const pending = await create(author.token, guideid);
      expect((await call(undefined, 'PATCH', `/guides/releases/${pending.releaseid}`, { title: 'x' })).statusCode).toBe(
        401,
      );
      const empty = await call(author.token, 'PATCH', `/guides/releases/${pending.releaseid}`, {});
      expect(empty.statusCode).toBe(422);
      expect(empty.json()).toEqual({
        error: true,
        message: 'Send at least one of title and notes',
        errors: [{ message: 'Send at least one of title and notes' }],
      });
      expect(
        (await call(author.token, 'PATCH', `/guides/releases/${pending.releaseid}`, { title: '' })).statusCode,
      ).toBe(422);
      expect((await call(author.token, 'PATCH', '/guides/releases/999999', { title: 'x' })).statusCode).toBe(404);
      expect((await call(author.token, 'PATCH', '/guides/releases/abc', { title: 'x' })).statusCode).toBe(404);
      const wiki = await createWiki(t, author.user, { contents: 'Hello' });
      const wikiRelease = (
        await call(author.token, 'POST', `/wikis/${wiki.wikiid}/releases`, { type: 'major' })
      ).json();
      const wrongPath = await call(author.token, 'PATCH', `/guides/releases/${wikiRelease.releaseid}`, { title: 'x' });
      expect(wrongPath.statusCode).toBe(404);
      expect(wrongPath.json()).toEqual({ error: true, message: 'Release not found' });
      // A reader does not see a pending release at all; a co-editor sees it but did not create it.
      expect(
        (await call(reader.token, 'PATCH', `/guides/releases/${pending.releaseid}`, { title: 'x' })).statusCode,
      ).toBe(404);
      const denied = await call(coAuthor.token, 'PATCH', `/guides/releases/${pending.releaseid}`, { title: 'x' });
      expect(denied.statusCode).toBe(403);
      const released = await create(author.token, await newGuide());
      const conflict = await call(author.token, 'PATCH', `/guides/releases/${released.releaseid}`, { title: 'x' });
      expect(conflict.statusCode).toBe(409);
      expect(conflict.json()).toEqual(released);
    });

    it('200: the creator or a Moderator edits a pending release, audited with before and after', async () => {
      const pending = await create(author.token, await newGuide(true));
      const res = await call(author.token, 'PATCH', `/guides/releases/${pending.releaseid}`, {
        title: 'Spring',
        notes: 'n',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ...pending, title: 'Spring', notes: 'n' });
      const byModerator = await call(moderator.token, 'PATCH', `/guides/releases/${pending.releaseid}`, { notes: 'm' });
      expect(byModerator.json()).toEqual({ ...pending, title: 'Spring', notes: 'm' });
      const audits = await auditRows(t, pending.releaseid);
      expect(audits.map((a) => a.action)).toEqual(['release.create', 'release.update', 'release.update']);
      expect(audits[1].before).toEqual(pending);
      expect(audits[1].after).toEqual(res.json());
      expect((await eventRows(t, pending.releaseid)).map((e) => e.name)).toEqual([
        'release.created',
        'release.updated',
        'release.updated',
      ]);
    });
  });

  describe('DELETE /guides/releases/{releaseid} (R5)', () => {
    it('401, 404 unknown or a wiki release, 403 who (docs/enterprise/releases.md)', async () => {
      const released = await create(author.token, await newGuide());
      expect((await call(undefined, 'DELETE', `/guides/releases/${released.releaseid}`)).statusCode).toBe(401);
      expect((await call(admin.token, 'DELETE', '/guides/releases/999999')).statusCode).toBe(404);
      expect((await call(admin.token, 'DELETE', '/guides/releases/0')).statusCode).toBe(404);
      const wiki = await createWiki(t, author.user, { contents: 'Hi' });
      const wikiRelease = (
        await call(author.token, 'POST', `/wikis/${wiki.wikiid}/releases`, { type: 'minor' })
      ).json();
      expect((await call(admin.token, 'DELETE', `/guides/releases/${wikiRelease.releaseid}`)).statusCode).toBe(404);
      const forbidden = await call(moderator.token, 'DELETE', `/guides/releases/${released.releaseid}`);
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json()).toEqual({ error: true, message: 'Only an Admin may remove a released release' });
      const pending = await create(author.token, await newGuide(true));
      const notCreator = await call(coAuthor.token, 'DELETE', `/guides/releases/${pending.releaseid}`);
      expect(notCreator.statusCode).toBe(403);
      expect(notCreator.json().message).toBe('Only the creator of a pending release or a Moderator may cancel it');
    });

    it('pending → cancelled by its creator: its approval request is cancelled; the release stays readable', async () => {
      const pending = await create(author.token, await newGuide(true));
      const res = await call(author.token, 'DELETE', `/guides/releases/${pending.releaseid}`);
      expect(res.statusCode).toBe(204);
      expect(gateway.cancelled).toContain(pending.approval_requestid);
      expect(await get(author.token, pending.releaseid)).toEqual({ ...pending, status: 'cancelled' });
      expect((await auditRows(t, pending.releaseid)).map((a) => a.action)).toEqual([
        'release.create',
        'release.cancel',
      ]);
      const events = await eventRows(t, pending.releaseid);
      expect(events.map((e) => e.name)).toEqual(['release.created', 'release.cancelled']);
      expect(events[1].payload).toEqual({ ...pending, status: 'cancelled' });
      // Terminal: any further move is 409 with the release.
      const again = await call(moderator.token, 'DELETE', `/guides/releases/${pending.releaseid}`);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ ...pending, status: 'cancelled' });
    });

    it('released → removed by an Admin: the previous release goes live, else the working copy; numbers are not reused', async () => {
      const guideid = await newGuide();
      const first = await create(author.token, guideid);
      await addStep(t, author.user, guideid);
      const second = await create(author.token, guideid, 'minor');
      expect(second.version).toBe('1.1');
      const live = async () =>
        (await call(reader.token, 'GET', `/guides/${guideid}`)).json<{ revisionid: number }>().revisionid;
      expect(await live()).toBe(second.revisionid);
      expect((await call(admin.token, 'DELETE', `/guides/releases/${second.releaseid}`)).statusCode).toBe(204);
      expect(await live()).toBe(first.revisionid);
      // Readers no longer list a removed release; editors still read it.
      expect(await get(reader.token, second.releaseid)).toBeUndefined();
      expect(await get(author.token, second.releaseid)).toEqual({ ...second, status: 'removed' });
      const third = await create(author.token, guideid, 'minor');
      expect(third.version).toBe('1.2');
      expect((await call(admin.token, 'DELETE', `/guides/releases/${first.releaseid}`)).statusCode).toBe(204);
      expect((await call(admin.token, 'DELETE', `/guides/releases/${third.releaseid}`)).statusCode).toBe(204);
      const working = (await call(author.token, 'GET', `/guides/${guideid}`)).json().revisionid;
      expect(await live()).toBe(working);
      expect((await auditRows(t, third.releaseid)).map((a) => a.action)).toEqual(['release.create', 'release.remove']);
      expect((await eventRows(t, third.releaseid)).map((e) => e.name)).toEqual([
        'release.created',
        'release.released',
        'release.removed',
      ]);
      const removedAgain = await call(admin.token, 'DELETE', `/guides/releases/${third.releaseid}`);
      expect(removedAgain.statusCode).toBe(409);
      expect(removedAgain.json().status).toBe('removed');
    });
  });

  describe('moves the approvals module makes (markReleased, markRejected)', () => {
    it('pending → released: release_date set, version taken, live revision moves, event published', async () => {
      const guideid = await newGuide(true);
      const pending = await create(author.token, guideid);
      const before = (await call(reader.token, 'GET', `/guides/${guideid}`)).json<{ revisionid: number }>().revisionid;
      expect(before).toBe(pending.revisionid); // no release is live yet: the working copy
      await addStep(t, author.user, guideid);
      clock.advance(60_000);
      const released = await service.markReleased(pending.releaseid);
      expect(released).toEqual({ ...pending, status: 'released', release_date: clock.nowSeconds() });
      expect((await call(reader.token, 'GET', `/guides/${guideid}`)).json().revisionid).toBe(pending.revisionid);
      expect((await call(author.token, 'GET', `/guides/${guideid}`)).json().revisionid).not.toBe(pending.revisionid);
      expect((await eventRows(t, pending.releaseid)).map((e) => e.name)).toEqual([
        'release.created',
        'release.released',
      ]);
      expect((await auditRows(t, pending.releaseid)).map((a) => a.action)).toEqual([
        'release.create',
        'release.release',
      ]);
      await expect(service.markReleased(pending.releaseid)).rejects.toMatchObject({ status: 409 });
      await expect(service.markRejected(pending.releaseid)).rejects.toMatchObject({ status: 409 });
    });

    it('pending → rejected: no number consumed; the next release takes it', async () => {
      const guideid = await newGuide(true);
      const pending = await create(author.token, guideid);
      const rejected = await service.markRejected(pending.releaseid);
      expect(rejected).toEqual({ ...pending, status: 'rejected' });
      expect((await eventRows(t, pending.releaseid)).map((e) => e.name)).toEqual([
        'release.created',
        'release.rejected',
      ]);
      const deleteRejected = await call(admin.token, 'DELETE', `/guides/releases/${pending.releaseid}`);
      expect(deleteRejected.statusCode).toBe(409);
      const next = await create(author.token, guideid);
      expect([next.version, next.status]).toEqual(['1.0', 'pending']);
    });
  });
});
