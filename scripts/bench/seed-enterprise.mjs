// Bulk seed of the enterprise data set (issues #15, #16, #18) with raw multi-row INSERTs, after seed.mjs
// (users, categories, guides): teams, approval processes and requests, releases, step forms and work-log
// entries with their captured values, periodic-review schedules and documents. Sizes: --releases,
// --approvals, --worklog, --reviews (see enterpriseSizes). Everything here is deterministic so the
// workloads (workloads-enterprise.mjs) know which ids to ask for.
import { createHash } from 'node:crypto';
import { insertMany, progress, require } from './lib.mjs';
import { STEPS } from './seed-guides.mjs';

const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
export const ENTERPRISE_NOW = Math.floor(Date.now() / 1000);
const NOW = ENTERPRISE_NOW;
const DAY = 86_400;

// ---- users with a role in the enterprise workloads (all seeded by seed.mjs as plain users) ------------
// The signers of approval-sign, taken in turn: while a signer has an attempt under way, the signing lockout counts
// their successes of the last 10 seconds (docs/signatures.md), so one signer's overlapping requests are refused
// with 429. With 40 signers and 10 connections a signer's next request starts about four requests after the last
// ended. None of them writes releases (authors are users 1, 11, 21…); reviewers are users 14..33.
export const APPROVERS = [2, ...Array.from({ length: 66 }, (_, i) => 34 + i).filter((u) => u % 10 !== 1)]
  .slice(0, 40)
  .map((userid) => ({ userid, token: `rgcs-bench-approver-token-6d1f0a9c4e7b-${userid}` }));
export const APPROVER = APPROVERS[0];
export const WORKER = { userid: 3, token: 'rgcs-bench-worker-token-8b2e5c7a1d30' };
export const REVIEWER = { userid: 14, token: 'rgcs-bench-reviewer-token-2f9d4b6e8a15' };
/** The approver's password (argon2id with the service's own settings, src/common/security/password.ts). */
export const APPROVER_PASSWORD = 'bench approver password';
export const STAGE2_USERID = 5;
export const TEAMS = 25;
export const APPROVER_TEAMS = 20;
export const PROCESSES = 200;
export const WL_GUIDES = 1; // guide 1 carries the work-log entries that are listed and exported
export const WL_WRITE_GUIDES = 10; // guides 2..11 carry the started entries PUT stepData writes to
export const WL_WORKERS = 10; // users 3..12 own the entries
export const FORMS_PER_GUIDE = 4;
export const FIELDS_PER_FORM = 5; // 4 × 5 = 20 captured values per entry
export const SCHEDULES = 50;
export const REVIEWERS = 20; // users 14..33 review the documents

export function enterpriseSizes(options) {
  const approvals = Math.min(options.approvals, options.guides);
  return {
    releases: Math.max(options.releases, approvals),
    approvals,
    worklog: options.worklog,
    worklogWrites: options.worklog ? options.worklogWrites : 0,
    reviews: options.reviews,
  };
}

export const fieldGuid = (fieldRevisionid) => `bf${String(fieldRevisionid).padStart(14, '0')}`;
export const formRevisionid = (guideid, k) => (guideid - 1) * FORMS_PER_GUIDE + k + 1;
export const fieldRevisionid = (guideid, k, j) => (formRevisionid(guideid, k) - 1) * FIELDS_PER_FORM + j + 1;
export const formStepid = (guideid, k) => (guideid - 1) * STEPS + k + 1;
export const fieldLabel = (k, j) => `Measurement ${k + 1}.${j + 1}`;
export const approvalTeam = (a) => ((((a - 1) % PROCESSES) + 1 - 1) % TEAMS) + 1;
/** An approval request the approver may sign now (stage 1 of one of their teams, pending). */
export const approverEligible = (a) => approvalTeam(a) <= APPROVER_TEAMS;
/** Work-log entry e (1-based) of the list set: guide, owner. */
export const entryGuide = (e) => ((e - 1) % WL_GUIDES) + 1;
export const entryOwner = (e) => 3 + ((e - 1) % WL_WORKERS);

