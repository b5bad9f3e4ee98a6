import type { TestApp } from '../utils/test-app';

export const API = '/api/2.0';

/** Outbox rows of one entity, oldest first. */
export async function outbox(t: TestApp, entityType: string, entityId: number | string) {
  const rows = await t.dataSource.query<{ name: string; payload: string | object }[]>(
    'SELECT name, payload FROM domain_events WHERE entity_type = ? AND entity_id = ? ORDER BY eventid',
    [entityType, String(entityId)],
  );
  return rows.map((r) => ({
    name: r.name,
    payload: typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload,
  }));
}

/** Audit actions of one entity, oldest first. */
export async function auditActions(t: TestApp, entityType: string, entityId: number | string): Promise<string[]> {
  const rows = await t.dataSource.query<{ action: string }[]>(
    'SELECT action FROM audit_events WHERE entity_type = ? AND entity_id = ? ORDER BY auditid',
    [entityType, String(entityId)],
  );
  return rows.map((r) => r.action);
}

export async function count(t: TestApp, table: string): Promise<number> {
  const [row] = await t.dataSource.query<{ n: number }[]>(`SELECT COUNT(*) AS n FROM ${table}`);
  return Number(row.n);
}

/** Adds members to a team directly (the teams module's own tests cover its endpoints). */
export async function createTeam(t: TestApp, name: string, memberids: number[]): Promise<number> {
  await t.dataSource.query(
    'INSERT INTO teams (name, description, owner_userid, created_by_userid, created_date) VALUES (?, ?, ?, ?, ?)',
    [name, '', memberids[0] ?? null, memberids[0] ?? null, 1],
  );
  const [row] = await t.dataSource.query<{ teamid: number }[]>('SELECT MAX(teamid) AS teamid FROM teams');
  const teamid = Number(row.teamid);
  for (const userid of memberids) {
    await t.dataSource.query('INSERT INTO team_members (teamid, userid, joined_date) VALUES (?, ?, ?)', [
      teamid,
      userid,
      1,
    ]);
  }
  return teamid;
}
