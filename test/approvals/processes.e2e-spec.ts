import { FakeClock } from '../../src/platform/clock/clock';
import { UsersService } from '../../src/modules/users/users.service';
import { createUser, type CreatedUser } from '../factories/user.factory';
import { createTestApp, type TestApp } from '../utils/test-app';
import { API, auditActions, count, createTeam, outbox } from './approvals-test-helpers';

const NOW = Date.UTC(2026, 5, 1, 8);

describe('approval processes (docs/enterprise/approvals.md, A1-A5)', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let author: CreatedUser;
  let signer: CreatedUser;
  let teamid: number;
  const clock = new FakeClock(NOW);

  const light = async (userid: number) => (await t.app.get(UsersService).lightUsers([userid])).get(userid);
  const create = (body: unknown, token = admin.token) =>
    t.as(token, { method: 'POST', url: `${API}/approvals/process`, payload: body as object });

  beforeAll(async () => {
    t = await createTestApp({ platform: { clock } });
    admin = await createUser(t, { privilege: 'Admin' });
    author = await createUser(t, { privilege: 'Author' });
    signer = await createUser(t);
    const member = await createUser(t);
    teamid = await createTeam(t, 'Quality', [signer.user.userid, member.user.userid]);
  });
  afterAll(() => t.close());

  describe('bad input and access first', () => {
    it('401 without a token on every route', async () => {
      for (const [method, url] of [
        ['GET', '/approvals/processes'],
        ['GET', '/approvals/process/search/x'],
        ['GET', '/approvals/process/1'],
        ['POST', '/approvals/process'],
        ['PATCH', '/approvals/process/1?revisionid=1'],
      ] as const) {
        const res = await t.inject({ method, url: `${API}${url}`, payload: method === 'GET' ? undefined : {} });
        expect({ url, status: res.statusCode }).toEqual({ url, status: 401 });
      }
    });

    it('403 for anyone but an Admin, before any body check', async () => {
      for (const [method, url] of [
        ['GET', '/approvals/processes'],
        ['GET', '/approvals/process/search/x'],
        ['GET', '/approvals/process/999'],
        ['POST', '/approvals/process'],
        ['PATCH', '/approvals/process/999'],
      ] as const) {
        const res = await t.as(author.token, {
          method,
          url: `${API}${url}`,
          payload: method === 'GET' ? undefined : {},
        });
        expect({ url, status: res.statusCode, body: res.json() }).toEqual({
          url,
          status: 403,
          body: { error: true, message: 'Insufficient privileges', requiredPrivileges: ['Admin'] },
        });
      }
    });

    it('404 for unknown or malformed ids', async () => {
      for (const url of ['/approvals/process/999', '/approvals/process/abc', '/approvals/process/0']) {
        const res = await t.as(admin.token, { method: 'GET', url: `${API}${url}` });
        expect({ url, status: res.statusCode, body: res.json() }).toEqual({
          url,
          status: 404,
          body: { error: true, message: 'Approval process not found' },
        });
      }
      const patch = await t.as(admin.token, {
        method: 'PATCH',
        url: `${API}/approvals/process/999?revisionid=1`,
        payload: { name: 'x' },
      });
      expect(patch.statusCode).toBe(404);
    });

    it('422 for 0 or 11 stages, both or neither of userid/teamid, unknown user or team, required_signatures out of range', async () => {
      const cases: [unknown, { field?: string; index?: number; message: string }][] = [
        [
          { name: 'P', stages: [] },
          { field: 'stages', message: 'stages must have 1 to 10 stages' },
        ],
        [
          { name: 'P', stages: Array.from({ length: 11 }, () => ({ userid: signer.user.userid })) },
          { field: 'stages', message: 'stages must have 1 to 10 stages' },
        ],
        [
          { name: 'P', stages: [{ userid: signer.user.userid, teamid }] },
          { field: 'stages', index: 0, message: 'A stage names exactly one of userid or teamid' },
        ],
        [
          { name: 'P', stages: [{}] },
          { field: 'stages', index: 0, message: 'A stage names exactly one of userid or teamid' },
        ],
        [
          { name: 'P', stages: [{ userid: signer.user.userid }, { userid: 999999 }] },
          { field: 'stages.userid', index: 1, message: 'User 999999 does not exist' },
        ],
        [
          { name: 'P', stages: [{ teamid: 999999 }] },
          { field: 'stages.teamid', index: 0, message: 'Team 999999 does not exist' },
        ],
        [
          { name: 'P', stages: [{ teamid, required_signatures: 3 }] },
          {
            field: 'stages.required_signatures',
            index: 0,
            message: "required_signatures must be from 1 to the team's 2 members",
          },
        ],
        [
          { name: 'P', stages: [{ teamid, required_signatures: 0 }] },
          { field: 'stages.required_signatures', index: 0, message: 'required_signatures must not be less than 1' },
        ],
        [
          { name: 'P', stages: [{ userid: signer.user.userid, required_signatures: 2 }] },
          { field: 'stages.required_signatures', index: 0, message: 'A user stage needs exactly 1 signature' },
        ],
        [
          { name: '', stages: [{ userid: signer.user.userid }] },
          { field: 'name', message: 'name must be longer than or equal to 1 characters' },
        ],
      ];
      for (const [body, error] of cases) {
        const res = await create(body);
        expect({ body, status: res.statusCode, error: res.json().errors[0] }).toEqual({ body, status: 422, error });
      }
      expect(await count(t, 'approval_processes')).toBe(0);
    });

    it('A5 without revisionid is 422; a stale one is 409 with the current process', async () => {
      const made = (await create({ name: 'Versioned', stages: [{ userid: signer.user.userid }] })).json();
      const missing = await t.as(admin.token, {
        method: 'PATCH',
        url: `${API}/approvals/process/${made.approval_processid}`,
        payload: { name: 'x' },
      });
      expect(missing.statusCode).toBe(422);
      expect(missing.json()).toEqual({
        error: true,
        message: 'revisionid is required',
        errors: [{ message: 'revisionid is required', field: 'revisionid' }],
      });
      const renamed = await t.as(admin.token, {
        method: 'PATCH',
        url: `${API}/approvals/process/${made.approval_processid}?revisionid=${made.approval_process_revisionid}`,
        payload: { name: 'Versioned 2' },
      });
      expect(renamed.statusCode).toBe(200);
      const stale = await t.as(admin.token, {
        method: 'PATCH',
        url: `${API}/approvals/process/${made.approval_processid}?revisionid=${made.approval_process_revisionid}`,
        payload: { name: 'Versioned 3' },
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual(renamed.json());
      await t.dataSource.query('DELETE FROM approval_process_stages');
      await t.dataSource.query('DELETE FROM approval_process_revisions');
      await t.dataSource.query('DELETE FROM approval_processes');
    });
  });

  describe('happy paths', () => {
    it('A4 creates a process with user and team stages: whole body, audit row and event', async () => {
      const res = await create({
        name: 'Quality release',
        stages: [{ userid: signer.user.userid }, { teamid, required_signatures: 2 }],
      });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      const expected = {
        approval_processid: body.approval_processid,
        approval_process_revisionid: body.approval_process_revisionid,
        name: 'Quality release',
        site_default: false,
        stages: [
          {
            approval_process_stageid: body.stages[0].approval_process_stageid,
            orderby: 1,
            user: await light(signer.user.userid),
            team: null,
            required_signatures: 1,
          },
          {
            approval_process_stageid: body.stages[1].approval_process_stageid,
            orderby: 2,
            user: null,
            team: { teamid, name: 'Quality' },
            required_signatures: 2,
          },
        ],
        documents_count: 0,
        created_date: NOW / 1000,
        modified_date: NOW / 1000,
      };
      expect(body).toEqual(expected);
      expect(await auditActions(t, 'approval_process', body.approval_processid)).toEqual(['approval_process.create']);
      expect(await outbox(t, 'approval_process', body.approval_processid)).toEqual([
        { name: 'approval_process.created', payload: expected },
      ]);
    });

    it('A1 lists, A2 searches case-insensitively, A3 reads', async () => {
      const second = (await create({ name: 'Field 50%_done', stages: [{ userid: admin.user.userid }] })).json();
      const list = await t.as(admin.token, { method: 'GET', url: `${API}/approvals/processes` });
      expect(list.statusCode).toBe(200);
      expect(list.json().map((p: { name: string }) => p.name)).toEqual(['Quality release', 'Field 50%_done']);
      const desc = await t.as(admin.token, { method: 'GET', url: `${API}/approvals/processes?order=desc&limit=1` });
      expect(desc.json().map((p: { name: string }) => p.name)).toEqual(['Field 50%_done']);
      const search = await t.as(admin.token, { method: 'GET', url: `${API}/approvals/process/search/QUALITY` });
      expect(search.json()).toEqual([list.json()[0]]);
      const literal = await t.as(admin.token, {
        method: 'GET',
        url: `${API}/approvals/process/search/${encodeURIComponent('0%_')}`,
      });
      expect(literal.json()).toEqual([second]);
      expect((await t.as(admin.token, { method: 'GET', url: `${API}/approvals/process/search/zzz` })).json()).toEqual(
        [],
      );
      const long = await t.as(admin.token, {
        method: 'GET',
        url: `${API}/approvals/process/search/${'a'.repeat(101)}`,
      });
      expect(long.statusCode).toBe(422);
      const one = await t.as(admin.token, {
        method: 'GET',
        url: `${API}/approvals/process/${second.approval_processid}`,
      });
      expect(one.json()).toEqual(second);
    });

    it('A5: a new name or stages makes a new revision, old revisions stay readable; site_default alone makes none and clears the others', async () => {
      const [first, second] = (await t.as(admin.token, { method: 'GET', url: `${API}/approvals/processes` })).json();
      clock.advance(60_000);
      const edited = await t.as(admin.token, {
        method: 'PATCH',
        url: `${API}/approvals/process/${first.approval_processid}?revisionid=${first.approval_process_revisionid}`,
        payload: { stages: [{ userid: admin.user.userid }] },
      });
      expect(edited.statusCode).toBe(200);
      expect(edited.json()).toEqual({
        ...first,
        approval_process_revisionid: edited.json().approval_process_revisionid,
        stages: [
          {
            approval_process_stageid: edited.json().stages[0].approval_process_stageid,
            orderby: 1,
            user: await light(admin.user.userid),
            team: null,
            required_signatures: 1,
          },
        ],
        modified_date: NOW / 1000 + 60,
      });
      expect(edited.json().approval_process_revisionid).toBeGreaterThan(first.approval_process_revisionid);
      const old = await t.as(admin.token, {
        method: 'GET',
        url: `${API}/approvals/process/${first.approval_processid}?revisionid=${first.approval_process_revisionid}`,
      });
      expect(old.json()).toEqual({ ...first, modified_date: NOW / 1000 + 60 });
      const foreign = await t.as(admin.token, {
        method: 'GET',
        url: `${API}/approvals/process/${first.approval_processid}?revisionid=${second.approval_process_revisionid}`,
      });
      expect(foreign.statusCode).toBe(404);

      const unchanged = await t.as(admin.token, {
        method: 'PATCH',
        url: `${API}/approvals/process/${first.approval_processid}?revisionid=${edited.json().approval_process_revisionid}`,
        payload: { name: first.name },
      });
      expect(unchanged.json()).toEqual(edited.json());

      const makeDefault = async (p: { approval_processid: number; approval_process_revisionid: number }) =>
        t.as(admin.token, {
          method: 'PATCH',
          url: `${API}/approvals/process/${p.approval_processid}?revisionid=${p.approval_process_revisionid}`,
          payload: { site_default: true },
        });
      const d1 = await makeDefault(edited.json());
      expect(d1.json()).toEqual({ ...edited.json(), site_default: true });
      const d2 = await makeDefault(second);
      expect(d2.json()).toEqual({ ...second, site_default: true, modified_date: NOW / 1000 + 60 });
      const after = (await t.as(admin.token, { method: 'GET', url: `${API}/approvals/processes` })).json();
      expect(after.map((p: { site_default: boolean }) => p.site_default)).toEqual([false, true]);
      expect(await auditActions(t, 'approval_process', first.approval_processid)).toEqual([
        'approval_process.create',
        'approval_process.update',
        'approval_process.update',
      ]);
      expect((await outbox(t, 'approval_process', first.approval_processid)).map((e) => e.name)).toEqual([
        'approval_process.created',
        'approval_process.updated',
        'approval_process.updated',
      ]);
    });
  });
});