export async function seedEnterprise(db, options, ctx) {
  const sizes = enterpriseSizes(options);
  const { authorIds, guides, categories } = ctx;
  if (sizes.worklog && guides < WL_GUIDES + WL_WRITE_GUIDES)
    throw new Error(`the work log needs at least ${WL_GUIDES + WL_WRITE_GUIDES} guides`);
  const { hash } = require('@node-rs/argon2');
  const passwordHash = await hash(APPROVER_PASSWORD, { memoryCost: 19456, timeCost: 2, parallelism: 1 });
  const q = db.type === 'mysql' ? '`' : '"';
  for (const approver of APPROVERS)
    await db.run(`UPDATE users SET password_hash = ? WHERE userid = ?`, [passwordHash, approver.userid]);
  await insertMany(
    db,
    'auth_tokens',
    ['tokenid', 'userid', 'token_hash', 'app_id', 'created_date', 'last_used_date', 'revoked_date'],
    [...APPROVERS, WORKER, REVIEWER].map((u, i) => [i + 2, u.userid, sha256(u.token), 'bench', NOW, NOW, null]),
  );
  // Teams: the approvers are in teams 1..20, the reviewers in team 25.
  await insertMany(
    db,
    'teams',
    ['teamid', 'name', 'description', 'owner_userid', 'created_by_userid', 'created_date'],
    Array.from({ length: TEAMS }, (_, i) => [i + 1, `Bench team ${i + 1}`, '', 1, 1, NOW - DAY]),
  );
  const members = [];
  for (let t = 1; t <= APPROVER_TEAMS; t++) for (const approver of APPROVERS) members.push([t, approver.userid, NOW - DAY]);
  for (let t = 1; t <= TEAMS; t++) members.push([t, 100 + t, NOW - DAY]);
  await insertMany(db, 'team_members', ['teamid', 'userid', 'joined_date'], members);

  // ---- approval processes (one revision, two stages: a team, then a user) -----------------------------
  if (sizes.approvals) {
    const processes = [];
    const revisions = [];
    const stages = [];
    for (let p = 1; p <= PROCESSES; p++) {
      processes.push([p, p, `Bench process ${p}`, 0, NOW - 30 * DAY, NOW - 30 * DAY]);
      revisions.push([p, p, `Bench process ${p}`, NOW - 30 * DAY]);
      stages.push([2 * p - 1, p, 1, null, ((p - 1) % TEAMS) + 1, 1]);
      stages.push([2 * p, p, 2, STAGE2_USERID, null, 1]);
    }
    await insertMany(
      db,
      'approval_processes',
      ['approval_processid', 'current_revisionid', 'name', 'site_default', 'created_date', 'modified_date'],
      processes,
    );
    await insertMany(
      db,
      'approval_process_revisions',
      ['approval_process_revisionid', 'approval_processid', 'name', 'created_date'],
      revisions,
    );
    await insertMany(
      db,
      'approval_process_stages',
      ['approval_process_stageid', 'approval_process_revisionid', 'orderby', 'userid', 'teamid', 'required_signatures'],
      stages,
    );
  }

  // ---- releases: 1..approvals pending (each with its approval request), the rest released ----------------
  const bar = progress('releases/approvals', sizes.releases + sizes.approvals);
  const releases = [];
  for (let r = 1; r <= sizes.releases; r++) {
    const requester = authorIds[r % authorIds.length];
    if (r <= sizes.approvals) {
      releases.push([r, 'GUIDE', r, 'en', r, requester, 'pending', `Release v2.0 of guide ${r}`,
        `Notes of release ${r}`, 'major', 2, 0, null, 1, NOW - 3 * DAY, null, r, 0]);
    } else {
      const k = r - sizes.approvals - 1;
      const docid = (k % guides) + 1;
      const major = Math.floor(k / guides) + 1;
      const date = NOW - 60 * DAY + (r % 1000) * 60;
      releases.push([r, 'GUIDE', docid, 'en', docid, requester, 'released', `Release v${major}.0`,
        `Notes of release ${r}`, 'major', major, 0, `${major}.0`, null, date - 600, date, null, 0]);
    }
  }
  await insertMany(
    db,
    'releases',
    ['releaseid', 'doctype', 'docid', 'langid', 'revisionid', 'userid', 'status', 'title', 'notes', 'type',
      'version_major', 'version_minor', 'released_version', 'pending_slot', 'init_date', 'release_date',
      'approval_requestid', 'periodic_review_confirmed'],
    releases,
    { onProgress: bar.update },
  );
  const requests = [];
  const requestStages = [];
  for (let a = 1; a <= sizes.approvals; a++) {
    const p = ((a - 1) % PROCESSES) + 1;
    requests.push([a, 'pending', a, 'GUIDE', a, 'en', a, `Guide ${a}`, releases[a - 1][5], p, p,
      `Bench process ${p}`, 1, 2, NOW - 3 * DAY, null]);
    requestStages.push([2 * a - 1, a, 1, 'pending', null, ((p - 1) % TEAMS) + 1, 1, NOW - 3 * DAY, null]);
    requestStages.push([2 * a, a, 2, 'waiting', STAGE2_USERID, null, 1, null, null]);
  }
  await insertMany(
    db,
    'approval_requests',
    ['approval_requestid', 'status', 'releaseid', 'doctype', 'docid', 'langid', 'revisionid', 'document_title',
      'requested_by', 'approval_processid', 'approval_process_revisionid', 'process_name', 'current_stage',
      'stage_count', 'init_date', 'end_date'],
    requests,
    { onProgress: (n) => bar.update(sizes.releases + n) },
  );
  await insertMany(
    db,
    'approval_request_stages',
    ['approval_request_stageid', 'approval_requestid', 'orderby', 'status', 'userid', 'teamid',
      'required_signatures', 'init_date', 'end_date'],
    requestStages,
  );
  bar.done();

  // ---- step forms and work log ----------------------------------------------------------------------------
  if (sizes.worklog) {
    const forms = [];
    const fields = [];
    for (let g = 1; g <= WL_GUIDES + WL_WRITE_GUIDES; g++) {
      for (let k = 0; k < FORMS_PER_GUIDE; k++) {
        forms.push([formRevisionid(g, k), g, formStepid(g, k), null, 0, 1, NOW - 90 * DAY]);
        for (let j = 0; j < FIELDS_PER_FORM; j++) {
          const id = fieldRevisionid(g, k, j);
          fields.push([id, formRevisionid(g, k), g, formStepid(g, k), j, fieldGuid(id), fieldLabel(k, j),
            'Text Input', 0, '', 0, '[]', null, null, null]);
        }
      }
    }
    await insertMany(db, 'step_forms',
      ['form_revisionid', 'guideid', 'stepid', 'signoff_teamid', 'removed', 'userid', 'date'], forms);
    await insertMany(db, 'step_form_fields',
      ['field_revisionid', 'form_revisionid', 'guideid', 'stepid', 'orderby', 'field_guid', 'label', 'field_type',
        'required', 'placeholder', 'textarea', 'options', 'unit', 'min_value', 'max_value'], fields);
    const total = sizes.worklog + sizes.worklogWrites;
    const wb = progress('work log', total);
    const CHUNK = 5000;
    let dataid = 0;
    for (let start = 1; start <= total; start += CHUNK) {
      const entries = [];
      const data = [];
      for (let e = start; e < Math.min(total + 1, start + CHUNK); e++) {
        const write = e > sizes.worklog;
        const guideid = write ? WL_GUIDES + 1 + ((e - sizes.worklog - 1) % WL_WRITE_GUIDES) : entryGuide(e);
        const userid = write ? WORKER.userid : entryOwner(e);
        const maxForm = formRevisionid(guideid, FORMS_PER_GUIDE - 1);
        const starttime = NOW - 200 * DAY + e * 60;
        entries.push([e, guideid, userid, `WO-${e}`, write ? 'started' : 'finished', starttime,
          write ? null : starttime + 1800, guideid, maxForm, null, null, 0, null, null, null, 0, 0]);
        if (write) continue;
        for (let k = 0; k < FORMS_PER_GUIDE; k++)
          for (let j = 0; j < FIELDS_PER_FORM; j++) {
            const id = fieldRevisionid(guideid, k, j);
            data.push([++dataid, e, id, fieldGuid(id), formStepid(guideid, k), fieldLabel(k, j),
              `${(e * 7 + k * 5 + j) % 1000}.${j}`, userid, starttime + 60 + k * 60]);
          }
      }
      await insertMany(db, 'work_log_entries',
        ['entryid', 'guideid', 'userid', 'workorderid', 'status', 'starttime', 'endtime', 'guide_revisionid',
          'max_form_revisionid', 'releaseid', 'release_version', 'paused_seconds', 'paused_at', 'current_stepid',
          'timingid', 'write_count', 'deleted'], entries);
      await insertMany(db, 'work_log_data',
        ['dataid', 'entryid', 'field_revisionid', 'field_guid', 'stepid', 'label', 'value', 'userid', 'date'], data);
      wb.update(Math.min(total, start + CHUNK - 1));
    }
    wb.done();
  }

  // ---- periodic review: guides, categories, then extra WIKI pages as the documents ------------------------
  if (sizes.reviews) {
    const extra = Math.max(0, sizes.reviews - guides - categories);
    if (extra) {
      const pb = progress('review pages', extra);
      const firstId = categories + 1;
      const CHUNK = 5000;
      for (let start = 0; start < extra; start += CHUNK) {
        const wikis = [];
        const revisions = [];
        const languages = [];
        for (let i = start; i < Math.min(extra, start + CHUNK); i++) {
          const wikiid = firstId + i;
          const title = `Review page ${i + 1}`;
          wikis.push([wikiid, 'WIKI', title, sha256(title.toLowerCase()), 'en', null, 1, 0, NOW - 100 * DAY, NOW - 100 * DAY]);
          revisions.push([wikiid, wikiid, 'en', 1, NOW - 100 * DAY, 1, 0, title, `Procedure ${i + 1}.`,
            'A procedure.', null, '', '{}']);
          languages.push([wikiid, 'en', wikiid, wikiid, null]);
        }
        // revision ids: categories use 1..categories, the same numbers as their wikiids.
        await insertMany(db, 'wikis', ['wikiid', 'namespace', 'title', 'title_hash', 'langid', 'parent_wikiid',
          'authorid', 'deleted', 'created_date', 'modified_date'], wikis);
        await insertMany(db, 'wiki_revisions', ['revisionid', 'wikiid', 'langid', 'userid', 'date', 'patrolled',
          'deleted', 'display_title', 'summary', 'contents', 'imageid', 'flags', 'data'], revisions, { chunk: 500 });
        await insertMany(db, 'wiki_languages',
          ['wikiid', 'langid', 'revisionid', 'head_revisionid', 'source_revisionid'], languages);
        pb.update(Math.min(extra, start + CHUNK));
      }
      pb.done();
    }
    const schedules = Array.from({ length: SCHEDULES }, (_, s) => [s + 1, `Bench schedule ${s + 1}`, 'interval',
      null, null, 365, 30, null, null, 1, NOW - 400 * DAY, null]);
    await insertMany(db, 'periodic_review_schedules', ['prsid', 'name', 'recurrence_type', 'annual_month',
      'annual_day', 'interval_days', 'completion_window_days', 'default_reviewer_userid', 'default_teamid',
      'created_by_userid', 'created_date', 'deleted_date'], schedules);
    const rb = progress('review documents', sizes.reviews);
    const CHUNK = 5000;
    for (let start = 1; start <= sizes.reviews; start += CHUNK) {
      const rows = [];
      for (let d = start; d < Math.min(sizes.reviews + 1, start + CHUNK); d++) {
        const [doctype, docid] = reviewDocument(d, guides);
        rows.push([d, ((d - 1) % SCHEDULES) + 1, doctype, docid, reviewerOf(d), 1, NOW - 400 * DAY,
          NOW - 300 * DAY, dueDate(d), 'scheduled', null]);
      }
      await insertMany(db, 'periodic_review_documents', ['prdid', 'prsid', 'doctype', 'docid', 'reviewer_userid',
        'member_slot', 'added_date', 'last_reviewed_date', 'next_due_date', 'notified_state', 'removed_date'], rows);
      rb.update(Math.min(sizes.reviews, start + CHUNK - 1));
    }
    rb.done();
    // The measured service schedules the review task hourly (at :00): a run that crosses the hour would tick in
    // it, queue 40,000 mail jobs that the service then sends while other workloads are measured, and leave
    // nothing for review-tick to measure. This lock holds the task off until tick-entry.mjs takes it away.
    await insertMany(db, 'scheduler_locks', ['name', 'locked_by', 'locked_until', 'last_run_at'], [
      [REVIEW_TICK_TASK, 'bench (released by tick-entry.mjs)', 8e15, null],
    ]);
  }
  void q;
  return sizes;
}

export const REVIEW_TICK_TASK = 'periodic-review.tick';

/** Document d (1-based): guides first, then categories, then the extra WIKI pages. */
export function reviewDocument(d, guides) {
  if (d <= guides) return ['GUIDE', d];
  return ['WIKI', d - guides];
}
export const reviewerOf = (d) => REVIEWER.userid + (d % REVIEWERS);
/** States at seed time: d mod 5 in {0,1} overdue, {2,3} open (30-day window), 4 scheduled. */
export function dueDate(d) {
  const m = d % 5;
  if (m <= 1) return NOW - (1 + (d % 90)) * DAY;
  if (m <= 3) return NOW + (2 + (d % 20)) * DAY;
  return NOW + (60 + (d % 200)) * DAY;
}
/** How many documents the tick changes (all seeded `scheduled`; the open and overdue ones change). */
export const changedByTick = (reviews) => {
  let n = 0;
  for (let d = 1; d <= reviews; d++) if (d % 5 !== 4) n++;
  return n;
};
