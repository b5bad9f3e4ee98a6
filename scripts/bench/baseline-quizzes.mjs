// Baseline of the quizzes workloads (issue #17): hand-written SQL answering the same JSON as the service for
// GET /quizzes (v2 list, the same statement) and POST /quizzes/sessions/submit (validate the answers against
// the pinned revision's survey, grade, then in one transaction: the conditional session update, one
// submission row per question, the quiz's submitted_count, the audit row on the session's hash chain and
// the two outbox events). Deliberate limits: callers by API token; a session's owner submits (no Moderator
// paths); surveys of plain pages and panels, graded as the service grades (quiz-grading.ts, compiled).
import { resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { ROOT, isMysql, query, require, transaction } from './baseline-common.mjs';

const { grade } = require(resolve(ROOT, '.bench-build/src/modules/quizzes/quiz-grading.js'));
const { keyedAuditHash, HashVersion } = require(resolve(ROOT, '.bench-build/src/platform/audit/audit-hash.js'));
const { loadConfig } = require(resolve(ROOT, '.bench-build/src/config/app-config.js'));
const AUDIT_KEY = loadConfig().audit.key;
const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
const jsonOf = (value) => (typeof value === 'string' ? JSON.parse(value) : value);
const num = (v) => (v === null || v === undefined ? null : Number(v));
const AUTHOR_PLUS = new Set(['Author', 'Moderator', 'Admin']);

async function caller(request) {
  const header = request.headers.authorization ?? '';
  if (!header.startsWith('api ')) return undefined;
  const [row] = await query(
    `SELECT u.userid, u.username, u.privileges FROM auth_tokens t JOIN users u ON u.userid = t.userid
      WHERE t.token_hash = ? AND t.revoked_date IS NULL AND u.enabled = 1 AND u.banned = 0`,
    [sha256(header.slice(4))],
  );
  if (!row) return undefined;
  const privileges = String(row.privileges ?? '').split(',').filter(Boolean);
  return { userid: Number(row.userid), username: row.username, privileges };
}

// ---- Q1: GET /quizzes ------------------------------------------------------------------------------------
const SORTS = {
  guideid: 'q.guideid',
  category: 'q.category',
  quiz_title: 'q.title',
  guide_title: 'g.title',
  release_date: 'q.released_date',
  sessions_submitted: 'q.submitted_count',
};

function readableSql(user) {
  const existing = (condition) =>
    `EXISTS (SELECT 1 FROM guides acc_g WHERE acc_g.guideid = q.guideid AND acc_g.deleted = 0 AND ${condition})`;
  if (user.privileges.includes('Moderator') || user.privileges.includes('Admin')) return [existing('1 = 1'), []];
  const granted = `(acc_g.authorid = ? OR EXISTS (SELECT 1 FROM guide_user_grants acc_ug WHERE acc_ug.guideid = acc_g.guideid AND acc_ug.userid = ?)
    OR EXISTS (SELECT 1 FROM guide_team_grants acc_tg JOIN team_members acc_tm ON acc_tm.teamid = acc_tg.teamid
      WHERE acc_tg.guideid = acc_g.guideid AND acc_tm.userid = ?))`;
  return [existing(`(acc_g.public = 1 OR ${granted})`), [user.userid, user.userid, user.userid]];
}

async function quizList(user, { sort, order, limit, offset }) {
  const [readable, params] = readableSql(user);
  const rows = await query(
    `SELECT q.quizid, q.title AS quiz_title, q.guideid, g.title AS guide_title,
        (SELECT r.released_version FROM releases r WHERE r.releaseid = (SELECT MAX(r2.releaseid) FROM releases r2
          WHERE r2.doctype = 'GUIDE' AND r2.docid = q.guideid AND r2.langid = g.langid AND r2.status = 'released')) AS guide_release_version,
        q.submitted_count, q.category, q.released_date
      FROM quizzes q JOIN guides g ON g.guideid = q.guideid
      WHERE q.status <> 'deleted' AND ${readable}
      ORDER BY ${SORTS[sort]} ${order}, q.quizid ${order} LIMIT ? OFFSET ?`,
    [...params, limit, offset],
  );
  return rows.map((row) => ({
    quizid: Number(row.quizid),
    quiz_title: row.quiz_title,
    guideid: Number(row.guideid),
    guide_title: row.guide_title,
    guide_release_version: row.guide_release_version ?? '',
    quizzes_submitted: Number(row.submitted_count),
    category: row.category,
    quiz_last_released: Number(row.released_date),
  }));
}

// ---- Q18: POST /quizzes/sessions/submit ---------------------------------------------------------------------
const NOT_QUESTIONS = new Set(['html', 'expression', 'image']);
/** The survey's questions in page order, panels walked (what survey-core's model lists for these surveys). */
function questionsOf(survey) {
  const out = [];
  const walk = (elements) => {
    for (const e of elements ?? []) {
      if (e.type === 'panel') walk(e.elements);
      else if (!NOT_QUESTIONS.has(e.type)) out.push({ name: e.name, type: e.type, correctAnswer: e.correctAnswer });
    }
  };
  for (const page of survey.pages ?? []) walk(page.elements);
  return out;
}

function sessionBody(row) {
  return {
    sessionid: Number(row.sessionid),
    quizid: Number(row.quizid),
    quiz_revisionid: Number(row.quiz_revisionid),
    userid: Number(row.userid),
    course_stageid: num(row.course_stageid),
    doctype: row.doctype,
    docid: num(row.docid),
    status: row.status,
    answers: row.answers,
    score: num(row.score),
    passed: row.passed === null ? null : Boolean(Number(row.passed)),
    passing_score: Number(row.passing_score),
    guide_releaseid: num(row.guide_releaseid),
    started_date: Number(row.started_date),
    saved_date: num(row.saved_date),
    submitted_date: num(row.submitted_date),
  };
}

async function submit(user, request) {
  const body = request.body ?? {};
  const sessionid = Number(body.sessionid);
  const answers = body.answers;
  if (!Number.isInteger(sessionid) || (answers !== undefined && (typeof answers !== 'object' || answers === null)))
    return [422, { error: true, message: 'sessionid and answers' }];
  const [row] = await query(
    `SELECT s.*, r.survey FROM quiz_sessions s JOIN quiz_revisions r ON r.quiz_revisionid = s.quiz_revisionid
      WHERE s.sessionid = ?`,
    [sessionid],
  );
  if (!row || Number(row.userid) !== user.userid) return [404, { error: true, message: 'Session not found' }];
  const session = sessionBody({ ...row, answers: jsonOf(row.answers) });
  if (session.status !== 'in_progress') return [409, session];
  const questions = questionsOf(jsonOf(row.survey));
  if (answers) {
    const names = new Set(questions.map((q) => q.name));
    const unknown = Object.keys(answers).filter((key) => !names.has(key));
    if (unknown.length)
      return [422, { error: true, errors: unknown.map((key) => ({ field: `answers.${key}`, message: 'not a question' })) }];
  }
  const merged = { ...session.answers, ...(answers ?? {}) };
  const graded = grade(questions, merged, session.passing_score);
  const now = Math.floor(Date.now() / 1000);
  const after = {
    ...session,
    status: 'submitted',
    answers: merged,
    score: graded.score,
    passed: graded.passed,
    saved_date: answers ? now : session.saved_date,
    submitted_date: now,
  };
  const done = await transaction(async (q) => {
    const { affected } = await q(
      `UPDATE quiz_sessions SET status = 'submitted', answers = ?, score = ?, passed = ?, submitted_date = ?, saved_date = ?,
        open_slot = NULL WHERE sessionid = ? AND status = 'in_progress'`,
      [JSON.stringify(merged), graded.score, graded.passed ? 1 : 0, now, after.saved_date, sessionid],
    );
    if (!affected) return false;
    const ids = new Map(
      (await q('SELECT questionid, external_question_uid FROM quiz_questions WHERE quizid = ?', [session.quizid])).map(
        (r) => [r.external_question_uid, Number(r.questionid)],
      ),
    );
    await q(
      `INSERT INTO quiz_submissions (sessionid, questionid, external_question_uid, answer, is_correct, points) VALUES ${graded.results
        .map(() => '(?, ?, ?, ?, ?, ?)')
        .join(', ')}`,
      graded.results.flatMap((r) => [sessionid, ids.get(r.external_question_uid) ?? 0, r.external_question_uid,
        JSON.stringify({ value: r.answer ?? null }), r.correct ? 1 : 0, r.points]),
    );
    await q('UPDATE quizzes SET submitted_count = submitted_count + 1 WHERE quizid = ?', [session.quizid]);
    // The audit row on the session's chain (its head locked on MySQL), then the head moved.
    const occurredAt = Date.now();
    const content = {
      occurredAt,
      actorUserid: user.userid,
      actorName: user.username,
      action: 'quiz_session.submit',
      entityType: 'quiz_session',
      entityId: String(sessionid),
      before: { status: session.status },
      after: { status: 'submitted', score: graded.score, passed: graded.passed, passing_score: session.passing_score },
      reason: null,
      requestId: null,
      ip: request.ip?.slice(0, 64) ?? null,
      userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
    };
    // MySQL: the head row is upserted before it is locked, as the service does (locking an absent row takes a
    // gap lock, and two transactions inserting heads into the same gap deadlock).
    if (isMysql)
      await q(
        `INSERT INTO audit_chain_heads (entity_type, entity_id, last_auditid, last_hash) VALUES ('quiz_session', ?, 0, '')
          ON DUPLICATE KEY UPDATE entity_id = entity_id`,
        [String(sessionid)],
      );
    const [head] = await q(
      `SELECT last_auditid, last_hash FROM audit_chain_heads WHERE entity_type = 'quiz_session' AND entity_id = ?${isMysql ? ' FOR UPDATE' : ''}`,
      [String(sessionid)],
    );
    const prevHash = head && Number(head.last_auditid) !== 0 ? head.last_hash : null;
    const hash = keyedAuditHash(AUDIT_KEY, prevHash, content);
    const { insertId } = await q(
      `INSERT INTO audit_events (occurred_at, actor_userid, actor_name, action, entity_type, entity_id, before_json,
        after_json, reason, request_id, ip, user_agent, prev_hash, hash, hash_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?, ?)`,
      [occurredAt, user.userid, user.username, content.action, 'quiz_session', String(sessionid),
        JSON.stringify(content.before), JSON.stringify(content.after), content.ip, content.userAgent, prevHash, hash,
        HashVersion.keyed],
    );
    await q(
      `INSERT INTO audit_chain_heads (entity_type, entity_id, last_auditid, last_hash) VALUES ('quiz_session', ?, ?, ?) ${
        isMysql
          ? 'ON DUPLICATE KEY UPDATE last_auditid = VALUES(last_auditid), last_hash = VALUES(last_hash), checkpoint_due = 1'
          : 'ON CONFLICT (entity_type, entity_id) DO UPDATE SET last_auditid = excluded.last_auditid, last_hash = excluded.last_hash, checkpoint_due = 1'
      }`,
      [String(sessionid), insertId, hash],
    );
    // Outbox: quiz.session_submitted and quiz.passed / quiz.failed, with the Session (marked dispatched: the
    // baseline has no subscribers, and the service's dispatcher must not deliver its rows).
    const payload = JSON.stringify(after);
    await q(
      `INSERT INTO domain_events (name, entity_type, entity_id, payload, request_id, occurred_at, dispatched_at, attempts,
        next_attempt_at) VALUES (?, 'quiz_session', ?, ?, NULL, ?, ?, 0, 0), (?, 'quiz_session', ?, ?, NULL, ?, ?, 0, 0)`,
      ['quiz.session_submitted', String(sessionid), payload, occurredAt, occurredAt,
        graded.passed ? 'quiz.passed' : 'quiz.failed', String(sessionid), payload, occurredAt, occurredAt],
    );
    return true;
  });
  if (!done) {
    const [current] = await query(`SELECT * FROM quiz_sessions WHERE sessionid = ?`, [sessionid]);
    return [409, sessionBody({ ...current, answers: jsonOf(current.answers) })];
  }
  return [
    200,
    {
      session: after,
      score: graded.score,
      passed: graded.passed,
      passing_score: session.passing_score,
      results: graded.results.map((r) => ({ external_question_uid: r.external_question_uid, correct: r.correct })),
    },
  ];
}

// ---- routes -------------------------------------------------------------------------------------------------
export function registerQuizRoutes(app) {
  app.get('/api/2.0/quizzes', async (request, reply) => {
    const user = await caller(request);
    if (!user) return reply.code(401).send({ error: true, message: 'Authentication required' });
    if (!user.privileges.some((p) => AUTHOR_PLUS.has(p))) return reply.code(403).send({ error: true });
    const { sort = 'release_date', order = 'DESC', limit, offset, ...rest } = request.query;
    if (Object.keys(rest).length || !SORTS[sort] || !['ASC', 'DESC'].includes(order))
      return reply.code(501).send({ error: 'baseline: sort/order/limit/offset only' });
    return quizList(user, {
      sort,
      order,
      limit: Math.min(200, Math.max(1, Number(limit ?? 20) || 20)),
      offset: Math.max(0, Number(offset ?? 0) || 0),
    });
  });
  app.post('/api/2.0/quizzes/sessions/submit', async (request, reply) => {
    const user = await caller(request);
    if (!user) return reply.code(401).send({ error: true, message: 'Authentication required' });
    const [status, body] = await submit(user, request);
    return reply.code(status).send(body);
  });
}
