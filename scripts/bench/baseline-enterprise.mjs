// Baseline of the enterprise workloads (issues #15, #16, #18): hand-written SQL answering the same JSON as
// the service for what the bench asks: the guide release list, the approver's eligible approval requests,
// signing one (argon2id verify with the service's settings, then the writes in one transaction), a
// worker's work-log list of one guide, recording step data, and a reviewer's documents by state.
// Deliberate limits: the callers are the bench's plain users (no Moderator paths, no grants), GUIDE
// releases only, approvals without sign codes, Text Input fields only, documents of GUIDE and WIKI.
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { PUBLIC_URL, ROOT, guideUrl, lightUsersOf, placeholders, query, require, transaction } from './baseline-common.mjs';

const { verify } = require('@node-rs/argon2');
const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
const num = (v) => (v === null || v === undefined ? null : Number(v));
const DAY = 86_400;
const nowSeconds = () => Math.floor(Date.now() / 1000);
// Wiki URLs as the service builds them (its compiled namespace table).
const { wikiUrl } = require(resolve(ROOT, '.bench-build/src/modules/wikis/wiki-namespaces.js'));

/** The caller of `authorization: api <token>`, one statement; undefined when unknown or revoked. */
async function caller(request) {
  const header = request.headers.authorization ?? '';
  if (!header.startsWith('api ')) return undefined;
  const [row] = await query(
    `SELECT u.userid, u.privileges FROM auth_tokens t JOIN users u ON u.userid = t.userid
      WHERE t.token_hash = ? AND t.revoked_date IS NULL AND u.enabled = 1 AND u.banned = 0`,
    [sha256(header.slice(4))],
  );
  return row ? { userid: Number(row.userid), privileges: row.privileges } : undefined;
}
const unauthorized = (reply) => reply.code(401).send({ error: true, message: 'Authentication required' });

const USER_LIGHT = (alias, prefix) =>
  ['userid', 'username', 'unique_username', 'join_date', 'reputation', 'imageid']
    .map((c) => `${alias}.${c} AS ${prefix}${c}`)
    .join(', ');
const userColumns = (row, prefix) =>
  row[`${prefix}userid`] === null || row[`${prefix}userid`] === undefined
    ? null
    : {
        userid: row[`${prefix}userid`],
        username: row[`${prefix}username`],
        unique_username: row[`${prefix}unique_username`],
        join_date: row[`${prefix}join_date`],
        reputation: row[`${prefix}reputation`],
        imageid: row[`${prefix}imageid`],
      };

// ---- releases ---------------------------------------------------------------------------------------------
const RELEASE_COLUMNS = `r.releaseid, r.doctype, r.docid, r.langid, r.revisionid, r.userid, r.status, r.title, r.notes,
  r.type, r.version_major, r.version_minor, r.init_date, r.release_date, r.approval_requestid, r.periodic_review_confirmed`;

function release(row, user, prefix = '') {
  const c = (name) => row[`${prefix}${name}`];
  return {
    id: Number(c('releaseid')),
    releaseid: Number(c('releaseid')),
    ...(c('doctype') === 'GUIDE' ? { guideid: Number(c('docid')) } : { wikiid: Number(c('docid')) }),
    langid: c('langid'),
    revisionid: Number(c('revisionid')),
    user,
    status: c('status'),
    title: c('title'),
    init_date: Number(c('init_date')),
    release_date: num(c('release_date')),
    notes: c('notes'),
    type: c('type'),
    doctype: c('doctype'),
    docid: Number(c('docid')),
    version: `${c('version_major')}.${c('version_minor')}`,
    approval_requestid: num(c('approval_requestid')),
    periodic_review_confirmed: Boolean(Number(c('periodic_review_confirmed'))),
  };
}

