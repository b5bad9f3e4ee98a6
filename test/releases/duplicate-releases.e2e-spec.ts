import { DataSource } from 'typeorm';
import { FakeClock } from '../../src/platform/clock/clock';
import { ReleaseEntity } from '../../src/modules/releases/entities/release.entity';
import { addStep, createGuide } from '../factories/guide.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { API, auditRows, useTestGateway, type TestApprovalGateway } from './release-test-kit';

/** R6 (duplicateReleases) and `prerequisite_releases` on guides. */
describe('duplicateReleases and prerequisite releases', () => {
  let t: TestApp;
  let gateway: TestApprovalGateway;
  const clock = new FakeClock(Date.UTC(2026, 10, 4, 10));
  let author: CreatedUser;
  let otherAuthor: CreatedUser;
  let reader: CreatedUser;

  const call = (token: string | undefined, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.as(token, { method, url: `${API}${url}`, ...(payload ? { payload } : {}) });
  const newGuide = async (owner: CreatedUser = author, fields: { public?: boolean } = {}) => {
    const guide = await createGuide(t, owner.user, { category: 'Blender', public: true, ...fields });
    await addStep(t, owner.user, guide.guideid);
    return guide.guideid;
  };
  const releaseCount = () => t.app.get(DataSource).manager.count(ReleaseEntity);
  const duplicate = (token: string | undefined, payload: object) =>
    call(token, 'POST', '/guides/duplicateReleases', payload);

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
    gateway = useTestGateway(t);
    author = await createUser(t, { privilege: 'Author' });
    otherAuthor = await createUser(t, { privilege: 'Author' });
    reader = await createUser(t);
    await createCategory(t, author.user, 'Blender');
  });
  afterAll(() => t.close());

  describe('POST /guides/duplicateReleases (R6)', () => {
    let source: { releaseid: number };
    beforeAll(async () => {
      source = (
        await call(author.token, 'POST', '/guides/releases', {
          guideid: await newGuide(),
          type: 'minor',
          title: 'Autumn set',
          notes: 'Reviewed together.',
        })
      ).json();
    });

    it('401; 422 for a wrong shape or a repeated guideid', async () => {
      expect((await duplicate(undefined, { releaseid: source.releaseid, guideids: [1] })).statusCode).toBe(401);
      const a = await newGuide();
      const cases: [object, string, number?][] = [
        [{ guideids: [a] }, 'releaseid'],
        [{ releaseid: source.releaseid }, 'guideids'],
        [{ releaseid: source.releaseid, guideids: [] }, 'guideids'],
        [{ releaseid: source.releaseid, guideids: Array.from({ length: 101 }, (_, i) => i + 1) }, 'guideids'],
        [{ releaseid: source.releaseid, guideids: ['x'] }, 'guideids'],
        [{ releaseid: source.releaseid, guideids: [a, a] }, 'guideids', 1],
      ];
      for (const [payload, field, index] of cases) {
        const res = await duplicate(author.token, payload);
        expect({ payload, status: res.statusCode }).toEqual({ payload, status: 422 });
        expect(res.json().errors).toContainEqual(
          expect.objectContaining({ field, ...(index !== undefined ? { index } : {}) }),
        );
      }
    });

    it('404 for an unknown source or an unknown or unreadable guide; 403 when the caller edits not every guide', async () => {
      const a = await newGuide();
      expect((await duplicate(author.token, { releaseid: 999999, guideids: [a] })).json()).toEqual({
        error: true,
        message: 'Release not found',
      });
      const missing = await duplicate(author.token, { releaseid: source.releaseid, guideids: [a, 999999] });
      expect(missing.statusCode).toBe(404);
      const hidden = await newGuide(otherAuthor, { public: false });
      expect((await duplicate(author.token, { releaseid: source.releaseid, guideids: [a, hidden] })).statusCode).toBe(
        404,
      );
      const foreign = await newGuide(otherAuthor);
      const before = await releaseCount();
      const denied = await duplicate(author.token, { releaseid: source.releaseid, guideids: [a, foreign] });
      expect(denied.statusCode).toBe(403);
      expect(await releaseCount()).toBe(before);
    });

    it('409 with conflicts when a guide has a pending release; nothing is created (one transaction)', async () => {
      const [a, b, c] = [await newGuide(), await newGuide(), await newGuide()];
      gateway.gate('GUIDE', b);
      const pending = (await call(author.token, 'POST', '/guides/releases', { guideid: b, type: 'major' })).json();
      const before = await releaseCount();
      const res = await duplicate(author.token, { releaseid: source.releaseid, guideids: [a, b, c] });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        error: true,
        message: 'A guide has a pending release',
        conflicts: [{ guideid: b, releaseid: pending.releaseid }],
      });
      expect(await releaseCount()).toBe(before);
    });

    it('201: each guide’s current revision released with the source’s type, title and notes, in request order', async () => {
      const [a, b, c] = [await newGuide(), await newGuide(), await newGuide()];
      gateway.gate('GUIDE', c);
      const res = await duplicate(author.token, { releaseid: source.releaseid, guideids: [c, a, b] });
      expect(res.statusCode).toBe(201);
      const releases = res.json().releases as Record<string, unknown>[];
      expect(releases.map((r) => [r.guideid, r.type, r.title, r.notes, r.status, r.version])).toEqual([
        [c, 'minor', 'Autumn set', 'Reviewed together.', 'pending', '0.1'],
        [a, 'minor', 'Autumn set', 'Reviewed together.', 'released', '0.1'],
        [b, 'minor', 'Autumn set', 'Reviewed together.', 'released', '0.1'],
      ]);
      for (const r of releases) {
        const detail = (await call(author.token, 'GET', `/guides/${r.guideid as number}`)).json();
        expect(r.revisionid).toBe(detail.revisionid);
        expect((await auditRows(t, r.releaseid as number)).map((x) => x.action)).toEqual(['release.create']);
      }
      expect(releases[0].approval_requestid).toBe(gateway.opened.at(-1)!.requestid);
    });
  });

  describe('prerequisite_releases (POST /guides)', () => {
    it('pins a prerequisite to a release: shown at that revision even after edits; null follows the newest release', async () => {
      const prereq = await newGuide();
      const v1 = (await call(author.token, 'POST', '/guides/releases', { guideid: prereq, type: 'major' })).json();
      await addStep(t, author.user, prereq);
      const working = (await call(author.token, 'GET', `/guides/${prereq}`)).json().revisionid;
      const create = (pins: object[]) =>
        call(author.token, 'POST', '/guides', {
          category: 'Blender',
          type: 'repair',
          public: true,
          prerequisites: [prereq],
          prerequisite_releases: pins,
        });
      const pinned = await create([{ guideid: prereq, releaseid: v1.releaseid }]);
      expect(pinned.statusCode).toBe(201);
      expect(pinned.json().prerequisite_releases).toEqual([{ guideid: prereq, releaseid: v1.releaseid }]);
      const prereqShown = async (guideid: number, token = reader.token) =>
        (await call(token, 'GET', `/guides/${guideid}`)).json<{ prerequisites: { revisionid: number }[] }>()
          .prerequisites[0].revisionid;
      expect(await prereqShown(pinned.json().guideid)).toBe(v1.revisionid);
      expect(await prereqShown(pinned.json().guideid, author.token)).toBe(v1.revisionid);
      const following = await create([{ guideid: prereq, releaseid: null }]);
      expect(following.json().prerequisite_releases).toEqual([{ guideid: prereq, releaseid: null }]);
      expect(await prereqShown(following.json().guideid, author.token)).toBe(v1.revisionid);
      const v2 = (await call(author.token, 'POST', '/guides/releases', { guideid: prereq, type: 'minor' })).json();
      expect(v2.revisionid).toBe(working);
      expect(await prereqShown(following.json().guideid, author.token)).toBe(working);
      expect(await prereqShown(pinned.json().guideid, author.token)).toBe(v1.revisionid);
    });

    it('422 for a pin outside prerequisites, a repeated pin, or a release of another guide or not released', async () => {
      const prereq = await newGuide();
      const other = await newGuide();
      const foreign = (await call(author.token, 'POST', '/guides/releases', { guideid: other, type: 'major' })).json();
      gateway.gate('GUIDE', prereq);
      const pending = (await call(author.token, 'POST', '/guides/releases', { guideid: prereq, type: 'major' })).json();
      const cases: object[][] = [
        [{ guideid: other, releaseid: null }],
        [
          { guideid: prereq, releaseid: null },
          { guideid: prereq, releaseid: null },
        ],
        [{ guideid: prereq, releaseid: foreign.releaseid }],
        [{ guideid: prereq, releaseid: pending.releaseid }],
        [{ guideid: prereq, releaseid: 999999 }],
      ];
      for (const pins of cases) {
        const res = await call(author.token, 'POST', '/guides', {
          category: 'Blender',
          type: 'repair',
          prerequisites: [prereq],
          prerequisite_releases: pins,
        });
        expect({ pins, status: res.statusCode }).toEqual({ pins, status: 422 });
        expect(res.json().errors).toContainEqual(
          expect.objectContaining({ field: 'prerequisite_releases', index: pins.length - 1 }),
        );
      }
    });
  });
});
