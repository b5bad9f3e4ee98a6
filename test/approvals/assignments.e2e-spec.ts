import { FakeClock } from '../../src/platform/clock/clock';
import { createGuide } from '../factories/guide.factory';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createCategory, createWiki } from '../factories/wiki.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { API, auditActions, outbox } from './approvals-test-helpers';

type ProcessRef = { approval_processid: number; approval_process_revisionid: number; name: string };

describe('approval slots: A6, A7, the guide fields of PATCH /guides/{guideid}, A12 and resolution', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let author: CreatedUser;
  let stranger: CreatedUser;
  let wikiid: number;
  let guideid: number;
  let all: ProcessRef;
  let major: typeof all;
  let fallback: typeof all;

  const process = async (name: string, siteDefault = false): Promise<ProcessRef> =>
    (
      await t.as(admin.token, {
        method: 'POST',
        url: `${API}/approvals/process`,
        payload: { name, stages: [{ userid: admin.user.userid }], site_default: siteDefault },
      })
    ).json();
  const guideHead = async (): Promise<{ head_revisionid: number }> =>
    (await t.as(admin.token, { method: 'GET', url: `${API}/guides/${guideid}?unpatrolled` })).json();
  const assignments = (token = author.token) =>
    t.as(token, { method: 'GET', url: `${API}/guides/${guideid}/approvalProcesses` });

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock: new FakeClock(Date.UTC(2026, 5, 1)) } });
    admin = await createUser(t, { privilege: 'Admin' });
    author = await createUser(t, { privilege: 'Author' });
    stranger = await createUser(t, { privilege: 'Author' });
    await createCategory(t, admin.user, 'Pump');
    wikiid = (await createWiki(t, author.user, { title: 'Work instruction 7' })).wikiid;
    guideid = (await createGuide(t, author.user, { category: 'Pump' })).guideid;
    all = await process('All releases');
    major = await process('Major releases');
    fallback = await process('Site default');
  });
  afterAll(() => t.close());

  describe('A6 and A7', () => {
    it('401, 403 (not Admin), 404 (wiki or process gone), 422 (bad release_type)', async () => {
      const url = `${API}/approvals/${wikiid}/${all.approval_processid}`;
      expect((await t.inject({ method: 'PUT', url, payload: {} })).statusCode).toBe(401);
      expect((await t.inject({ method: 'DELETE', url: `${API}/approvals/${wikiid}` })).statusCode).toBe(401);
      const forbidden = await t.as(author.token, { method: 'PUT', url, payload: {} });
      expect(forbidden.statusCode).toBe(403);
      expect((await t.as(author.token, { method: 'DELETE', url: `${API}/approvals/${wikiid}` })).statusCode).toBe(403);
      const noWiki = await t.as(admin.token, {
        method: 'PUT',
        url: `${API}/approvals/999999/${all.approval_processid}`,
        payload: {},
      });
      expect(noWiki.json()).toEqual({ error: true, message: 'Wiki not found' });
      const noProcess = await t.as(admin.token, {
        method: 'PUT',
        url: `${API}/approvals/${wikiid}/999999`,
        payload: {},
      });
      expect(noProcess.json()).toEqual({ error: true, message: 'Approval process not found' });
      expect((await t.as(admin.token, { method: 'DELETE', url: `${API}/approvals/999999` })).statusCode).toBe(404);
      const bad = await t.as(admin.token, { method: 'PUT', url, payload: { release_type: 'minor' } });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toEqual([{ message: 'release_type must be all or major', field: 'release_type' }]);
      const badQuery = await t.as(admin.token, { method: 'DELETE', url: `${API}/approvals/${wikiid}?release_type=x` });
      expect(badQuery.statusCode).toBe(422);
      expect(await auditActions(t, 'wiki', wikiid)).toEqual([]);
    });

    it('assigns both slots, answers the process, clears one slot then the other; 204 when nothing was assigned', async () => {
      const put = await t.as(admin.token, {
        method: 'PUT',
        url: `${API}/approvals/${wikiid}/${all.approval_processid}`,
        payload: {},
      });
      expect(put.statusCode).toBe(200);
      const shown = (
        await t.as(admin.token, { method: 'GET', url: `${API}/approvals/process/${all.approval_processid}` })
      ).json();
      expect(shown.documents_count).toBe(1);
      expect(put.json()).toEqual({ wikiid, release_type: 'all', approval_process: shown });
      const putMajor = await t.as(admin.token, {
        method: 'PUT',
        url: `${API}/approvals/${wikiid}/${major.approval_processid}`,
        payload: { release_type: 'major' },
      });
      expect(putMajor.json().release_type).toBe('major');
      expect(await outbox(t, 'wiki', wikiid)).toEqual(
        expect.arrayContaining([
          {
            name: 'approval_assignment.changed',
            payload: { doctype: 'WIKI', docid: wikiid, all: all.approval_processid, major: null },
          },
          {
            name: 'approval_assignment.changed',
            payload: { doctype: 'WIKI', docid: wikiid, all: all.approval_processid, major: major.approval_processid },
          },
        ]),
      );
      const del = await t.as(admin.token, { method: 'DELETE', url: `${API}/approvals/${wikiid}?release_type=major` });
      expect(del.statusCode).toBe(204);
      expect((await t.as(admin.token, { method: 'DELETE', url: `${API}/approvals/${wikiid}` })).statusCode).toBe(204);
      expect((await t.as(admin.token, { method: 'DELETE', url: `${API}/approvals/${wikiid}` })).statusCode).toBe(204);
      expect(await auditActions(t, 'wiki', wikiid)).toEqual([
        'approval_assignment.update',
        'approval_assignment.update',
        'approval_assignment.update',
        'approval_assignment.update',
      ]);
    });
  });

  describe('guide fields and A12', () => {
    it('A12: 401, 404 for a guide gone, 403 for someone who may not edit it', async () => {
      expect((await t.inject({ method: 'GET', url: `${API}/guides/${guideid}/approvalProcesses` })).statusCode).toBe(
        401,
      );
      expect((await assignments()).statusCode).toBe(200);
      const gone = await t.as(admin.token, { method: 'GET', url: `${API}/guides/999999/approvalProcesses` });
      expect(gone.json()).toEqual({ error: true, message: 'Guide not found' });
      // A private guide is unreadable for a stranger: 404 as if absent.
      expect((await assignments(stranger.token)).statusCode).toBe(404);
      await t.as(author.token, {
        method: 'PUT',
        url: `${API}/guides/${guideid}/public?revisionid=${(await guideHead()).head_revisionid}`,
      });
      const forbidden = await assignments(stranger.token);
      expect(forbidden.statusCode).toBe(403);
    });

    it('no slot and no site default: none for both', async () => {
      expect((await assignments()).json()).toEqual([
        {
          release_type: 'major',
          approval_processid: null,
          approval_process_revisionid: null,
          name: null,
          source: 'none',
        },
        {
          release_type: 'minor',
          approval_processid: null,
          approval_process_revisionid: null,
          name: null,
          source: 'none',
        },
      ]);
    });

    it('the fields are Admin-only (403, nothing changes), need ?revisionid=, 422 for an unknown process', async () => {
      const head = (await guideHead()).head_revisionid;
      const url = `${API}/guides/${guideid}?revisionid=${head}`;
      const byAuthor = await t.as(author.token, {
        method: 'PATCH',
        url,
        payload: { approval_processid: all.approval_processid, title: 'x' },
      });
      expect(byAuthor.statusCode).toBe(403);
      expect(byAuthor.json()).toEqual({
        error: true,
        message: 'Only an Admin may set approval processes',
        requiredPrivileges: ['Admin'],
      });
      expect((await guideHead()).head_revisionid).toBe(head);
      const missing = await t.as(admin.token, {
        method: 'PATCH',
        url: `${API}/guides/${guideid}`,
        payload: { approval_processid: 1 },
      });
      expect(missing.statusCode).toBe(422);
      const unknown = await t.as(admin.token, {
        method: 'PATCH',
        url,
        payload: { major_release_approval_processid: 999999 },
      });
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json().errors).toEqual([
        { message: 'Approval process 999999 does not exist', field: 'major_release_approval_processid' },
      ]);
      const stale = await t.as(admin.token, {
        method: 'PATCH',
        url: `${API}/guides/${guideid}?revisionid=${head - 1}`,
        payload: { approval_processid: all.approval_processid },
      });
      expect(stale.statusCode).toBe(409);
    });

    it('resolution: major slot, then all, then the site default, then none; the fields make no revision', async () => {
      const head = (await guideHead()).head_revisionid;
      const res = await t.as(admin.token, {
        method: 'PATCH',
        url: `${API}/guides/${guideid}?revisionid=${head}`,
        payload: {
          approval_processid: all.approval_processid,
          major_release_approval_processid: major.approval_processid,
        },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().head_revisionid).toBe(head);
      const ref = (p: typeof all, source: string, type: string) => ({
        release_type: type,
        approval_processid: p.approval_processid,
        approval_process_revisionid: p.approval_process_revisionid,
        name: p.name,
        source,
      });
      expect((await assignments()).json()).toEqual([
        ref(major, 'document_major', 'major'),
        ref(all, 'document', 'minor'),
      ]);
      expect((await assignments(admin.token)).json()).toEqual((await assignments()).json());

      await t.as(admin.token, {
        method: 'PATCH',
        url: `${API}/guides/${guideid}?revisionid=${head}`,
        payload: { major_release_approval_processid: null },
      });
      expect((await assignments()).json()).toEqual([ref(all, 'document', 'major'), ref(all, 'document', 'minor')]);

      await t.as(admin.token, {
        method: 'PATCH',
        url: `${API}/approvals/process/${fallback.approval_processid}?revisionid=${fallback.approval_process_revisionid}`,
        payload: { site_default: true },
      });
      await t.as(admin.token, {
        method: 'PATCH',
        url: `${API}/guides/${guideid}?revisionid=${head}`,
        payload: { approval_processid: null },
      });
      expect((await assignments()).json()).toEqual([
        ref(fallback, 'site_default', 'major'),
        ref(fallback, 'site_default', 'minor'),
      ]);
      expect(await auditActions(t, 'guide', guideid)).toEqual(
        expect.arrayContaining([
          'approval_assignment.update',
          'approval_assignment.update',
          'approval_assignment.update',
        ]),
      );
      expect((await outbox(t, 'guide', guideid)).filter((e) => e.name === 'approval_assignment.changed')).toEqual([
        {
          name: 'approval_assignment.changed',
          payload: { doctype: 'GUIDE', docid: guideid, all: all.approval_processid, major: major.approval_processid },
        },
        {
          name: 'approval_assignment.changed',
          payload: { doctype: 'GUIDE', docid: guideid, all: all.approval_processid, major: null },
        },
        { name: 'approval_assignment.changed', payload: { doctype: 'GUIDE', docid: guideid, all: null, major: null } },
      ]);
    });
  });
});
