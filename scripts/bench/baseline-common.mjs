// What the baseline's handlers share: the database handle (cached prepared statements on SQLite, the
// mysql2 pool on MySQL, both counting the statements they run, transactions included), URLs and the
// image / light-user objects as the service builds them. Environment: DB_TYPE, DB_PATH, DATABASE_URL,
// PUBLIC_URL, MEDIA_PUBLIC_URL.
import { createRequire } from 'node:module';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const require = createRequire(import.meta.url);
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const wikitext = require(resolve(ROOT, '.bench-build/src/wikitext/index.js'));

const env = process.env;
export const PORT = Number(env.PORT ?? 3001);
export const HOST = env.HOST ?? '127.0.0.1';
export const PUBLIC_URL = (env.PUBLIC_URL ?? `http://${HOST}:${PORT}`).replace(/\/+$/, '');
const FILES_URL = (env.MEDIA_PUBLIC_URL ?? `${PUBLIC_URL}/api/2.0/media/files`).replace(/\/+$/, '');
const PLACEHOLDERS_URL = `${PUBLIC_URL}/api/2.0/media/placeholders`;
const VARIANTS = ['mini', 'thumbnail', '140x105', '200x150', 'standard', '440x330', 'medium', 'large', 'huge'];
export const DEFAULT_AVATAR = { id: 0, guid: 'defaultavatar000' };
for (const v of [...VARIANTS, 'original']) DEFAULT_AVATAR[v] = `${PLACEHOLDERS_URL}/avatar.${v}.png`;

const slug = (title) => encodeURIComponent(title.replace(/ /g, '_'));
export const wikiUrl = (prefix, title) => `${PUBLIC_URL}/${prefix}/${slug(title)}`;
export const guideUrl = (id, title) => `${PUBLIC_URL}/Guide/${slug(title)}/${id}`;
export const userUrl = (id, name) => `${PUBLIC_URL}/User/${id}/${encodeURIComponent(name).replace(/%20/g, '+')}`;
export const flagsOf = (s) => (s ? s.split(',').filter(Boolean) : []);
/** JSON columns: text on SQLite and MariaDB, already parsed by mysql2 on MySQL 8. */
export const jsonOf = (value) => (typeof value === 'string' ? JSON.parse(value) : value);
export const placeholders = (n) => new Array(n).fill('?').join(', ');
/** `limit` 1-200 (default 20) and `offset` ≥ 0 of a query string, as the service reads them. */
export const pageOf = (q) => ({
  limit: Math.min(200, Math.max(1, Number(q.limit ?? 20) || 20)),
  offset: Math.max(0, Number(q.offset ?? 0) || 0),
});
/** A LIKE pattern (ESCAPE '!') matching values that contain `text`. */
export const containing = (text) => `%${text.replace(/[!%_]/g, (c) => `!${c}`)}%`;

// ---- database: query(sql, params) -> rows; transaction(work) ---------------------------------------
let statements = 0;
/** Statements run since start (the bench reads it around sequential requests; no server-side counter on SQLite). */
export const statementCount = () => statements;
export let query;
/**
 * transaction(async (q) => result): `q(sql, params)` answers rows for a SELECT and { insertId, affected }
 * otherwise; COMMIT when `work` resolves, ROLLBACK when it throws.
 */
