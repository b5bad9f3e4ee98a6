// The quizzes workloads (issue #17) on the data set of seed-quizzes.mjs:
// - quizzes-list: GET /quizzes?limit=200&sort=sessions_submitted as an Author, parity-checked like the
//   core reads; the answer must be the seeded top 200 by submitted sessions;
// - quiz-submit: POST /quizzes/sessions/submit of all 30 answers, each request to a distinct seeded
//   in_progress session of that target's pool (built just before it is sent, its answer checked on arrival).
// Write parity (quizWriteParity): the baseline and the service each submit a session of the same quiz with
// the same answers; the answers must be equal but for the session's own fields, and the service must read
// the baseline's session and submissions as it reads its own.
import { isDeepStrictEqual } from 'node:util';
import { firstDifference, log } from './lib.mjs';
import {
  QUESTIONS,
  QUIZ_AUTHOR,
  answersOf,
  expectedBySubmitted,
  passingScoreOf,
  quizSizes,
  quizWritePool,
  scoreOf,
  survey,
} from './seed-quizzes.mjs';

export const QUIZ_READS = ['quizzes-list'];
export const QUIZ_WRITES = ['quiz-submit'];
export const QUIZ_TARGETS = {
  'quizzes-list': { sql: 3, ratio: 0.6, p99: null },
  'quiz-submit': { sql: null, ratio: 0.6, p99: null },
};
const selected = (options, name) => !options.workloads || options.workloads.includes(name);
export const quizzesSelected = (options) =>
  options.seedAll || [...QUIZ_READS, ...QUIZ_WRITES].some((name) => selected(options, name));
const auth = (token) => ({ authorization: `api ${token}` });

export function buildQuizReads(options) {
  const sizes = quizSizes(options);
  if (!selected(options, 'quizzes-list') || !sizes.quizzes) return [];
  const expected = expectedBySubmitted(options, 200);
  return [
    {
      name: 'quizzes-list',
      title: `GET /quizzes?limit=200&sort=sessions_submitted (an Author; ${sizes.quizzes} quizzes × 30 questions, ${sizes.sessions} sessions)`,
      headers: auth(QUIZ_AUTHOR.token),
      paths: ['/api/2.0/quizzes?limit=200&sort=sessions_submitted'],
      verify: (body) => {
        const got = body.map((item) => [item.quizid, item.quizzes_submitted]);
        if (!isDeepStrictEqual(got, expected))
          throw new Error(`expected the seeded top ${expected.length} by submitted sessions, differs at ${firstDifference(got, expected)}`);
        if (body.some((item) => item.guideid !== item.quizid || !item.guide_title || !item.quiz_last_released))
          throw new Error('an item lacks its primary guide or release date');
        const versions = new Set(body.map((item) => item.guide_release_version));
        return `${body.length} quizzes, ${got[0][1]}..${got.at(-1)[1]} submitted sessions, guide release versions ${[...versions].sort().join('/')}`;
      },
    },
  ];
}

/** One submit of pool session `entry`: its request and the check of its answer. */
function submitSpec(entry) {
  const answers = answersOf(entry.seed);
  const score = scoreOf(entry.seed);
  return {
    method: 'POST',
    path: '/api/2.0/quizzes/sessions/submit',
    headers: { ...auth(entry.taker.token), 'content-type': 'application/json' },
    body: JSON.stringify({ sessionid: entry.sessionid, answers }),
    entry,
    check: (status, text) => {
      if (status !== 200) return `submit ${entry.sessionid}: ${status} ${text.slice(0, 200)}`;
      if (!text.includes(`"sessionid":${entry.sessionid},`) || !text.includes(`"score":${score},`) || !text.includes('"status":"submitted"'))
        return `submit ${entry.sessionid}: not the submitted session with score ${score}: ${text.slice(0, 200)}`;
      return undefined;
    },
  };
}

