import { createUser } from '../factories/user.factory';
import { TeamsService } from '../../src/modules/teams/teams.service';
import { createTestApp, sqlCount, type TestApp } from '../utils/test-app';

type Light = { userid: number; username: string };

describe('user search', () => {
  let t: TestApp;
  let admin: string;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await createUser(t, { privilege: 'Admin' })).token;
    // Created in an order that differs from the expected ranking, so ties by userid cannot explain it.
    const make = async (key: string, fields: Parameters<typeof createUser>[1]) => {
      ids[key] = (await createUser(t, fields)).user.userid;
    };
    await make('partialEmail', { username: 'Zed', uniqueUsername: null, email: 'mike.fan@search.example' });
    await make('partialUsername', { username: 'Mike Jones', uniqueUsername: null, email: 'p2@search.example' });
    await make('partialUnique', { username: 'Someone', uniqueUsername: 'mike_r', email: 'p1@search.example' });
    await make('exactEmail', { username: 'Quiet', uniqueUsername: null, email: 'mike@search.example' });
    await make('exactUsername', { username: 'MIKE', uniqueUsername: 'mr_m', email: 'e2@search.example' });
    await make('exactUnique', { username: 'Michael', uniqueUsername: 'mike', email: 'e1@search.example' });
    await make('disabled', { username: 'Mike Off', uniqueUsername: 'mike_off', enabled: false });
    await make('literal', { username: '100%_real', uniqueUsername: null });
  });
  afterAll(() => t.close());

  const search = async (term: string, query = '', token?: string) => {
    const res = await t.as(token, { method: 'GET', url: `/api/2.0/users/search/${encodeURIComponent(term)}${query}` });
    expect(res.statusCode).toBe(200);
    return res.json<{
      results: Light[];
      totalResults: number;
      moreResults: boolean;
      limit: number;
      offset: number;
      search: string;
    }>();
  };

  it('ranks exact unique_username, exact username, then partial unique_username, partial username (no e-mail for non-Admins)', async () => {
    const body = await search('Mike');
    expect(body.results.map((u) => u.userid)).toEqual([
      ids.exactUnique,
      ids.exactUsername,
      ids.partialUnique,
      ids.partialUsername,
    ]);
    expect(body).toMatchObject({ search: 'Mike', limit: 20, offset: 0, totalResults: 4, moreResults: false });
    expect(Object.keys(body.results[0]).sort()).toEqual([
      'image',
      'join_date',
      'reputation',
      'teams',
      'unique_username',
      'url',
      'userid',
      'username',
    ]);
  });

  it('for Admins adds partial e-mail matches last and includes disabled accounts', async () => {
    const body = await search('mike', '', admin);
    expect(body.results.map((u) => u.userid)).toEqual([
      ids.exactUnique,
      ids.exactUsername,
      ids.partialUnique,
      ids.disabled,
      ids.partialUsername,
      ids.partialEmail,
      ids.exactEmail, // "mike" is only part of mike@search.example: a partial e-mail match, after mike.fan@ by userid
    ]);
  });

  it('for Admins ranks an exact e-mail match after exact usernames and before partial matches', async () => {
    const partialEmail = (await createUser(t, { username: 'Other', uniqueUsername: null, email: 'diana@find.example' }))
      .user.userid;
    const partialUsername = (await createUser(t, { username: 'ana@find.example fan', uniqueUsername: null })).user
      .userid;
    const exactEmail = (await createUser(t, { username: 'Ana', uniqueUsername: null, email: 'ana@find.example' })).user
      .userid;
    const exactUsername = (await createUser(t, { username: 'ANA@find.example', uniqueUsername: null })).user.userid;
    expect((await search('ana@find.example', '', admin)).results.map((u) => u.userid)).toEqual([
      exactUsername,
      exactEmail,
      partialUsername,
      partialEmail,
    ]);
    expect((await search('ana@find.example')).results.map((u) => u.userid)).toEqual([exactUsername, partialUsername]);
  });

  it('never matches an e-mail address for non-Admins', async () => {
    expect((await search('mike@search.example')).results).toEqual([]);
    expect((await search('search.example')).totalResults).toBe(0);
    expect((await search('mike@search.example', '', admin)).results.map((u) => u.userid)).toEqual([ids.exactEmail]);
  });

  it('treats a numeric term as a userid', async () => {
    const body = await search(String(ids.partialEmail));
    expect(body.results.map((u) => u.userid)).toEqual([ids.partialEmail]);
    expect(body.totalResults).toBe(1);
    expect((await search('99999999')).results).toEqual([]);
    expect((await search(String(ids.disabled))).results).toEqual([]);
  });

  it('honours uniqueOnly, limit and offset with totalResults and moreResults', async () => {
    expect((await search('mike', '?uniqueOnly=true')).results.map((u) => u.userid)).toEqual([
      ids.exactUnique,
      ids.exactUsername,
      ids.partialUnique,
    ]);
    const page = await search('mike', '?limit=2&offset=1');
    expect(page.results.map((u) => u.userid)).toEqual([ids.exactUsername, ids.partialUnique]);
    expect(page).toMatchObject({ totalResults: 4, moreResults: true, limit: 2, offset: 1 });
    expect(await search('mike', '?offset=10')).toMatchObject({ results: [], totalResults: 4, moreResults: false });
    expect((await t.inject({ method: 'GET', url: '/api/2.0/users/search/mike?uniqueOnly=maybe' })).statusCode).toBe(
      422,
    );
  });

  it('reads a page, its total and the users\' teams in one statement', async () => {
    const teamids: number[] = [];
    for (const name of ['Search A', 'Search B']) {
      await t.dataSource.query(
        'INSERT INTO teams (name, description, owner_userid, created_by_userid, created_date) VALUES (?, ?, ?, ?, ?)',
        [name, '', null, null, 1],
      );
      const [row] = await t.dataSource.query<{ teamid: number }[]>('SELECT MAX(teamid) AS teamid FROM teams');
      teamids.push(Number(row.teamid));
    }
    // Joined in the opposite order of the ids: the teams are listed in ascending order.
    for (const teamid of [...teamids].reverse()) {
      await t.dataSource.query('INSERT INTO team_members (teamid, userid, joined_date) VALUES (?, ?, ?)', [
        teamid,
        ids.exactUsername,
        1,
      ]);
    }
    const res = await t.inject({ method: 'GET', url: '/api/2.0/users/search/mike' });
    const body = res.json<{ totalResults: number; results: { userid: number; teams: number[] }[] }>();
    expect(body.totalResults).toBe(4);
    const expected = await t.app.get(TeamsService).teamIdsByUser(body.results.map((u) => u.userid));
    expect(body.results.map((u) => u.teams)).toEqual(body.results.map((u) => expected.get(u.userid)));
    expect(body.results.find((u) => u.userid === ids.exactUsername)?.teams).toEqual(teamids);
    expect(sqlCount(res)).toBe(1);
  });

  it('treats % and _ literally', async () => {
    expect((await search('100%_')).results.map((u) => u.userid)).toEqual([ids.literal]);
    expect((await search('%')).results.map((u) => u.userid)).toEqual([ids.literal]);
  });

  it('deprecated /users/searchnames: exact matches first, then partial alphabetically, with mini avatar URLs', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/2.0/users/searchnames/mike' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.results.map((r: { username: string }) => r.username)).toEqual([
      'Michael',
      'MIKE',
      'Mike Jones',
      'Someone',
    ]);
    expect(body.results[0]).toEqual({
      username: 'Michael',
      unique_username: 'mike',
      image: `${t.config.publicUrl}/api/2.0/media/placeholders/avatar.mini.png`,
    });
    expect(body).toMatchObject({ search: 'mike', limit: 20, offset: 0, totalResults: 4, moreResults: false });
  });
});
