import { settle } from '../utils/events';
import { createUser } from '../factories/user.factory';
import { createTestApp, type TestApp } from '../utils/test-app';

describe('teams', () => {
  let t: TestApp;
  let mod: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    mod = await createUser(t, { privilege: 'Moderator' });
  });
  afterAll(() => t.close());

  const createTeam = async (name: string) =>
    (
      await t.as(mod.token, { method: 'POST', url: '/api/2.0/teams', payload: { name, description: `About ${name}` } })
    ).json<{ teamid: number }>();

  describe('POST /teams', () => {
    it('answers 401, 403 below Moderator, 422 for a missing or duplicate name', async () => {
      const author = await createUser(t, { privilege: 'Author' });
      expect((await t.inject({ method: 'POST', url: '/api/2.0/teams', payload: { name: 'X' } })).statusCode).toBe(401);
      const forbidden = await t.as(author.token, { method: 'POST', url: '/api/2.0/teams', payload: { name: 'X' } });
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json().requiredPrivileges).toEqual(['Admin', 'Moderator']);
      expect((await t.as(mod.token, { method: 'POST', url: '/api/2.0/teams', payload: {} })).json().errors).toEqual([
        { message: 'name is required', field: 'name' },
      ]);
      await createTeam('Dup Team');
      const dup = await t.as(mod.token, { method: 'POST', url: '/api/2.0/teams', payload: { name: 'Dup Team' } });
      expect(dup.statusCode).toBe(422);
      expect(dup.json().errors).toEqual([{ message: 'A team with that name already exists', field: 'name' }]);
    });

    it('creates a team: 201 with the team', async () => {
      const res = await t.as(mod.token, {
        method: 'POST',
        url: '/api/2.0/teams',
        payload: { name: ' Repair Crew ', description: 'We fix things' },
      });
      expect(res.statusCode).toBe(201);
      const team = res.json();
      expect(team).toEqual({
        teamid: expect.any(Number),
        name: 'Repair Crew',
        owner: null,
        reputation: 0,
        image: expect.objectContaining({ id: 0 }),
        url: `${t.config.publicUrl}/Team/${team.teamid}/Repair+Crew`,
        member_count: 0,
        description: 'We fix things',
        new_member_since: 0,
      });
    });
  });

  describe('membership', () => {
    it('answers 404 for an unknown team or user, 403 for non-managers', async () => {
      const team = await createTeam('Guarded');
      const user = await createUser(t);
      expect((await t.inject({ method: 'GET', url: '/api/2.0/teams/999999' })).statusCode).toBe(404);
      expect(
        (await t.as(mod.token, { method: 'PUT', url: `/api/2.0/teams/999999/users/${user.user.userid}` })).statusCode,
      ).toBe(404);
      expect(
        (await t.as(mod.token, { method: 'PUT', url: `/api/2.0/teams/${team.teamid}/users/999999` })).statusCode,
      ).toBe(404);
      const self = await t.as(user.token, {
        method: 'PUT',
        url: `/api/2.0/teams/${team.teamid}/users/${user.user.userid}`,
      });
      expect(self.statusCode).toBe(403);
      expect(self.json().message).toBe('Only the team owner or a Moderator may add members');
    });

    it('adds members (first is owner, idempotent), lists them, counts them, shows team ids on users', async () => {
      const team = await createTeam('Builders');
      const a = await createUser(t, { reputation: 5 });
      const b = await createUser(t, { reputation: 7 });
      const first = await t.as(mod.token, {
        method: 'PUT',
        url: `/api/2.0/teams/${team.teamid}/users/${a.user.userid}`,
      });
      expect(first.statusCode).toBe(200);
      expect(first.json().map((u: { userid: number }) => u.userid)).toEqual([a.user.userid]);
      // the owner may now add members themself
      const second = await t.as(a.token, {
        method: 'PUT',
        url: `/api/2.0/teams/${team.teamid}/users/${b.user.userid}`,
      });
      expect(second.json().map((u: { userid: number }) => u.userid)).toEqual([a.user.userid, b.user.userid]);
      await t.as(a.token, { method: 'PUT', url: `/api/2.0/teams/${team.teamid}/users/${b.user.userid}` });
      const members = await t.inject({ method: 'GET', url: `/api/2.0/teams/${team.teamid}?order=DESC` });
      expect(members.json().map((u: { userid: number; teams: number[] }) => [u.userid, u.teams])).toEqual([
        [b.user.userid, [team.teamid]],
        [a.user.userid, [team.teamid]],
      ]);
      expect(members.json()[0].privileges).toBeUndefined();
      const listed = (await t.inject({ method: 'GET', url: '/api/2.0/teams?limit=200' }))
        .json()
        .find((x: { teamid: number }) => x.teamid === team.teamid);
      expect(listed).toMatchObject({ owner: a.user.userid, member_count: 2, reputation: 12 });
      expect(listed.new_member_since).toBeGreaterThan(0);
      expect((await t.inject({ method: 'GET', url: `/api/2.0/users/${a.user.userid}` })).json().teams).toEqual([
        team.teamid,
      ]);
    });

    it('lets members leave; a departing owner is succeeded by the earliest member; others may not remove', async () => {
      const team = await createTeam('Leavers');
      const owner = await createUser(t);
      const next = await createUser(t);
      const outsider = await createUser(t);
      await t.as(mod.token, { method: 'PUT', url: `/api/2.0/teams/${team.teamid}/users/${owner.user.userid}` });
      await t.as(mod.token, { method: 'PUT', url: `/api/2.0/teams/${team.teamid}/users/${next.user.userid}` });
      const denied = await t.as(outsider.token, {
        method: 'DELETE',
        url: `/api/2.0/teams/${team.teamid}/users/${next.user.userid}`,
      });
      expect(denied.statusCode).toBe(403);
      const left = await t.as(owner.token, {
        method: 'DELETE',
        url: `/api/2.0/teams/${team.teamid}/users/${owner.user.userid}`,
      });
      expect(left.statusCode).toBe(200);
      expect(left.json().map((u: { userid: number }) => u.userid)).toEqual([next.user.userid]);
      const listed = (await t.inject({ method: 'GET', url: '/api/2.0/teams?limit=200' }))
        .json()
        .find((x: { teamid: number }) => x.teamid === team.teamid);
      expect(listed.owner).toBe(next.user.userid);
    });

    it('filters teams by newMemberSince', async () => {
      const team = await createTeam('Recent');
      const user = await createUser(t);
      await t.as(mod.token, { method: 'PUT', url: `/api/2.0/teams/${team.teamid}/users/${user.user.userid}` });
      const future = Math.floor(Date.now() / 1000) + 3600;
      expect(
        (await t.inject({ method: 'GET', url: `/api/2.0/teams?newMemberSince=${future}&limit=200` })).json(),
      ).toEqual([]);
      const recent = (await t.inject({ method: 'GET', url: '/api/2.0/teams?newMemberSince=1&limit=200' })).json();
      expect(recent.map((x: { teamid: number }) => x.teamid)).toContain(team.teamid);
    });

    it('awards the Teammate badge after joining', async () => {
      const team = await createTeam('Badge Team');
      const user = await createUser(t);
      await t.as(mod.token, { method: 'PUT', url: `/api/2.0/teams/${team.teamid}/users/${user.user.userid}` });
      await settle(t);
      const detail = (await t.inject({ method: 'GET', url: `/api/2.0/users/${user.user.userid}` })).json();
      expect(detail.badge_counts).toEqual({ bronze: 1, silver: 0, gold: 0, total: 1 });
    });
  });
});