/** GET /guides/releases for a plain user: released releases of public guides, and all of guides they edit. */
async function guideReleases(user, limit, offset) {
  const granted = `(g.authorid = ? OR EXISTS (SELECT 1 FROM guide_user_grants ug WHERE ug.guideid = g.guideid AND ug.userid = ?)
    OR EXISTS (SELECT 1 FROM guide_team_grants tg JOIN team_members tm ON tm.teamid = tg.teamid
      WHERE tg.guideid = g.guideid AND tm.userid = ?))`;
  const rows = await query(
    `SELECT ${RELEASE_COLUMNS}, ${USER_LIGHT('u', 'u_')}
      FROM releases r JOIN guides g ON g.guideid = r.docid AND g.deleted = 0
      LEFT JOIN users u ON u.userid = r.userid
      WHERE r.doctype = 'GUIDE' AND (${granted} OR (r.status = 'released' AND (g.public = 1 OR ${granted})))
      ORDER BY r.releaseid LIMIT ? OFFSET ?`,
    [user.userid, user.userid, user.userid, user.userid, user.userid, user.userid, limit, offset],
  );
  const users = rows.map((row) => userColumns(row, 'u_') ?? unknownUser(row.userid));
  const light = await lightUsersOf(users);
  return { releases: rows.map((row, i) => release(row, light.get(Number(users[i].userid)))) };
}
const unknownUser = (userid) => ({ userid, username: 'Unknown', unique_username: null, join_date: 0, reputation: 0, imageid: null });

// ---- approval requests ---------------------------------------------------------------------------------------
/** Request bodies (A8) in one statement plus the users' teams (and avatars): by filter `where` on `p`. */
async function approvalRequests(callerid, where, params, limit, offset) {
  const myTeams = 'SELECT tm.teamid FROM team_members tm WHERE tm.userid = ?';
  const rows = await query(
    `SELECT ar.approval_requestid, ar.status, ar.releaseid, ar.doctype, ar.docid, ar.document_title, ar.requested_by,
        ar.init_date, ar.end_date, ar.approval_processid, ar.approval_process_revisionid, ar.process_name,
        ar.current_stage, ar.stage_count,
        s.orderby, s.status AS s_status, s.init_date AS s_init_date, s.end_date AS s_end_date, s.userid AS s_userid,
        s.teamid AS s_teamid, s.required_signatures, t.name AS t_name,
        sig.signatureid, sig.userid AS sig_userid, sig.printed_name, sig.signed_at, sig.meaning, sig.note, ss.decision,
        ${RELEASE_COLUMNS.replace(/r\.(\w+)/g, 'rel.$1 AS rel_$1')},
        ${USER_LIGHT('ru', 'ru_')}, ${USER_LIGHT('su', 'su_')},
        CASE WHEN ar.status = 'pending' AND s.orderby = ar.current_stage AND s.status = 'pending' AND ar.requested_by <> ?
          AND (s.userid = ? OR s.teamid IN (${myTeams}))
          AND NOT EXISTS (SELECT 1 FROM approval_stage_signatures y
            WHERE y.approval_requestid = s.approval_requestid AND y.orderby = s.orderby AND y.userid = ?)
          THEN 1 ELSE 0 END AS can_sign
      FROM (SELECT p.approval_requestid FROM approval_requests p WHERE ${where}
            ORDER BY p.approval_requestid LIMIT ${Number(limit)} OFFSET ${Number(offset)}) page
      JOIN approval_requests ar ON ar.approval_requestid = page.approval_requestid
      JOIN approval_request_stages s ON s.approval_requestid = ar.approval_requestid
      LEFT JOIN approval_stage_signatures ss ON ss.approval_requestid = s.approval_requestid AND ss.orderby = s.orderby
      LEFT JOIN signatures sig ON sig.signatureid = ss.signatureid
      LEFT JOIN teams t ON t.teamid = s.teamid
      LEFT JOIN users su ON su.userid = s.userid
      LEFT JOIN users ru ON ru.userid = ar.requested_by
      LEFT JOIN releases rel ON rel.releaseid = ar.releaseid
      ORDER BY ar.approval_requestid, s.orderby, sig.signatureid`,
    [callerid, callerid, callerid, callerid, ...params],
  );
  const seen = new Map();
  for (const row of rows) {
    const ru = userColumns(row, 'ru_') ?? unknownUser(Number(row.requested_by));
    seen.set(Number(ru.userid), ru);
    const su = userColumns(row, 'su_');
    if (su) seen.set(Number(su.userid), su);
  }
  const light = await lightUsersOf([...seen.values()]);
  const bodies = new Map();
  const stages = new Map();
  for (const row of rows) {
    const id = Number(row.approval_requestid);
    let body = bodies.get(id);
    if (!body) {
      const requestedBy = light.get(Number(row.requested_by));
      body = {
        approval_requestid: id,
        status: row.status,
        releaseid: Number(row.releaseid),
        release: release(row, requestedBy, 'rel_'),
        doctype: row.doctype,
        docid: Number(row.docid),
        document_title: row.document_title,
        requested_by: requestedBy,
        init_date: Number(row.init_date),
        end_date: num(row.end_date),
        process: {
          approval_processid: Number(row.approval_processid),
          approval_process_revisionid: Number(row.approval_process_revisionid),
          name: row.process_name,
        },
        current_stage: num(row.current_stage),
        stage_count: Number(row.stage_count),
        stages: [],
        eligible: false,
      };
      bodies.set(id, body);
    }
    const key = `${id}:${row.orderby}`;
    let stage = stages.get(key);
    if (!stage) {
      stage = {
        orderby: Number(row.orderby),
        status: row.s_status,
        init_date: num(row.s_init_date),
        end_date: num(row.s_end_date),
        user: row.s_userid === null ? null : (light.get(Number(row.s_userid)) ?? null),
        team: row.s_teamid === null ? null : { teamid: Number(row.s_teamid), name: row.t_name ?? '' },
        required_signatures: Number(row.required_signatures),
        signatures: [],
      };
      stages.set(key, stage);
      body.stages.push(stage);
    }
    if (row.signatureid !== null && row.decision)
      stage.signatures.push({
        userid: Number(row.sig_userid),
        printed_name: row.printed_name,
        signed_at: Number(row.signed_at),
        meaning: row.meaning,
        note: row.note,
        decision: row.decision,
      });
    if (Number(row.can_sign) === 1) body.eligible = true;
  }
  return [...bodies.values()];
}

