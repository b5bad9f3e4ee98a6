// The baseline's guide writes: POST /guides and PATCH /guides/{guideid}?revisionid=, each one hand-written
// SQL transaction, answering the guide as the baseline's naive detail builder reads it back
// (baseline-guides.mjs: stored data, step revisions, images and users, wiki text rendered per request).
//
// What it does as the service does: `Authorization: api <token>` looked up by sha256 (live token of an
// enabled, unbanned account; last_used_date refreshed at most once a minute), 401 with the service's
// messages otherwise; body checks with the service's messages for the fields below (type one of
// GUIDE_TYPES, summary under 156 characters, introduction under 50 lines, string lengths, category an
// existing CATEGORY wiki, case-sensitive); revisionid required (422) and equal to head_revisionid (409,
// body the current guide); a new guide_revisions row with the guide's whole state (same JSON shape as the
// service's GuideData, so the service reads these guides too), then the conditional
// `UPDATE guides … WHERE guideid = ? AND head_revisionid = ?` (0 rows: 409); a PATCH that changes no
// value writes nothing and answers the guide. Saves are patrolled (Moderator+ callers), so they move
// revisionid, the guides columns and modified_date as well; a new guide is private with GUIDE_IN_PROGRESS.
//
// Simplifications (the bench never sends more; anything else answers 501, never a guess):
// - callers: Moderator+ only (may edit any guide; no author, grant or team rules);
// - body fields: category, type, title, subject, summary, introduction, conclusion on create; type, subject,
//   summary, introduction, conclusion on edit (category and title changes would publish guide.changed);
//   no langid, flags, image, parts, tools, documents, prerequisites, author, public, difficulty, times;
// - messages of invalid values other than those named above may differ from the service's (status 422
//   as the service; when a body has several errors their order may differ);
// - no rendered document, list summary or render_key is stored (NULL / ''): the baseline never reads
//   them, and the service renders and stores them on its first read of such a revision;
// - guide.changed effects: none. A created guide is private, so the service's listeners only delete its
//   (absent) wiki_category_guides row; an edit of the fields above changes no fact the event carries;
// - media_usage is not written: these bodies cannot change a guide's images (the seed leaves media_usage
//   empty; the images stay in the Admin's media manager, so nothing is collected);
// - concurrency: on MySQL the guide row is read FOR UPDATE before the conditional UPDATE, as the service
//   does, so writers of one guide queue on the row lock (the revision INSERT takes a shared lock on the
//   parent guides row for the foreign key, so two writers meeting only in the UPDATE could deadlock). On
//   SQLite, write transactions are queued one at a time (baseline-common.mjs).
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { ROOT, isMysql, query, require, transaction } from './baseline-common.mjs';
import { guideDetail } from './baseline-guides.mjs';

const { GUIDE_TYPES, INTRODUCTION_MAX_LINES, SUMMARY_MAX_LENGTH, generatedTitle } = require(
  resolve(ROOT, '.bench-build/src/modules/guides/guide-data.js'),
);

const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
const nowSeconds = () => Math.floor(Date.now() / 1000);
const IN_PROGRESS = 'GUIDE_IN_PROGRESS';
const LAST_USED_RESOLUTION_SECONDS = 60;

const SQL = {
  token: `SELECT t.tokenid, t.last_used_date, u.userid, u.privileges, u.enabled, u.banned
    FROM auth_tokens t JOIN users u ON u.userid = t.userid
    WHERE t.token_hash = ? AND t.revoked_date IS NULL`,
  touchToken: 'UPDATE auth_tokens SET last_used_date = ? WHERE tokenid = ?',
  category: `SELECT title, deleted FROM wikis WHERE namespace = 'CATEGORY' AND title_hash = ?`,
  insertGuide: `INSERT INTO guides (authorid, langid, category, title, type, public, deleted, flags, revisionid,
      head_revisionid, created_date, modified_date, published_date)
    VALUES (?, 'en', ?, ?, ?, 0, 0, '', 0, 0, ?, ?, 0)`,
  guide: `SELECT guideid, langid, deleted, head_revisionid, published_date FROM guides WHERE guideid = ?${
    isMysql ? ' FOR UPDATE' : ''
  }`,
  revisionData: 'SELECT data FROM guide_revisions WHERE revisionid = ?',
  insertRevision: `INSERT INTO guide_revisions (guideid, langid, userid, date, patrolled, data, document, summary,
      render_key) VALUES (?, ?, ?, ?, 1, ?, NULL, NULL, '')`,
  advance: `UPDATE guides SET head_revisionid = ?, revisionid = ?, category = ?, title = ?, type = ?, public = ?,
      flags = ?, modified_date = ?, published_date = ?
    WHERE guideid = ? AND head_revisionid = ?`,
};

