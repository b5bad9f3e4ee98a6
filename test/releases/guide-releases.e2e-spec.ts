import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { canonicalJson } from '../../src/common/security/canonical-json';
import { FakeClock } from '../../src/platform/clock/clock';
import { DocumentRegistry } from '../../src/platform/documents/document-registry';
import {
  ReviewDirectory,
  type ConfirmingRelease,
  type ReviewHooks,
} from '../../src/platform/documents/review-directory';
import type { SignerProof } from '../../src/platform/signatures/signature.service';
import { addStep, createGuide } from '../factories/guide.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createTeam } from '../factories/work-log.factory';
import { createCategory } from '../factories/wiki.factory';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';
import { API, auditRows, eventRows, typeOf, useTestGateway, type TestApprovalGateway } from './release-test-kit';

const DOZUKI = JSON.parse(
  readFileSync(join(__dirname, '../fixtures/releases/GET_guides_releases.item.json'), 'utf8'),
) as Record<string, unknown>;

describe('Guide releases (R1-R6)', () => {
  let t: TestApp;
  let gateway: TestApprovalGateway;
  const clock = new FakeClock(Date.UTC(2026, 10, 1, 12));
  let admin: CreatedUser;
  let moderator: CreatedUser;
  let author: CreatedUser;
  let otherAuthor: CreatedUser;
  let reader: CreatedUser;
  let guideid: number;

  const call = (
    token: string | undefined,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) => t.as(token, { method, url: `${API}${url}`, ...(payload ? { payload } : {}) });
  const release = (token: string, payload: object) => call(token, 'POST', '/guides/releases', payload);
  const newGuide = async (fields: { public?: boolean } = {}) => {
    const guide = await createGuide(t, author.user, { category: 'Kettle', public: true, ...fields });
    await addStep(t, author.user, guide.guideid);
    return guide.guideid;
  };

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
    gateway = useTestGateway(t);
    admin = await createUser(t, { privilege: 'Admin', password: 'admin password 1' });
    moderator = await createUser(t, { privilege: 'Moderator' });
    author = await createUser(t, { privilege: 'Author', password: 'author password 1' });
    otherAuthor = await createUser(t, { privilege: 'Author' });
    reader = await createUser(t);
    await createCategory(t, author.user, 'Kettle');
    guideid = await newGuide();
  });
  afterAll(() => t.close());

  describe('GET /guides/releases (R1)', () => {
    it('401 without a token; 422 for bad filters', async () => {
      expect((await call(undefined, 'GET', '/guides/releases')).statusCode).toBe(401);
      for (const query of ['status=live', 'type=patch', 'limit=0', 'offset=-1', 'guideid=abc', 'order=UP']) {
        const res = await call(reader.token, 'GET', `/guides/releases?${query}`);
        expect({ query, status: res.statusCode }).toEqual({ query, status: 422 });
        expect(res.json()).toMatchObject({ error: true, errors: expect.any(Array) });
      }
    });

    it('wins over /guides/{guideid}: an empty envelope, not "Guide not found"', async () => {
      const res = await call(reader.token, 'GET', '/guides/releases');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ releases: [] });
    });
  });

  describe('POST /guides/releases (R3)', () => {
    it('401, then 422 for a wrong shape (before any lookup)', async () => {
      expect((await call(undefined, 'POST', '/guides/releases', { guideid, type: 'major' })).statusCode).toBe(401);
      const cases: [object, string][] = [
        [{ type: 'major' }, 'guideid'],
        [{ guideid }, 'type'],
        [{ guideid, type: 'patch' }, 'type'],
        [{ guideid, type: 'major', title: '' }, 'title'],
        [{ guideid, type: 'major', title: 'x'.repeat(256) }, 'title'],
        [{ guideid, type: 'major', notes: 'x'.repeat(65536) }, 'notes'],
        [{ guideid, type: 'major', notes: 'é'.repeat(40000) }, 'notes'],
        [{ guideid, type: 'major', periodic_review_confirmed: true }, 'password'],
        [{ guideid, type: 'major', revisionid: 'one' }, 'revisionid'],
        [{ guideid, type: 'major', bogus: 1 }, 'bogus'],
        [{ guideid: 999999, type: 'major', title: '' }, 'title'],
      ];
      for (const [payload, field] of cases) {
        const res = await release(author.token, payload);
        expect({ payload, status: res.statusCode }).toEqual({ payload, status: 422 });
        expect(res.json().errors).toContainEqual(expect.objectContaining({ field }));
      }
    });

    it('404 for an unknown or unreadable guide; 403 for a reader who may not edit it', async () => {
      const missing = await release(author.token, { guideid: 999999, type: 'major' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ error: true, message: 'Guide not found' });
      const hidden = await newGuide({ public: false });
      expect((await release(reader.token, { guideid: hidden, type: 'major' })).statusCode).toBe(404);
      const denied = await release(reader.token, { guideid, type: 'major' });
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toEqual({ error: true, message: 'Only editors of this guide may do this' });
      expect((await release(otherAuthor.token, { guideid, type: 'major' })).statusCode).toBe(403);
    });

    it('201: released at once without a process, with Dozuki’s keys and types, audited and published', async () => {
      const res = await release(author.token, { guideid, type: 'major', notes: 'First cut.' });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      const detail = (await call(author.token, 'GET', `/guides/${guideid}`)).json();
      const now = clock.nowSeconds();
      expect(body).toEqual({
        id: body.releaseid,
        releaseid: expect.any(Number),
        guideid,
        langid: 'en',
        revisionid: detail.revisionid,
        user: expect.objectContaining({ userid: author.user.userid, username: author.user.username }),
        status: 'released',
        title: 'Release v1.0',
        init_date: now,
        release_date: now,
        notes: 'First cut.',
        type: 'major',
        doctype: 'GUIDE',
        docid: guideid,
        version: '1.0',
        approval_requestid: null,
        periodic_review_confirmed: false,
      });
      expect(Object.keys(body.user).sort()).toEqual(
        ['image', 'join_date', 'reputation', 'teams', 'unique_username', 'url', 'userid', 'username'].sort(),
      );
      // Every Dozuki key is there with Dozuki's type (release_date is an integer once released).
      for (const [key, value] of Object.entries(DOZUKI)) {
        expect({ key, type: typeOf(body[key]) }).toEqual({ key, type: typeOf(value) });
      }
      const audits = await auditRows(t, body.releaseid);
      expect(audits.map((a) => [a.action, a.actorUserid])).toEqual([['release.create', author.user.userid]]);
      expect(audits[0].after).toEqual(body);
      const events = await eventRows(t, body.releaseid);
      expect(events.map((e) => e.name)).toEqual(['release.created', 'release.released']);
      expect(events[1].payload).toEqual(body);
    });

    it('numbers versions: minor X.(Y+1), major (X+1).0, after the highest released', async () => {
      const minor = (await release(author.token, { guideid, type: 'minor', title: 'Tweaks' })).json();
      expect([minor.version, minor.title, minor.status]).toEqual(['1.1', 'Tweaks', 'released']);
      const major = (await release(moderator.token, { guideid, type: 'major' })).json();
      expect([major.version, major.title, major.user.userid]).toEqual(['2.0', 'Release v2.0', moderator.user.userid]);
    });

    it('409 with the guide detail for a revisionid that is not current; 422 for a revision of another guide', async () => {
      const before = (await call(author.token, 'GET', `/guides/${guideid}`)).json();
      const other = await newGuide();
      const otherRevision = (await call(author.token, 'GET', `/guides/${other}`)).json().revisionid;
      await addStep(t, author.user, guideid);
      const stale = await release(author.token, { guideid, type: 'minor', revisionid: before.revisionid });
      expect(stale.statusCode).toBe(409);
      const current = (await call(author.token, 'GET', `/guides/${guideid}`)).json();
      expect(stale.json()).toMatchObject({ guideid, revisionid: current.revisionid, dataType: 'guide' });
      const foreign = await release(author.token, { guideid, type: 'minor', revisionid: otherRevision });
      expect(foreign.statusCode).toBe(422);
      expect(foreign.json().errors).toEqual([{ message: expect.any(String), field: 'revisionid' }]);
      const ok = await release(author.token, { guideid, type: 'minor', revisionid: current.revisionid });
      expect(ok.statusCode).toBe(201);
      expect(ok.json().revisionid).toBe(current.revisionid);
    });

    it('periodic_review_confirmed signs: a wrong password is 403; without a review module the flag is stored false', async () => {
      const wrong = await release(author.token, {
        guideid,
        type: 'minor',
        periodic_review_confirmed: true,
        password: 'not it',
      });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toEqual({ error: true, message: 'Signature authentication failed' });
      const right = await release(author.token, {
        guideid,
        type: 'minor',
        periodic_review_confirmed: true,
        password: 'author password 1',
      });
      expect(right.statusCode).toBe(201);
      expect(right.json().periodic_review_confirmed).toBe(false);
    });

    it('while the guide’s periodic review is open, a confirmed release records the review and stores the flag true', async () => {
      const reviewed = await newGuide();
      const calls: { release: ConfirmingRelease; proof: SignerProof }[] = [];
      const hooks: ReviewHooks = {
        state: (doctype, docid) => Promise.resolve(doctype === 'GUIDE' && docid === reviewed ? 'open' : 'scheduled'),
        recordReleaseReview: (confirming, proof) => {
          calls.push({ release: confirming, proof });
          return Promise.resolve();
        },
        resolveChangeRequests: () => Promise.resolve(),
      };
      const directory = t.app.get(ReviewDirectory);
      // Stand-in for the periodic-review module (another branch); replaces its registration if present.
      (directory as unknown as { hooks: ReviewHooks | undefined }).hooks = undefined;
      directory.provide(hooks);
      try {
        const scheduledOnly = await release(author.token, {
          guideid,
          type: 'minor',
          periodic_review_confirmed: true,
          password: 'author password 1',
        });
        expect(scheduledOnly.json().periodic_review_confirmed).toBe(false);
        const res = await release(author.token, {
          guideid: reviewed,
          type: 'major',
          notes: 'Reviewed.',
          periodic_review_confirmed: true,
          password: 'author password 1',
        });
        expect(res.statusCode).toBe(201);
        const body = res.json();
        expect(body.periodic_review_confirmed).toBe(true);
        const revision = await t.app.get(DocumentRegistry).of('GUIDE').revision(reviewed, body.revisionid);
        expect(calls).toEqual([
          {
            release: {
              doctype: 'GUIDE',
              docid: reviewed,
              releaseid: body.releaseid,
              revisionid: body.revisionid,
              recordHash: createHash('sha256').update(canonicalJson(revision!.content)).digest('hex'),
              notes: 'Reviewed.',
            },
            proof: {
              userid: author.user.userid,
              printedName: author.user.username,
              method: 'password',
              earlierFailures: expect.any(Array),
            },
          },
        ]);
      } finally {
        (directory as unknown as { hooks: ReviewHooks | undefined }).hooks = undefined;
      }
    });

    it('a process resolves: pending with its approval request; a second create is 409 with the pending release', async () => {
      const gated = await newGuide();
      gateway.gate('GUIDE', gated);
      const res = await release(author.token, { guideid: gated, type: 'major' });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      const opened = gateway.opened.at(-1)!;
      expect(body).toMatchObject({
        status: 'pending',
        release_date: null,
        version: '1.0',
        approval_requestid: opened.requestid,
      });
      expect(opened.release).toEqual({
        releaseid: body.releaseid,
        doctype: 'GUIDE',
        docid: gated,
        langid: 'en',
        revisionid: body.revisionid,
        type: 'major',
        userid: author.user.userid,
      });
      expect((await eventRows(t, body.releaseid)).map((e) => e.name)).toEqual(['release.created']);
      const again = await release(moderator.token, { guideid: gated, type: 'minor' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual(body);
      // Check order (docs/enterprise/overview.md): 404 and 403 before the 409, the 409 before a 422 that needs stored
      // data.
      expect((await release(reader.token, { guideid: gated, type: 'minor' })).statusCode).toBe(403);
      const foreign = await release(author.token, { guideid: gated, type: 'minor', revisionid: 1 });
      expect(foreign.statusCode).toBe(409);
      expect(foreign.json()).toEqual(body);
    });
  });

  it('GET /guides/{guideid}: readers see the released revision, editors the working copy', async () => {
    const id = await newGuide();
    const released = (await release(author.token, { guideid: id, type: 'major' })).json();
    await addStep(t, author.user, id);
    const forReader = (await call(reader.token, 'GET', `/guides/${id}`)).json();
    const anonymous = (await t.inject({ method: 'GET', url: `${API}/guides/${id}` })).json();
    const forAuthor = (await call(author.token, 'GET', `/guides/${id}`)).json();
    const forModerator = (await call(moderator.token, 'GET', `/guides/${id}?unpatrolled`)).json();
    expect([forReader.revisionid, forReader.steps.length]).toEqual([released.revisionid, 1]);
    expect([anonymous.revisionid, anonymous.steps.length]).toEqual([released.revisionid, 1]);
    expect(forAuthor.revisionid).not.toBe(released.revisionid);
    expect(forAuthor.steps).toHaveLength(2);
    expect(forModerator.revisionid).toBe(forAuthor.revisionid);
    // A reader asking for unpatrolled content still gets the release.
    expect((await call(reader.token, 'GET', `/guides/${id}?unpatrolled`)).json().revisionid).toBe(released.revisionid);
  });

  it('guide lists: readers get the released revision’s summary, editors the working copy’s', async () => {
    const id = await newGuide();
    const released = (await release(author.token, { guideid: id, type: 'major' })).json();
    const head = (await call(author.token, 'GET', `/guides/${id}`)).json();
    const edited = await call(author.token, 'PATCH', `/guides/${id}?revisionid=${head.revisionid}`, {
      title: 'Kettle Lid Replacement, second edition',
    });
    expect(edited.statusCode).toBe(200);
    const listed = async (token: string | undefined) => {
      const res = token
        ? await call(token, 'GET', `/guides?guideids=${id}`)
        : await t.inject({ method: 'GET', url: `${API}/guides?guideids=${id}` });
      expect(res.statusCode).toBe(200);
      return { item: res.json()[0] as { revisionid: number; title: string }, statements: sqlCount(res) };
    };
    const anonymous = await listed(undefined);
    const forReader = await listed(reader.token);
    const forAuthor = await listed(author.token);
    expect(anonymous.item.revisionid).toBe(released.revisionid);
    expect(anonymous.item.title).not.toBe('Kettle Lid Replacement, second edition');
    expect(forReader.item).toEqual(anonymous.item);
    expect(forAuthor.item).toMatchObject({
      revisionid: edited.json().revisionid,
      title: 'Kettle Lid Replacement, second edition',
    });
    // A user granted the guide edits it: lists show them the working copy, as its detail does (lists read
    // no grants before, so they showed such a user the release).
    const granted = await createUser(t);
    expect((await call(author.token, 'PUT', `/guides/${id}/users/${granted.user.userid}`)).statusCode).toBe(201);
    expect((await listed(granted.token)).item).toEqual(forAuthor.item);
    expect((await call(granted.token, 'GET', `/guides/${id}`)).json().revisionid).toBe(edited.json().revisionid);
    // One statement for the page's live releases, one for the released revisions that differ.
    expect(anonymous.statements).toBeLessThanOrEqual(forAuthor.statements + 2);
    // The same rule for the user lists (favorites).
    await t.as(reader.token, { method: 'PUT', url: `${API}/user/favorites/guides/${id}`, payload: { langid: 'en' } });
    const favorites = (await call(reader.token, 'GET', '/user/favorites/guides')).json();
    expect(favorites.find((g: { guideid: number }) => g.guideid === id).revisionid).toBe(released.revisionid);
  });

  it('a release of a translation (langid): readers of that language see it; numbering is per language', async () => {
    const id = await newGuide();
    const source = (await call(author.token, 'GET', `/guides/${id}`)).json();
    const translate = async (title: string, revisionid: number) => {
      const res = await call(author.token, 'PATCH', `/guides/${id}?revisionid=${revisionid}`, { langid: 'de', title });
      expect(res.statusCode).toBe(200);
      return res.json<{ revisionid: number }>();
    };
    const first = await translate('Wasserkocher', source.revisionid);
    const de = (await release(author.token, { guideid: id, type: 'major', langid: 'de' })).json();
    expect([de.langid, de.version, de.revisionid]).toEqual(['de', '1.0', first.revisionid]);
    const en = (await release(author.token, { guideid: id, type: 'minor' })).json();
    expect([en.langid, en.version, en.revisionid]).toEqual(['en', '0.1', source.revisionid]);
    const second = await translate('Neuer Wasserkocher', first.revisionid);
    const forReader = (await call(reader.token, 'GET', `/guides/${id}?langid=de`)).json();
    expect([forReader.locale, forReader.revisionid, forReader.title]).toEqual(['de', first.revisionid, 'Wasserkocher']);
    const forAuthor = (await call(author.token, 'GET', `/guides/${id}?langid=de`)).json();
    expect([forAuthor.revisionid, forAuthor.title]).toEqual([second.revisionid, 'Neuer Wasserkocher']);
    const unknownLanguage = await release(author.token, { guideid: id, type: 'major', langid: 'fr' });
    expect(unknownLanguage.statusCode).toBe(422);
    expect(unknownLanguage.json().errors).toEqual([{ message: expect.any(String), field: 'langid' }]);
  });

  describe('GET /guides/releases (R1) and GET /guides/{guideid}/releases (R2): who sees what', () => {
    let listed: number;
    let pendingId: number;
    beforeAll(async () => {
      listed = await newGuide();
      await release(author.token, { guideid: listed, type: 'major' });
      gateway.gate('GUIDE', listed);
      await addStep(t, author.user, listed);
      pendingId = (await release(author.token, { guideid: listed, type: 'minor' })).json().releaseid;
    });

    it('readers see released releases only; editors see all', async () => {
      const forReader = (await call(reader.token, 'GET', `/guides/releases?guideid=${listed}`)).json();
      expect(forReader.releases.map((r: { status: string }) => r.status)).toEqual(['released']);
      const forAuthor = (await call(author.token, 'GET', `/guides/releases?guideid=${listed}`)).json();
      expect(forAuthor.releases.map((r: { status: string }) => r.status)).toEqual(['released', 'pending']);
      expect(forAuthor.releases[1].releaseid).toBe(pendingId);
      const r2Reader = (await call(reader.token, 'GET', `/guides/${listed}/releases`)).json();
      expect(r2Reader).toEqual({ releases: forReader.releases });
      const r2Author = (await call(author.token, 'GET', `/guides/${listed}/releases?order=DESC`)).json();
      expect(r2Author).toEqual({ releases: [...forAuthor.releases].reverse() });
      expect((await call(reader.token, 'GET', `/guides/${listed}/releases?status=pending`)).json()).toEqual({
        releases: [],
      });
    });

    it('filters by status and type, pages by offset and limit', async () => {
      const all = (await call(admin.token, 'GET', '/guides/releases?limit=200')).json().releases as {
        releaseid: number;
        status: string;
        type: string;
      }[];
      expect(all.length).toBeGreaterThan(5);
      expect(all.map((r) => r.releaseid)).toEqual([...all.map((r) => r.releaseid)].sort((a, b) => a - b));
      const pending = (await call(admin.token, 'GET', '/guides/releases?status=pending')).json().releases;
      expect(pending.length).toBeGreaterThan(0);
      expect(pending.every((r: { status: string }) => r.status === 'pending')).toBe(true);
      const minors = (await call(admin.token, 'GET', '/guides/releases?type=minor&limit=200')).json().releases;
      expect(minors.map((r: { releaseid: number }) => r.releaseid)).toEqual(
        all.filter((r) => r.type === 'minor').map((r) => r.releaseid),
      );
      const page = (await call(admin.token, 'GET', '/guides/releases?offset=2&limit=3')).json().releases;
      expect(page.map((r: { releaseid: number }) => r.releaseid)).toEqual(all.slice(2, 5).map((r) => r.releaseid));
    });

    it('R2: 401, 404 for an unknown or unreadable guide, 422 for a bad status', async () => {
      expect((await call(undefined, 'GET', `/guides/${listed}/releases`)).statusCode).toBe(401);
      expect((await call(reader.token, 'GET', '/guides/999999/releases')).statusCode).toBe(404);
      const hidden = await newGuide({ public: false });
      expect((await call(reader.token, 'GET', `/guides/${hidden}/releases`)).json()).toEqual({
        error: true,
        message: 'Guide not found',
      });
      expect((await call(reader.token, 'GET', `/guides/${listed}/releases?status=nope`)).statusCode).toBe(422);
    });

    it('hides releases of guides the caller may not read', async () => {
      const hidden = await newGuide({ public: false });
      const secret = (await release(author.token, { guideid: hidden, type: 'major' })).json();
      const ids = (token: string) =>
        call(token, 'GET', '/guides/releases?limit=200').then((r) =>
          (r.json().releases as { releaseid: number }[]).map((x) => x.releaseid),
        );
      expect(await ids(reader.token)).not.toContain(secret.releaseid);
      expect(await ids(author.token)).toContain(secret.releaseid);
      expect(await ids(moderator.token)).toContain(secret.releaseid);
    });

    it('a plain user sees what they edit (own, user-granted, team-granted guides) and the released releases they read, in every order and page', async () => {
      const grantee = await createUser(t, { privilege: 'Author' });
      const teamid = await createTeam(t, 'Release readers', [grantee.user.userid]);
      const guides = {
        open: await newGuide(),
        userGranted: await newGuide({ public: false }),
        teamGranted: await newGuide({ public: false }),
        closed: await newGuide({ public: false }),
        deleted: await newGuide(),
        own: (await createGuide(t, grantee.user, { category: 'Kettle', public: false })).guideid,
      };
      await addStep(t, grantee.user, guides.own);
      expect(
        (await call(author.token, 'PUT', `/guides/${guides.userGranted}/users/${grantee.user.userid}`)).statusCode,
      ).toBe(201);
      expect((await call(author.token, 'PUT', `/guides/${guides.teamGranted}/teams/${teamid}`)).statusCode).toBe(201);
      for (const [name, id] of Object.entries(guides)) {
        const by = name === 'own' ? grantee : author;
        expect((await release(by.token, { guideid: id, type: 'major' })).statusCode).toBe(201);
        gateway.gate('GUIDE', id);
        await addStep(t, by.user, id);
        expect((await release(by.token, { guideid: id, type: 'minor' })).json().status).toBe('pending');
      }
      const head = (await call(author.token, 'GET', `/guides/${guides.deleted}`)).json().revisionid;
      expect((await call(author.token, 'DELETE', `/guides/${guides.deleted}?revisionid=${head}`)).statusCode).toBe(204);

      type Row = { releaseid: number; guideid: number; status: string; type: string };
      const list = async (token: string, query: string) =>
        (await call(token, 'GET', `/guides/releases?${query}`)).json().releases as Row[];
      const ids = (rows: Row[]) => rows.map((r) => r.releaseid);
      // The oracle: every release (a Moderator's list) filtered by the rule, with publicness from the guides table.
      const everything = await list(admin.token, 'limit=200');
      expect(everything.length).toBeLessThan(200);
      const publicRows: { guideid: number }[] = await t.app
        .get(DataSource)
        .query('SELECT guideid FROM guides WHERE public = 1 AND deleted = 0');
      const readable = new Set(publicRows.map((r) => Number(r.guideid)));
      const edits = new Set([guides.userGranted, guides.teamGranted, guides.own]);
      const expected = everything.filter(
        (r) => edits.has(r.guideid) || (r.status === 'released' && readable.has(r.guideid)),
      );
      const mine = await list(grantee.token, 'limit=200');
      expect(ids(mine)).toEqual(ids(expected));
      for (const edited of edits) {
        expect(mine.filter((r) => r.guideid === edited).map((r) => r.status)).toEqual(['released', 'pending']);
      }
      expect(mine.filter((r) => r.guideid === guides.open).map((r) => r.status)).toEqual(['released']);
      expect(mine.some((r) => r.guideid === guides.closed || r.guideid === guides.deleted)).toBe(false);
      expect(everything.some((r) => r.guideid === guides.deleted)).toBe(false);
      expect(everything.filter((r) => r.guideid === guides.closed)).toHaveLength(2);

      // Whatever the order, filter or page: the rows of filtering the whole list.
      expect(ids(await list(grantee.token, 'limit=200&order=DESC'))).toEqual(ids(expected).reverse());
      for (const [offset, limit] of [
        [0, 1],
        [1, 2],
        [3, 4],
        [expected.length - 2, 5],
        [expected.length, 3],
      ]) {
        expect(ids(await list(grantee.token, `offset=${offset}&limit=${limit}`))).toEqual(
          ids(expected.slice(offset, offset + limit)),
        );
        expect(ids(await list(grantee.token, `offset=${offset}&limit=${limit}&order=DESC`))).toEqual(
          ids([...expected].reverse().slice(offset, offset + limit)),
        );
      }
      for (const status of ['pending', 'released']) {
        expect(ids(await list(grantee.token, `status=${status}&limit=200`))).toEqual(
          ids(expected.filter((r) => r.status === status)),
        );
      }
      expect(ids(await list(grantee.token, 'type=minor&limit=200'))).toEqual(
        ids(expected.filter((r) => r.type === 'minor')),
      );
      expect(ids(await list(grantee.token, `guideid=${guides.teamGranted}&status=pending`))).toEqual(
        ids(expected.filter((r) => r.guideid === guides.teamGranted && r.status === 'pending')),
      );
      expect(ids(await list(grantee.token, `guideid=${guides.open}`))).toEqual(
        ids(expected.filter((r) => r.guideid === guides.open)),
      );
      expect(await list(grantee.token, `guideid=${guides.closed}`)).toEqual([]);
      // A plain reader without grants: the released releases of public guides.
      expect(ids(await list(reader.token, 'limit=200'))).toEqual(
        ids(everything.filter((r) => r.status === 'released' && readable.has(r.guideid))),
      );
    });

    it('answers in at most 4 SQL statements whatever the page size', async () => {
      for (let i = 0; i < 6; i += 1) {
        const creator = await createUser(t, { privilege: 'Moderator' });
        await release(creator.token, { guideid: await newGuide(), type: 'major' });
      }
      await call(reader.token, 'GET', '/guides/releases?limit=1'); // the token's once-a-minute write
      const small = await call(reader.token, 'GET', '/guides/releases?limit=2');
      const large = await call(reader.token, 'GET', '/guides/releases?limit=200');
      expect(large.json().releases.length).toBeGreaterThan(8);
      expect(sqlCount(small)).toBeLessThanOrEqual(4);
      expect(sqlCount(large)).toBeLessThanOrEqual(4);
      expect(sqlCount(large)).toBe(sqlCount(small));
      const r2 = await call(author.token, 'GET', `/guides/${listed}/releases?limit=1`);
      const r2Large = await call(author.token, 'GET', `/guides/${listed}/releases?limit=200`);
      expect(r2Large.json().releases).toHaveLength(2);
      expect(sqlCount(r2)).toBeLessThanOrEqual(4);
      expect(sqlCount(r2Large)).toBe(sqlCount(r2));
      const r2Reader = await call(reader.token, 'GET', `/guides/${listed}/releases`);
      expect(sqlCount(r2Reader)).toBeLessThanOrEqual(4);
    });
  });
});