export function buildQuizWrites(options) {
  if (!selected(options, 'quiz-submit') || !quizSizes(options).writes) return [];
  const pool = quizWritePool(options);
  const cursor = { service: 0, baseline: 0 };
  const workload = {
    name: 'quiz-submit',
    title: `POST /quizzes/sessions/submit (the owner; all 30 answers; a distinct in_progress session each, ${pool.service.length} per target)`,
    write: true,
    stats: { service: { conflicts: 0, failures: [] }, baseline: { conflicts: 0, failures: [] } },
    next(target) {
      const entry = pool[target][cursor[target]++];
      if (entry) return submitSpec(entry);
      // Used up: resend the last one (a 409) and count it as a failed check, rather than throwing inside
      // autocannon, which would end the bench without its clean-up. Raise --quiz-writes.
      const spec = submitSpec(pool[target].at(-1));
      return { ...spec, check: () => `the ${target}'s pool of ${pool[target].length} sessions is used up (--quiz-writes)` };
    },
    fail(target, message) {
      if (message && this.stats[target].failures.length < 20) this.stats[target].failures.push(message);
    },
  };
  workload.autocannon = (target) => [
    {
      setupRequest: (request, context) => {
        const spec = workload.next(target);
        context.check = spec.check;
        return { ...request, method: spec.method, path: spec.path, headers: { ...spec.headers }, body: spec.body };
      },
      onResponse: (status, body, context) => workload.fail(target, context.check(status, body)),
    },
  ];
  workload.send = async (target) => {
    const spec = workload.next(target.name);
    const res = await fetch(target.base + spec.path, { method: spec.method, headers: spec.headers, body: spec.body });
    workload.fail(target.name, spec.check(res.status, await res.text()));
    return res;
  };
  workload.used = cursor;
  return [workload];
}