function eligibleWhere(callerid) {
  return {
    where: `p.status = 'pending' AND p.requested_by <> ? AND EXISTS (SELECT 1 FROM approval_request_stages es
      WHERE es.approval_requestid = p.approval_requestid AND es.orderby = p.current_stage AND es.status = 'pending'
        AND (es.userid = ? OR es.teamid IN (SELECT tm.teamid FROM team_members tm WHERE tm.userid = ?))
        AND NOT EXISTS (SELECT 1 FROM approval_stage_signatures x
          WHERE x.approval_requestid = es.approval_requestid AND x.orderby = es.orderby AND x.userid = ?))`,
    params: [callerid, callerid, callerid, callerid],
  };
}

/** Audit row without the service's per-entity hash chain (a hash of the row itself). */
async function audit(q, userid, action, entityType, entityId, after) {
  const now = Date.now();
  const json = JSON.stringify(after);
  await q(
    `INSERT INTO audit_events (occurred_at, actor_userid, actor_name, action, entity_type, entity_id, before_json,
      after_json, reason, request_id, ip, user_agent, prev_hash, hash) VALUES (?, ?, NULL, ?, ?, ?, NULL, ?, NULL, NULL, NULL, NULL, NULL, ?)`,
    [now, userid, action, entityType, String(entityId), json, sha256(`${action}${entityId}${json}`)],
  );
}
async function event(q, name, entityType, entityId, payload) {
  await q(
    `INSERT INTO domain_events (name, entity_type, entity_id, payload, request_id, occurred_at, dispatched_at, attempts,
      next_attempt_at) VALUES (?, ?, ?, ?, NULL, ?, ?, 0, 0)`,
    [name, entityType, String(entityId), JSON.stringify(payload), Date.now(), Date.now()],
  );
}