class HttpError extends Error {
  constructor(status, message, extra = {}) {
    super(message);
    this.status = status;
    this.body = { error: true, message, ...extra };
  }
}
const invalid = (errors) => new HttpError(422, errors[0].message, { errors });
class Stale extends Error {}

async function authenticate(header) {
  if (header === undefined) throw new HttpError(401, 'Authentication required');
  const match = /^api\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new HttpError(401, 'The Authorization header must be "api <token>"');
  const [row] = await query(SQL.token, [sha256(match[1])]);
  if (!row || !Number(row.enabled) || Number(row.banned) > 0)
    throw new HttpError(401, 'The token is invalid or has been revoked');
  const now = nowSeconds();
  if (row.last_used_date === null || now - Number(row.last_used_date) >= LAST_USED_RESOLUTION_SECONDS)
    await query(SQL.touchToken, [now, row.tokenid]);
  const privileges = String(row.privileges)
    .split(',')
    .map((p) => p.trim());
  if (!privileges.includes('Admin') && !privileges.includes('Moderator'))
    throw new HttpError(501, 'baseline: Moderator+ callers only');
  return { userid: Number(row.userid) };
}

const FIELDS = {
  create: ['category', 'type', 'title', 'subject', 'summary', 'introduction', 'conclusion'],
  edit: ['type', 'subject', 'summary', 'introduction', 'conclusion'],
};

/** The service's DTO checks for the supported fields; the body with title trimmed. */
function checkBody(raw, kind) {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw invalid([{ message: 'Request body must be a JSON object' }]);
  const extra = Object.keys(raw).filter((key) => !FIELDS[kind].includes(key));
  if (extra.length) throw new HttpError(501, `baseline: unsupported field(s) ${extra.join(', ')}`);
  const body = { ...raw };
  if (typeof body.title === 'string') body.title = body.title.trim();
  const errors = [];
  const string = (field, min, max, tooLong) => {
    const value = body[field];
    if (value === undefined) return;
    if (typeof value !== 'string') errors.push({ message: `${field} must be a string`, field });
    else if (value.length < min)
      errors.push({ message: `${field} must be longer than or equal to ${min} characters`, field });
    else if (value.length > max)
      errors.push({ message: tooLong ?? `${field} must be shorter than or equal to ${max} characters`, field });
  };
  string('subject', 0, 255);
  string('title', 1, 255);
  string('summary', 0, SUMMARY_MAX_LENGTH, 'summary must be shorter than 156 characters');
  string('introduction', 0, 65535);
  if (typeof body.introduction === 'string' && body.introduction.split(/\r\n|\r|\n/).length > INTRODUCTION_MAX_LINES)
    errors.push({ message: 'introduction must have fewer than 50 lines', field: 'introduction' });
  string('conclusion', 0, 65535);
  if (kind === 'create' && body.category === undefined)
    errors.push({ message: 'category is required', field: 'category' });
  string('category', 1, 255);
  if (kind === 'create' && body.type === undefined) errors.push({ message: 'type is required', field: 'type' });
  else if (body.type !== undefined && !GUIDE_TYPES.includes(body.type))
    errors.push({ message: `type must be one of ${GUIDE_TYPES.join(', ')}`, field: 'type' });
  if (errors.length) throw invalid(errors);
  return body;
}

/** The guide's new state: `data` with the body's fields (key order as the service stores it). */
function applyBody(data, body) {
  const next = { ...data };
  for (const field of ['category', 'type', 'title', 'summary', 'introduction', 'conclusion'])
    if (body[field] !== undefined) next[field] = body[field];
  if (body.subject !== undefined) next.subject = body.subject.trim();
  return next;
}

const EMPTY = {
  category: '',
  type: '',
  subject: '',
  title: '',
  summary: '',
  introduction: '',
  conclusion: '',
  difficulty: null,
  time_required_min: 0,
  time_required_max: 0,
  imageid: null,
  flags: [],
  prerequisites: [],
  documents: [],
  featured_documentid: null,
  parts: [],
  tools: [],
  public: false,
  steps: [],
};

