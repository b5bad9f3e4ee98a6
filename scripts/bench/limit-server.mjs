// The limit server (the second reference of `npm run bench`): plain Fastify with one prepared statement per
// request that returns what the service has stored for the answer, sent without reshaping. It answers what
// the hardware does for the same stored bytes, so service ÷ limit says how much of the service's time goes
// into its own work (framework, access checks, caller-dependent fields, serialization).
//
// What each route sends (it is not the service's answer, and no parity is checked; the harness only checks
// that each answer is a 200 holding the stored data):
// - GET /guides/{id}: guide_revisions.document of the guide's patrolled revision, as stored;
// - GET /guides?limit&offset: the page's guide_revisions.summary values, joined into one JSON array;
// - GET /wikis/CATEGORY/{title}: the category's wiki row with its shown revision (contents unrendered);
// - GET /wikis/CATEGORY?display=hierarchy: the category tree rows (title, parent, display title);
// - GET /users/search/{term}: the page of matching user rows.
// Same environment variables as the baseline: DB_TYPE, DB_PATH, DATABASE_URL, PORT, HOST.
import { createHash } from 'node:crypto';
import { HOST, PORT, containing, isMysql, pageOf, query, require, statementCount } from './baseline-common.mjs';

const Fastify = require('fastify');
const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
/** JSON columns: text as stored (mysql2 would parse a json column itself: selected as CHAR on MySQL/MariaDB). */
const asText = (value) => (typeof value === 'string' ? value : JSON.stringify(value));
const text = (column) => (isMysql ? `CAST(${column} AS CHAR)` : column);

const SQL = {
  detail: `SELECT ${text('r.document')} AS document FROM guides g JOIN guide_revisions r ON r.revisionid = g.revisionid
    WHERE g.guideid = ? AND g.deleted = 0 AND g.public = 1`,
  list: `SELECT ${text('r.summary')} AS summary FROM (SELECT guideid FROM guides WHERE deleted = 0 AND public = 1 ORDER BY guideid LIMIT ? OFFSET ?) page
    JOIN guides g ON g.guideid = page.guideid
    JOIN guide_revisions r ON r.revisionid = g.revisionid
    ORDER BY g.guideid`,
  category: `SELECT w.wikiid, w.namespace, w.title, w.langid, w.parent_wikiid, w.authorid, w.created_date,
      r.revisionid, r.date, r.display_title, r.summary, r.contents, r.imageid, r.flags, r.data
    FROM wikis w
    JOIN wiki_languages lm ON lm.wikiid = w.wikiid AND lm.langid = w.langid
    JOIN wiki_revisions r ON r.revisionid = lm.revisionid
    WHERE w.namespace = 'CATEGORY' AND w.title_hash = ? AND w.deleted = 0`,
  tree: `SELECT w.title, w.parent_wikiid, w.wikiid, r.display_title
    FROM wikis w
    JOIN wiki_languages lm ON lm.wikiid = w.wikiid AND lm.langid = w.langid
    JOIN wiki_revisions r ON r.revisionid = lm.revisionid
    WHERE w.namespace = 'CATEGORY' AND w.deleted = 0`,
  users: `SELECT u.userid, u.username, u.unique_username, u.join_date, u.reputation, u.imageid
    FROM users u
    WHERE (LOWER(u.unique_username) LIKE ? ESCAPE '!' OR LOWER(u.username) LIKE ? ESCAPE '!')
      AND u.enabled = 1 AND u.banned = 0
    ORDER BY u.userid LIMIT ? OFFSET ?`,
};

const app = Fastify({ logger: false });
const json = (reply, text) => reply.type('application/json; charset=utf-8').send(text);
const notFound = (reply) => reply.code(404).send({ error: true, message: 'not found' });

app.get('/api/2.0/health', async () => ({ status: 'ok' }));
app.get('/api/2.0/guides/:guideid', async (request, reply) => {
  const [row] = await query(SQL.detail, [Number(request.params.guideid) || 0]);
  return row?.document == null ? notFound(reply) : json(reply, asText(row.document));
});
app.get('/api/2.0/guides', async (request, reply) => {
  const { limit, offset } = pageOf(request.query);
  const rows = await query(SQL.list, [limit, offset]);
  return json(reply, `[${rows.map((row) => asText(row.summary)).join(',')}]`);
});
app.get('/api/2.0/wikis/CATEGORY/:title', async (request, reply) => {
  const [row] = await query(SQL.category, [sha256(request.params.title.replace(/_/g, ' ').trim().toLowerCase())]);
  return row ? json(reply, JSON.stringify(row)) : notFound(reply);
});
app.get('/api/2.0/wikis/CATEGORY', async (_request, reply) => json(reply, JSON.stringify(await query(SQL.tree))));
app.get('/api/2.0/users/search/:search', async (request, reply) => {
  const { limit, offset } = pageOf(request.query);
  const like = containing(request.params.search.trim().toLowerCase());
  return json(reply, JSON.stringify(await query(SQL.users, [like, like, limit, offset])));
});
app.get('/__bench/sql-statements', async () => ({ statements: statementCount() }));

const close = () => app.close().then(() => process.exit(0));
process.on('SIGTERM', close);
process.on('SIGINT', close);
await app.listen({ port: PORT, host: HOST });