/** POST /approvals/request/sign/{id} with a password: approve stage 1 of a two-stage request, open stage 2. */
async function sign(user, id, body) {
  if (body?.decision !== 'approve' || typeof body.password !== 'string') return [501, { error: 'baseline: approve with password only' }];
  const [account] = await query(
    `SELECT u.username, u.password_hash, l.locked_until, ar.status, ar.current_stage, ar.requested_by, ar.stage_count,
        s.status AS s_status, s.userid AS s_userid, s.teamid AS s_teamid, ar.doctype, ar.docid, ar.revisionid,
        (SELECT COUNT(*) FROM team_members tm WHERE tm.teamid = s.teamid AND tm.userid = u.userid) AS in_team,
        (SELECT COUNT(*) FROM approval_stage_signatures x WHERE x.approval_requestid = ar.approval_requestid
          AND x.orderby = ar.current_stage AND x.userid = u.userid) AS signed
      FROM users u
      LEFT JOIN signature_lockouts l ON l.userid = u.userid
      LEFT JOIN approval_requests ar ON ar.approval_requestid = ?
      LEFT JOIN approval_request_stages s ON s.approval_requestid = ar.approval_requestid AND s.orderby = ar.current_stage
      WHERE u.userid = ?`,
    [id, user.userid],
  );
  if (!account?.status) return [404, { error: true, message: 'Approval request not found' }];
  if (account.status !== 'pending') return [409, { error: true }];
  const eligible =
    account.s_status === 'pending' &&
    Number(account.requested_by) !== user.userid &&
    (Number(account.s_userid) === user.userid || Number(account.in_team) > 0) &&
    Number(account.signed) === 0;
  if (!eligible) return [403, { error: true, message: 'Not eligible to sign' }];
  if (account.locked_until !== null && Number(account.locked_until) > Date.now()) return [429, { error: true }];
  if (!account.password_hash || !(await verify(account.password_hash, body.password).catch(() => false)))
    return [403, { error: true, message: 'Signature authentication failed' }];
  const stage = Number(account.current_stage);
  const moved = await transaction(async (q) => {
    const lock = (await q(
      `SELECT status, current_stage FROM approval_requests WHERE approval_requestid = ?${isMysqlLock()}`,
      [id],
    ))[0];
    if (!lock || lock.status !== 'pending' || Number(lock.current_stage) !== stage) return false;
    const now = nowSeconds();
    const recordHash = sha256(`${account.doctype}:${account.docid}:${account.revisionid}`);
    const { insertId } = await q(
      `INSERT INTO signatures (subject_type, subject_id, userid, printed_name, meaning, note, signed_at, auth_method,
        record_hash, request_id) VALUES ('approval_request', ?, ?, ?, 'approval', '', ?, 'password', ?, NULL)`,
      [String(id), user.userid, account.username, now, recordHash],
    );
    await q(
      `INSERT INTO approval_stage_signatures (approval_requestid, orderby, userid, signatureid, decision) VALUES (?, ?, ?, ?, 'approve')`,
      [id, stage, user.userid, insertId],
    );
    const last = stage === Number(account.stage_count);
    await q(`UPDATE approval_request_stages SET status = 'approved', end_date = ? WHERE approval_requestid = ? AND orderby = ?`, [now, id, stage]);
    if (last) {
      await q(`UPDATE approval_requests SET status = 'approved', current_stage = NULL, end_date = ? WHERE approval_requestid = ?`, [now, id]);
    } else {
      await q(`UPDATE approval_request_stages SET status = 'pending', init_date = ? WHERE approval_requestid = ? AND orderby = ?`, [now, id, stage + 1]);
      await q(`UPDATE approval_requests SET current_stage = ? WHERE approval_requestid = ?`, [stage + 1, id]);
    }
    const after = { approval_requestid: id, stage, decision: 'approve', signatureid: insertId };
    await audit(q, user.userid, 'approval_request.approve', 'approval_request', id, after);
    await event(q, 'approval_request.signed', 'approval_request', id, after);
    return true;
  });
  if (!moved) return [409, { error: true }];
  const [answer] = await approvalRequests(user.userid, 'p.approval_requestid = ?', [id], 1, 0);
  return [200, answer];
}
const isMysqlLock = () => ((process.env.DB_TYPE ?? 'sqlite') !== 'sqlite' ? ' FOR UPDATE' : '');

// ---- work log -------------------------------------------------------------------------------------------------
const ENTRY_COLUMNS = `e.entryid, e.guideid, e.userid, e.workorderid, e.status, e.starttime, e.endtime, e.guide_revisionid,
  e.max_form_revisionid, e.releaseid, e.release_version, e.paused_seconds, e.paused_at, e.current_stepid, e.timingid`;