async function call(target, spec) {
  const res = await fetch(target.base + spec.path, { method: spec.method ?? 'GET', headers: spec.headers, body: spec.body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
}
const SESSION_OWN = ['sessionid', 'userid', 'started_date', 'saved_date', 'submitted_date'];
const withoutOwn = (session) => Object.fromEntries(Object.entries(session).filter(([k]) => !SESSION_OWN.includes(k)));

/**
 * Write parity: the two targets submit sessions of the same quiz with the same answers (pool entries 2k and
 * 2k+1 share a quiz when the pool wraps: the pools are searched for such a pair). Throws on a difference.
 */
export async function quizWriteParity(workload, targets) {
  if (!workload) return [];
  // The first service entry and the first baseline entry: entry p's quiz is active[p % A]; pick the
  // service's next entry, then use answers of the same seed for the baseline's so the grading is the same.
  const s = workload.next('service');
  const b = workload.next('baseline');
  const bSpec = { ...b, body: JSON.stringify({ sessionid: b.entry.sessionid, answers: answersOf(s.entry.seed) }) };
  const window = async (target, spec) => {
    const from = Math.floor(Date.now() / 1000);
    const answer = await call(target, spec);
    return { ...answer, from, to: Math.ceil(Date.now() / 1000) };
  };
  const [own, written] = [await window(targets.service, s), await window(targets.baseline, bSpec)];
  for (const [name, r] of [['service', own], ['baseline', written]])
    if (r.status !== 200) throw new Error(`quiz-submit parity: the ${name} answered ${r.status}: ${r.text.slice(0, 300)}`);
  const norm = (answer) => ({ ...answer, session: withoutOwn({ ...answer.session, quizid: 0, quiz_revisionid: 0, guide_releaseid: 0, passing_score: 0 }), passing_score: 0, passed: null });
  // Same answers to a quiz with the same survey: same score and per-question results (passing scores differ by quiz).
  if (!isDeepStrictEqual(norm(own.body), norm(written.body)))
    throw new Error(`quiz-submit PARITY FAILURE: the answers differ at ${firstDifference(norm(own.body), norm(written.body))}`);
  for (const r of [own, written])
    if (r.body.session.submitted_date < r.from || r.body.session.submitted_date > r.to)
      throw new Error(`quiz-submit parity: submitted_date ${r.body.session.submitted_date} is outside its call (${r.from}..${r.to})`);
  // The service reads the baseline's write as the baseline answered it (session) and as it reads its own (submissions).
  const listed = await call(targets.service, {
    path: `/api/2.0/quizzes/sessions?quizid=${b.entry.quizid}&status=submitted`,
    headers: auth(b.entry.taker.token),
  });
  const read = listed.body?.find?.((x) => x.sessionid === b.entry.sessionid);
  if (!isDeepStrictEqual(read, written.body.session))
    throw new Error(`quiz-submit PARITY FAILURE: the service reads the baseline's session differently at ${firstDifference(read, written.body.session)}`);
  const subs = async (entry) =>
    (await call(targets.service, { path: `/api/2.0/quizzes/submissions/${entry.sessionid}`, headers: auth(entry.taker.token) })).body;
  const [ownSubs, baseSubs] = [await subs(s.entry), await subs(b.entry)];
  const strip = (list) => list.map(({ submissionid, sessionid, questionid, ...rest }) => (void submissionid, void sessionid, { ...rest, q: questionid % 30 }));
  if (!Array.isArray(baseSubs) || baseSubs.length !== 30 || !isDeepStrictEqual(strip(ownSubs), strip(baseSubs)))
    throw new Error(`quiz-submit PARITY FAILURE: the submissions differ at ${firstDifference(strip(ownSubs ?? []), strip(baseSubs ?? []))}`);
  const note =
    `quiz-submit: same quiz survey and answers give equal answers but for the session's own fields (score ${own.body.score}); ` +
    `the service reads the baseline's session deep-equal to the baseline's answer and its 30 submissions as it reads its own`;
  log(`  ${note}`);
  return [note];
}

/** The service reads the bulk-seeded rows as it would have written them: quiz 1, its first session and its submissions. */
export async function checkSeededReads(targets, adminToken) {
  const get = async (path) => {
    const r = await call(targets.service, { path, headers: auth(adminToken) });
    if (r.status !== 200) throw new Error(`seeded quizzes: ${path} answered ${r.status}: ${r.text.slice(0, 300)}`);
    return r.body;
  };
  const quiz = await get('/api/2.0/quizzes/1');
  if (!isDeepStrictEqual(quiz.survey, survey(1)) || quiz.status !== 'active' || quiz.version !== 1)
    throw new Error(`seeded quizzes: quiz 1 reads differently: ${JSON.stringify(quiz).slice(0, 300)}`);
  const sessions = await get('/api/2.0/quizzes/sessions?userid=101&quizid=1&status=submitted');
  const first = sessions.find((s) => s.sessionid === 1);
  if (!first || first.score !== scoreOf(1) || !isDeepStrictEqual(first.answers, answersOf(1)) || first.passed !== scoreOf(1) >= passingScoreOf(1))
    throw new Error(`seeded quizzes: session 1 reads differently: ${JSON.stringify(first).slice(0, 300)}`);
  const submissions = await get('/api/2.0/quizzes/submissions/1');
  const answers = answersOf(1);
  if (submissions.length !== QUESTIONS || submissions.some((s) => !isDeepStrictEqual(s.answer, answers[s.external_question_uid])))
    throw new Error(`seeded quizzes: session 1's submissions read differently: ${JSON.stringify(submissions).slice(0, 300)}`);
  const correct = submissions.filter((s) => s.is_correct).length;
  if (Math.round((100 * correct) / QUESTIONS) !== first.score) throw new Error('seeded quizzes: submissions do not add up to the score');
  log(`  seeded quizzes read back: quiz 1 with its survey, session 1 (score ${first.score}) and its ${submissions.length} submissions`);
}