/** Inserts the revision and moves the guide to it; false when head_revisionid is no longer `expectedHead`. */
async function saveRevision(q, guide, data, caller, expectedHead) {
  const now = nowSeconds();
  const { insertId: revisionid } = await q(SQL.insertRevision, [
    guide.guideid,
    guide.langid,
    caller.userid,
    now,
    JSON.stringify(data),
  ]);
  const published = data.public && !guide.published_date ? now : guide.published_date;
  const { affected } = await q(SQL.advance, [
    revisionid,
    revisionid,
    data.category,
    data.title,
    data.type,
    data.public ? 1 : 0,
    data.flags.join(','),
    now,
    published,
    guide.guideid,
    expectedHead,
  ]);
  return affected === 1;
}

async function createGuide(caller, body) {
  return transaction(async (q) => {
    const [category] = await q(SQL.category, [sha256(body.category.toLowerCase())]);
    if (!category || Number(category.deleted))
      throw invalid([{ message: `Category ${body.category} does not exist`, field: 'category' }]);
    // Wiki titles match in any case; the guide keeps the category's own spelling.
    const data = { ...applyBody(EMPTY, body), category: category.title };
    if (body.title === undefined) data.title = generatedTitle(data.type, data.category, data.subject);
    data.flags = [IN_PROGRESS];
    const now = nowSeconds();
    const { insertId: guideid } = await q(SQL.insertGuide, [
      caller.userid,
      data.category,
      data.title,
      data.type,
      now,
      now,
    ]);
    if (!(await saveRevision(q, { guideid, langid: 'en', published_date: 0 }, data, caller, 0)))
      throw new Error(`guide ${guideid}: the new guide's head moved`);
    return guideid;
  });
}

async function editGuide(caller, guideid, revisionid, body) {
  await transaction(async (q) => {
    const [guide] = await q(SQL.guide, [guideid]);
    if (!guide || Number(guide.deleted)) throw new HttpError(404, 'Guide not found');
    guide.guideid = guideid;
    guide.published_date = Number(guide.published_date);
    const head = Number(guide.head_revisionid);
    if (revisionid !== head) throw new Stale();
    const [revision] = await q(SQL.revisionData, [head]);
    const data = typeof revision.data === 'string' ? JSON.parse(revision.data) : revision.data;
    const next = applyBody(data, body);
    if (Object.keys(body).every((field) => next[field] === data[field])) return;
    if (!(await saveRevision(q, guide, next, caller, head))) throw new Stale();
  });
}

async function current(guideid, caller) {
  const detail = await guideDetail(guideid, caller);
  if (!detail) throw new HttpError(404, 'Guide not found');
  return detail;
}

function replyError(reply, error) {
  if (error instanceof HttpError) return reply.code(error.status).send(error.body);
  if (error?.statusCode === 501) return reply.code(501).send({ error: true, message: 'baseline: unsupported guide' });
  process.stderr.write(`baseline write failed: ${error?.stack ?? error}\n`);
  return reply.code(500).send({ error: true, message: 'Internal server error' });
}

export function registerWriteRoutes(app) {
  app.post('/api/2.0/guides', async (request, reply) => {
    try {
      const caller = await authenticate(request.headers.authorization);
      const body = checkBody(request.body ?? {}, 'create');
      const guideid = await createGuide(caller, body);
      return reply.code(201).send(await current(guideid, caller));
    } catch (error) {
      return replyError(reply, error);
    }
  });

  app.patch('/api/2.0/guides/:guideid', async (request, reply) => {
    let caller;
    let guideid;
    try {
      caller = await authenticate(request.headers.authorization);
      const raw = request.query.revisionid;
      if (raw === undefined || raw === '') throw invalid([{ message: 'revisionid is required', field: 'revisionid' }]);
      if (typeof raw !== 'string' || !/^\d{1,10}$/.test(raw) || Number(raw) < 1 || Number(raw) > 2147483647)
        throw invalid([{ message: 'revisionid must be an integer from 1 to 2147483647', field: 'revisionid' }]);
      const id = request.params.guideid;
      if (!/^\d{1,10}$/.test(id) || Number(id) < 1 || Number(id) > 2147483647)
        throw new HttpError(404, 'Guide not found');
      guideid = Number(id);
      const body = checkBody(request.body ?? {}, 'edit');
      await editGuide(caller, guideid, Number(raw), body);
      return reply.code(200).send(await current(guideid, caller));
    } catch (error) {
      if (!(error instanceof Stale)) return replyError(reply, error);
      return current(guideid, caller).then(
        (guide) => reply.code(409).send(guide),
        (e) => replyError(reply, e),
      );
    }
  });
}