async function entryChildren(entryids) {
  const children = new Map(entryids.map((id) => [id, { data: [], timings: [], signoffs: [] }]));
  if (!entryids.length) return children;
  const ids = placeholders(entryids.length);
  const rows = await query(
    `SELECT 'd' AS k, entryid, dataid AS id, field_revisionid AS n1, stepid AS n2, date AS n3, value AS t1, label AS t2, field_guid AS t3
      FROM work_log_data WHERE entryid IN (${ids})
     UNION ALL SELECT 't', entryid, timingid, stepid, date_start, date_end, NULL, NULL, NULL FROM work_log_timings WHERE entryid IN (${ids})
     UNION ALL SELECT 's', entryid, signoffid, stepid, teamid, NULL, status, NULL, NULL FROM work_log_signoffs WHERE entryid IN (${ids})
     ORDER BY k, id`,
    [...entryids, ...entryids, ...entryids],
  );
  for (const row of rows) {
    const c = children.get(Number(row.entryid));
    if (row.k === 'd') {
      // The newest value per field_guid, in the order the fields were first recorded.
      const prior = c.data.findIndex((d) => d.field_guid === row.t3);
      const value = { label: row.t2, value: String(row.t1), field_revisionid: Number(row.n1), stepid: Number(row.n2), field_guid: row.t3, date: Number(row.n3) };
      if (prior >= 0) c.data[prior] = value;
      else c.data.push(value);
    } else if (row.k === 't') {
      c.timings.push({ timingid: Number(row.id), stepid: Number(row.n1), date_start: Number(row.n2), date_end: num(row.n3) });
    } else {
      c.signoffs.push({ signoffid: Number(row.id), stepid: Number(row.n1), teamid: Number(row.n2), status: String(row.t1) });
    }
  }
  return children;
}

function entryBody(e, children, now) {
  const endtime = num(e.endtime);
  return {
    id: Number(e.entryid),
    entryid: Number(e.entryid),
    guideid: Number(e.guideid),
    userid: Number(e.userid),
    workorderid: e.workorderid,
    starttime: Number(e.starttime),
    endtime,
    max_form_revisionid: Number(e.max_form_revisionid),
    cancelled: e.status === 'cancelled' ? 1 : 0,
    guide_revisionid: Number(e.guide_revisionid),
    duration: Math.max(0, (endtime ?? now) - Number(e.starttime)),
    status: e.status,
    work_data: children.data,
    timingid: num(e.timingid),
    paused_seconds: Number(e.paused_seconds) + (e.status === 'paused' && e.paused_at ? now - Number(e.paused_at) : 0),
    current_stepid: num(e.current_stepid),
    timings: children.timings,
    signoffs: children.signoffs,
    release: e.releaseid ? { releaseid: Number(e.releaseid), version: e.release_version ?? '' } : null,
  };
}

async function workLogList(user, guideid, limit, offset) {
  const rows = await query(
    `SELECT ${ENTRY_COLUMNS} FROM work_log_entries e WHERE e.deleted = 0 AND e.userid = ?${guideid ? ' AND e.guideid = ?' : ''}
      ORDER BY e.entryid LIMIT ? OFFSET ?`,
    guideid ? [user.userid, guideid, limit, offset] : [user.userid, limit, offset],
  );
  const children = await entryChildren(rows.map((r) => Number(r.entryid)));
  const now = nowSeconds();
  return { results: rows.map((e) => entryBody(e, children.get(Number(e.entryid)), now)) };
}

async function formsAsOf(guideid, max) {
  const rows = await query(
    `SELECT f.form_revisionid, f.stepid, f.signoff_teamid, f.removed, x.field_revisionid, x.field_guid, x.label, x.field_type,
        x.required, x.placeholder, x.textarea, x.options
      FROM step_forms f LEFT JOIN step_form_fields x ON x.form_revisionid = f.form_revisionid
      WHERE f.guideid = ? AND f.form_revisionid <= ? ORDER BY f.form_revisionid, x.orderby`,
    [guideid, max],
  );
  const newest = new Map();
  for (const row of rows) {
    let form = newest.get(Number(row.stepid));
    if (!form || form.form_revisionid !== Number(row.form_revisionid)) {
      form = { stepid: Number(row.stepid), form_revisionid: Number(row.form_revisionid), signoff_teamid: num(row.signoff_teamid), fields: [], removed: Number(row.removed) };
      newest.set(form.stepid, form);
    }
    if (row.field_revisionid !== null)
      form.fields.push({
        field_revisionid: Number(row.field_revisionid),
        field_guid: row.field_guid,
        label: row.label,
        field_type: row.field_type,
        required: Boolean(Number(row.required)),
        placeholder: row.placeholder,
        textarea: Boolean(Number(row.textarea)),
        options: typeof row.options === 'string' ? JSON.parse(row.options) : row.options,
        unit: null,
        min: null,
        max: null,
      });
  }
  return [...newest.values()].filter((f) => !f.removed).map(({ removed, ...form }) => (void removed, form));
}