export let transaction;
export const isMysql = (env.DB_TYPE ?? 'sqlite') !== 'sqlite';
if (!isMysql) {
  const Database = require('better-sqlite3');
  const db = new Database(env.DB_PATH ?? './data/app.sqlite', { fileMustExist: true });
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  const cache = new Map();
  query = async (sql, params = []) => {
    statements += 1;
    let stmt = cache.get(sql);
    if (!stmt) cache.set(sql, (stmt = db.prepare(sql)));
    if (stmt.reader) return stmt.all(...params);
    const info = stmt.run(...params);
    return { insertId: Number(info.lastInsertRowid), affected: info.changes };
  };
  // One connection: write transactions are queued one at a time (as the service does on SQLite), and
  // reads of other requests that run between two awaits of a transaction see its uncommitted rows.
  let queue = Promise.resolve();
  transaction = (work) => {
    const run = queue.then(async () => {
      await query('BEGIN IMMEDIATE');
      try {
        const result = await work(query);
        await query('COMMIT');
        return result;
      } catch (error) {
        await query('ROLLBACK');
        throw error;
      }
    });
    queue = run.catch(() => undefined);
    return run;
  };
} else {
  const mysql = require('mysql2/promise');
  const url = new URL(env.DATABASE_URL);
  const pool = mysql.createPool({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username || 'root'),
    password: decodeURIComponent(url.password),
    database: decodeURIComponent(url.pathname.slice(1)),
    connectionLimit: 20, // as the service
    charset: 'utf8mb4_unicode_ci',
    supportBigNumbers: true,
    bigNumberStrings: false,
  });
  const rowsOf = ([result]) =>
    Array.isArray(result) ? result : { insertId: result.insertId, affected: result.affectedRows };
  query = async (sql, params = []) => {
    statements += 1;
    return rowsOf(await pool.query(sql, params));
  };
  transaction = async (work) => {
    const conn = await pool.getConnection();
    const q = async (sql, params = []) => {
      statements += 1;
      return rowsOf(await conn.query(sql, params));
    };
    try {
      await q('START TRANSACTION');
      const result = await work(q);
      await q('COMMIT');
      return result;
    } catch (error) {
      await q('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      conn.release();
    }
  };
}

// ---- images and users -------------------------------------------------------------------------------
export function imageObject(row) {
  const object = { id: Number(row.imageid), guid: row.guid };
  const base = `${FILES_URL}/images/${row.guid.slice(0, 2)}/${row.guid}`;
  for (const v of VARIANTS) object[v] = `${base}.${v}.${row.variant_ext}`;
  object.original = `${base}.original.${row.original_ext}`;
  return object;
}

/** imageid -> image object, one query. */
export async function imagesByIds(ids) {
  const unique = [...new Set(ids.filter((id) => Number.isInteger(id) && id > 0))];
  if (!unique.length) return new Map();
  const rows = await query(
    `SELECT imageid, guid, original_ext, variant_ext FROM images WHERE imageid IN (${placeholders(unique.length)})`,
    unique,
  );
  return new Map(rows.map((row) => [Number(row.imageid), imageObject(row)]));
}

export async function teamsOf(userids) {
  const teams = new Map(userids.map((id) => [id, []]));
  if (!userids.length) return teams;
  const rows = await query(
    `SELECT teamid, userid FROM team_members WHERE userid IN (${placeholders(userids.length)}) ORDER BY teamid`,
    userids,
  );
  for (const row of rows) teams.get(Number(row.userid))?.push(Number(row.teamid));
  return teams;
}

/** The light user object of rows with userid, username, unique_username, join_date, reputation, imageid. */
export async function lightUsersOf(rows) {
  const [teams, avatars] = await Promise.all([
    teamsOf(rows.map((u) => Number(u.userid))),
    imagesByIds(rows.map((u) => (u.imageid === null ? 0 : Number(u.imageid)))),
  ]);
  return new Map(
    rows.map((u) => [
      Number(u.userid),
      {
        userid: Number(u.userid),
        username: u.username,
        unique_username: u.unique_username,
        join_date: Number(u.join_date),
        image: (u.imageid !== null && avatars.get(Number(u.imageid))) || DEFAULT_AVATAR,
        reputation: Number(u.reputation),
        url: userUrl(u.userid, u.username),
        teams: teams.get(Number(u.userid)) ?? [],
      },
    ]),
  );
}

export const USER_COLUMNS = 'u.userid, u.username, u.unique_username, u.join_date, u.reputation, u.imageid';

export async function lightUsers(userids) {
  const unique = [...new Set(userids)];
  if (!unique.length) return new Map();
  const rows = await query(
    `SELECT ${USER_COLUMNS} FROM users u WHERE u.userid IN (${placeholders(unique.length)})`,
    unique,
  );
  return lightUsersOf(rows);
}