/** PUT /work_log/{entryid}/stepData with Text Input values (no stepid, no lasttimingid). */
async function recordStepData(user, entryid, body) {
  const fields = body?.fields;
  if (!fields || typeof fields !== 'object' || body.stepid !== undefined || body.lasttimingid !== undefined)
    return [501, { error: 'baseline: fields only' }];
  const [entry] = await query(`SELECT ${ENTRY_COLUMNS} FROM work_log_entries e WHERE e.entryid = ? AND e.deleted = 0`, [entryid]);
  if (!entry || Number(entry.userid) !== user.userid) return [404, { error: true, message: 'Entry not found' }];
  if (entry.status !== 'started') return [409, { error: true }];
  const keys = Object.keys(fields);
  const defs = await query(
    `SELECT field_revisionid, field_guid, stepid, label, field_type FROM step_form_fields
      WHERE guideid = ? AND field_revisionid IN (${placeholders(keys.length)})`,
    [Number(entry.guideid), ...keys.map(Number)],
  );
  const byId = new Map(defs.map((d) => [String(d.field_revisionid), d]));
  const rows = [];
  for (const key of keys) {
    const def = byId.get(key);
    if (!def || def.field_type !== 'Text Input' || typeof fields[key] !== 'string')
      return [422, { error: true, message: 'Not a Text Input field of this guide', field: `fields.${key}` }];
    rows.push([Number(def.field_revisionid), def.field_guid, Number(def.stepid), def.label, fields[key]]);
  }
  const now = nowSeconds();
  const ok = await transaction(async (q) => {
    const { affected } = await q(
      `UPDATE work_log_entries SET write_count = write_count + 1 WHERE entryid = ? AND status = 'started'`,
      [entryid],
    );
    if (!affected) return false;
    await q(
      `INSERT INTO work_log_data (entryid, field_revisionid, field_guid, stepid, label, value, userid, date) VALUES ${rows
        .map(() => '(?, ?, ?, ?, ?, ?, ?, ?)')
        .join(', ')}`,
      rows.flatMap((r) => [entryid, ...r, user.userid, now]),
    );
    const after = { values: rows.map((r) => ({ field_revisionid: r[0], field_guid: r[1], value: r[4] })) };
    await audit(q, user.userid, 'work_log.record', 'work_log_entry', entryid, after);
    await event(q, 'work_log.data_recorded', 'work_log_entry', entryid, after);
    return true;
  });
  if (!ok) return [409, { error: true }];
  const [children, forms] = await Promise.all([
    entryChildren([entryid]),
    formsAsOf(Number(entry.guideid), Number(entry.max_form_revisionid)),
  ]);
  return [200, { ...entryBody(entry, children.get(entryid), nowSeconds()), forms }];
}

// ---- periodic review ------------------------------------------------------------------------------------------
/** GET /periodic_review/documents/{userid}?state= for that user: one statement for the page, then the users. */
async function reviewDocuments(userid, state, limit, offset) {
  const now = nowSeconds();
  const opens = 'd.next_due_date - s.completion_window_days * 86400';
  const stateSql = { scheduled: ` AND ? < ${opens}`, open: ` AND ? >= ${opens} AND ? < d.next_due_date`, overdue: ' AND ? >= d.next_due_date' };
  const stateParams = { scheduled: [now], open: [now, now], overdue: [now] };
  const rows = await query(
    `SELECT d.prdid, d.prsid, d.doctype, d.docid, d.next_due_date, d.last_reviewed_date, s.completion_window_days,
        g.title AS g_title, g.guideid, w.namespace AS w_namespace, w.title AS w_title, w.wikiid,
        ${USER_LIGHT('u', 'u_')}
      FROM periodic_review_documents d
      JOIN periodic_review_schedules s ON s.prsid = d.prsid
      LEFT JOIN guides g ON d.doctype = 'GUIDE' AND g.guideid = d.docid AND g.deleted = 0
      LEFT JOIN wikis w ON d.doctype = 'WIKI' AND w.wikiid = d.docid AND w.deleted = 0
      LEFT JOIN users u ON u.userid = COALESCE(d.reviewer_userid, s.default_reviewer_userid,
        CASE d.doctype WHEN 'GUIDE' THEN g.authorid ELSE w.authorid END)
      WHERE d.member_slot = 1
        AND (COALESCE(d.reviewer_userid, s.default_reviewer_userid, CASE d.doctype WHEN 'GUIDE' THEN g.authorid ELSE w.authorid END) = ?
          OR EXISTS (SELECT 1 FROM team_members tm WHERE tm.teamid = s.default_teamid AND tm.userid = ?))
        ${state ? stateSql[state] : ''}
      ORDER BY d.prdid LIMIT ? OFFSET ?`,
    [userid, userid, ...(state ? stateParams[state] : []), limit, offset],
  );
  const users = rows.map((r) => userColumns(r, 'u_')).filter(Boolean);
  const light = await lightUsersOf(users);
  return rows.map((r) => {
    const due = Number(r.next_due_date);
    const opensAt = due - Number(r.completion_window_days) * DAY;
    const guide = r.doctype === 'GUIDE' && r.guideid !== null;
    const wiki = r.doctype === 'WIKI' && r.wikiid !== null;
    return {
      prdid: Number(r.prdid),
      prsid: Number(r.prsid),
      doctype: r.doctype,
      docid: Number(r.docid),
      title: guide ? r.g_title : wiki ? r.w_title : '',
      url: guide ? guideUrl(r.docid, r.g_title) : wiki ? wikiUrl(PUBLIC_URL, r.w_namespace, r.w_title) : '',
      reviewer: r.u_userid === null ? null : (light.get(Number(r.u_userid)) ?? null),
      next_due_date: due,
      window_opens_date: opensAt,
      last_reviewed_date: num(r.last_reviewed_date),
      state: now < opensAt ? 'scheduled' : now < due ? 'open' : 'overdue',
    };
  });
}

// ---- routes ---------------------------------------------------------------------------------------------------
const pageOf = (q) => ({
  limit: Math.min(200, Math.max(1, Number(q.limit ?? 20) || 20)),
  offset: Math.max(0, Number(q.offset ?? 0) || 0),
});

export function registerEnterpriseRoutes(app) {
  app.get('/api/2.0/guides/releases', async (request, reply) => {
    const user = await caller(request);
    if (!user) return unauthorized(reply);
    const { limit, offset, ...rest } = request.query;
    if (Object.keys(rest).length) return reply.code(501).send({ error: 'baseline: limit/offset only' });
    return guideReleases(user, ...Object.values(pageOf({ limit, offset })));
  });
  app.get('/api/2.0/approvals/requests', async (request, reply) => {
    const user = await caller(request);
    if (!user) return unauthorized(reply);
    const { eligibility, limit, offset, ...rest } = request.query;
    if (eligibility !== 'eligible' || Object.keys(rest).length) return reply.code(501).send({ error: 'baseline: eligible only' });
    const page = pageOf({ limit, offset });
    const { where, params } = eligibleWhere(user.userid);
    return approvalRequests(user.userid, where, params, page.limit, page.offset);
  });
  app.post('/api/2.0/approvals/request/sign/:id', async (request, reply) => {
    const user = await caller(request);
    if (!user) return unauthorized(reply);
    const [status, body] = await sign(user, Number(request.params.id), request.body);
    return reply.code(status).send(body);
  });
  app.get('/api/2.0/work_log', async (request, reply) => {
    const user = await caller(request);
    if (!user) return unauthorized(reply);
    const { guideid, limit, offset, ...rest } = request.query;
    if (Object.keys(rest).length) return reply.code(501).send({ error: 'baseline: guideid/limit/offset only' });
    const page = pageOf({ limit, offset });
    return workLogList(user, guideid ? Number(guideid) : undefined, page.limit, page.offset);
  });
  app.put('/api/2.0/work_log/:entryid/stepData', async (request, reply) => {
    const user = await caller(request);
    if (!user) return unauthorized(reply);
    const [status, body] = await recordStepData(user, Number(request.params.entryid), request.body);
    return reply.code(status).send(body);
  });
  app.get('/api/2.0/periodic_review/documents/:userid', async (request, reply) => {
    const user = await caller(request);
    if (!user) return unauthorized(reply);
    const userid = Number(request.params.userid);
    if (userid !== user.userid) return reply.code(501).send({ error: 'baseline: own documents only' });
    const { state, limit, offset, ...rest } = request.query;
    if (Object.keys(rest).length) return reply.code(501).send({ error: 'baseline: state/limit/offset only' });
    const page = pageOf({ limit, offset });
    return reviewDocuments(userid, state, page.limit, page.offset);
  });
}
