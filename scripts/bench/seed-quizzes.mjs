// Bulk seed of the quizzes data set (issue #17) with raw multi-row INSERTs, after seed.mjs (users, guides),
// stored the way the service stores it: per quiz one revision (a survey of 30 questions on 3 pages), its 30
// question rows, the association with its primary guide; released releases of the guides; sessions
// (submitted ones with their answers, score and 30 submission rows; the quiz's submitted_count), plus the
// in_progress sessions the quiz-submit workload submits (owned by TAKERS, split between service and
// baseline). Sizes: --quizzes 10000, --quiz-sessions 200000 (the write pool included), --quiz-writes 150000.
// Everything is deterministic so the workloads (workloads-quizzes.mjs) know the ids and the answers.
import { createHash } from 'node:crypto';
import { insertMany, progress } from './lib.mjs';

const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
const NOW = Math.floor(Date.now() / 1000);
const DAY = 86_400;

export const QUESTIONS = 30;
const PAGES = 3;
/** The Author who lists quizzes (benchuser41), and the quiz takers who own the write pool. */
export const QUIZ_AUTHOR = { userid: 41, token: 'rgcs-bench-quiz-author-token-5e1a7c3b9d2f' };
export const TAKERS = Array.from({ length: 16 }, (_, i) => ({
  userid: 902 + i,
  token: `rgcs-bench-quiz-taker-token-${String(902 + i)}-a4c8e1f7`,
}));

export function quizSizes(options) {
  const quizzes = Math.min(options.quizzes, options.guides);
  const writes = Math.min(options.quizWrites, activeQuizzesOf(quizzes).length * TAKERS.length);
  return { quizzes, sessions: Math.max(options.quizSessions, writes), writes };
}

/** Quiz q: disabled every 50th, deleted every 97th, else active. */
export const quizStatus = (q) => (q % 97 === 0 ? 'deleted' : q % 50 === 0 ? 'disabled' : 'active');
export const passingScoreOf = (q) => 60 + (q % 4) * 10;

/** Question j (0-based) of every survey: its type, choices and correct answer. */
export function question(j) {
  const name = `q${j + 1}`;
  const choices = ['Torx T5', 'Phillips #00', 'Pentalobe P2', 'Spudger', 'Heat gun'];
  switch (j % 4) {
    case 0:
      return { type: 'radiogroup', name, title: `Which tool opens step ${j + 1}?`, choices, correctAnswer: choices[j % 5] };
    case 1:
      return {
        type: 'checkbox',
        name,
        title: `Which tools does step ${j + 1} need?`,
        choices,
        correctAnswer: [choices[j % 5], choices[(j + 2) % 5]],
      };
    case 2:
      return { type: 'text', name, title: `How many screws hold part ${j + 1}?`, correctAnswer: String(2 + (j % 6)) };
    default:
      return { type: 'boolean', name, title: `Is the battery disconnected before step ${j + 1}?`, correctAnswer: j % 3 !== 0 };
  }
}
const QUESTION_LIST = Array.from({ length: QUESTIONS }, (_, j) => question(j));
export const survey = (q) => ({
  title: `Quiz ${q}`,
  pages: Array.from({ length: PAGES }, (_, p) => ({
    name: `page${p + 1}`,
    elements: QUESTION_LIST.slice((p * QUESTIONS) / PAGES, ((p + 1) * QUESTIONS) / PAGES),
  })),
});

/** An answer to question j: correct unless (j + seed) % wrongEvery === 0. */
function answer(j, seed, wrongEvery) {
  const { type, correctAnswer } = QUESTION_LIST[j];
  if ((j + seed) % wrongEvery !== 0) return correctAnswer;
  if (type === 'checkbox') return [correctAnswer[0]];
  if (type === 'boolean') return !correctAnswer;
  return type === 'text' ? '99' : 'Heat gun' === correctAnswer ? 'Spudger' : 'Heat gun';
}
/** All 30 answers of submission `seed` (wrong ones every 3rd to 7th question, so scores and outcomes vary). */
export function answersOf(seed) {
  const wrongEvery = 3 + (seed % 5);
  return Object.fromEntries(QUESTION_LIST.map((q, j) => [q.name, answer(j, seed, wrongEvery)]));
}
const correctOf = (seed) => {
  const wrongEvery = 3 + (seed % 5);
  return QUESTION_LIST.map((_, j) => (j + seed) % wrongEvery !== 0);
};
export const scoreOf = (seed) => Math.round((100 * correctOf(seed).filter(Boolean).length) / QUESTIONS);

/** Sessions per quiz (not counting the write pool): 1..39, about 20 on average, summing to `total`. */
function sessionCounts(quizzes, total) {
  if (total < quizzes || total > 39 * quizzes)
    throw new Error(`--quiz-sessions minus --quiz-writes must be between 1 and 39 per quiz (${total} for ${quizzes} quizzes)`);
  const counts = Array.from({ length: quizzes }, (_, i) => 1 + (((i + 1) * 37) % 39));
  let diff = total - counts.reduce((a, b) => a + b, 0);
  for (let i = 0; diff !== 0; i = (i + 1) % quizzes) {
    const step = diff > 0 && counts[i] < 39 ? 1 : diff < 0 && counts[i] > 1 ? -1 : 0;
    counts[i] += step;
    diff -= step;
  }
  return counts;
}
/** Session k of a quiz: submitted, except every 9th cancelled and every 13th still in progress. */
const sessionStatus = (k) => (k % 13 === 12 ? 'in_progress' : k % 9 === 8 ? 'cancelled' : 'submitted');
const submittedCounts = (counts) =>
  counts.map((c) => Array.from({ length: c }, (_, k) => sessionStatus(k)).filter((s) => s === 'submitted').length);

/** The first `limit` quizids of GET /quizzes?sort=sessions_submitted (DESC) on the seeded data: [quizid, count]. */
export function expectedBySubmitted(options, limit) {
  const sizes = quizSizes(options);
  const submitted = submittedCounts(sessionCounts(sizes.quizzes, sizes.sessions - sizes.writes));
  return submitted
    .map((n, i) => [i + 1, n])
    .filter(([q]) => quizStatus(q) !== 'deleted')
    .sort((a, b) => b[1] - a[1] || b[0] - a[0])
    .slice(0, limit);
}
/** The write pool's session ids, split between the targets (even p: service, odd p: baseline). */
export function quizWritePool(options) {
  const sizes = quizSizes(options);
  const active = activeQuizzesOf(sizes.quizzes);
  const pool = { service: [], baseline: [] };
  for (let p = 0; p < sizes.writes; p++) {
    const { quizid, taker } = poolSession(p, active);
    pool[p % 2 ? 'baseline' : 'service'].push({ sessionid: sizes.sessions - sizes.writes + p + 1, quizid, taker, seed: p });
  }
  return pool;
}

/** The write pool: session p's quiz and owner (active quizzes only, each taker at most once per quiz). */
export function poolSession(p, activeQuizzes) {
  return { quizid: activeQuizzes[p % activeQuizzes.length], taker: TAKERS[Math.floor(p / activeQuizzes.length)] };
}
export const activeQuizzesOf = (quizzes) =>
  Array.from({ length: quizzes }, (_, i) => i + 1).filter((q) => quizStatus(q) === 'active');

const SESSION_COLUMNS = ['sessionid', 'quizid', 'quiz_revisionid', 'userid', 'course_stageid', 'stage_key', 'open_slot',
  'doctype', 'docid', 'status', 'answers', 'score', 'passed', 'passing_score', 'guide_releaseid', 'started_date',
  'saved_date', 'submitted_date', 'invalidated_by', 'invalidated_date', 'invalidated_reason'];

export async function seedQuizzes(db, options) {
  const sizes = quizSizes(options);
  const { quizzes } = sizes;
  await insertMany(
    db,
    'auth_tokens',
    ['userid', 'token_hash', 'app_id', 'created_date', 'last_used_date', 'revoked_date'],
    [QUIZ_AUTHOR, ...TAKERS].map((u) => [u.userid, sha256(u.token), 'bench', NOW, NOW, null]),
  );
  const guides = new Map(
    (await db.query('SELECT guideid, category, title FROM guides WHERE guideid <= ?', [quizzes])).map((g) => [
      Number(g.guideid),
      g,
    ]),
  );

  // Releases: guides q % 3 != 0 have v1.0 released, every 5th of them also v2.0 (the newest counts).
  const [{ n: maxRelease }] = await db.query('SELECT COALESCE(MAX(releaseid), 0) AS n FROM releases');
  let releaseid = Number(maxRelease);
  // Seeded with the enterprise data set (the default run), guides already have released versions: these
  // come after them (and after them in time), so each guide's newest release is still one of these.
  const released = new Map(
    (
      await db.query(
        "SELECT docid, MAX(version_major) AS major FROM releases WHERE doctype = 'GUIDE' AND released_version IS NOT NULL GROUP BY docid",
      )
    ).map((r) => [Number(r.docid), Number(r.major)]),
  );
  const releases = [];
  const liveRelease = new Map();
  for (let g = 1; g <= quizzes; g++) {
    if (g % 3 === 0) continue;
    const base = released.get(g) ?? 0;
    for (let major = 1; major <= (g % 5 === 0 ? 2 : 1); major++) {
      const date = NOW - (40 - major * 10) * DAY + g;
      const version = base + major;
      releases.push([++releaseid, 'GUIDE', g, 'en', g, 1, 'released', `Release v${version}.0`, '', 'major', version, 0,
        `${version}.0`, null, date - 600, date, null, 0]);
      liveRelease.set(g, releaseid);
    }
  }
  await insertMany(db, 'releases', ['releaseid', 'doctype', 'docid', 'langid', 'revisionid', 'userid', 'status', 'title',
    'notes', 'type', 'version_major', 'version_minor', 'released_version', 'pending_slot', 'init_date', 'release_date',
    'approval_requestid', 'periodic_review_confirmed'], releases);

  // Quizzes: quiz q's primary guide is guide q; revision q; questions (q-1)*30+1 ..
  const counts = sessionCounts(quizzes, sizes.sessions - sizes.writes);
  const submitted = submittedCounts(counts);
  const qb = progress('quizzes', quizzes);
  const CHUNK = 1000;
  for (let start = 1; start <= quizzes; start += CHUNK) {
    const quizRows = [];
    const revisions = [];
    const questions = [];
    const associations = [];
    for (let q = start; q < Math.min(quizzes + 1, start + CHUNK); q++) {
      const created = NOW - 200 * DAY + q * 60;
      const released = created + (q % 1000) * 3600;
      quizRows.push([q, `Quiz ${q}: ${guides.get(q)?.title ?? 'guide'}`, guides.get(q)?.category ?? '', quizStatus(q), q,
        passingScoreOf(q), q, 1, released, submitted[q - 1], 1, created, released]);
      revisions.push([q, q, 1, JSON.stringify(survey(q)), 1, released]);
      QUESTION_LIST.forEach((question, j) =>
        questions.push([(q - 1) * QUESTIONS + j + 1, q, question.name, question.title, question.type, j, 0]),
      );
      associations.push([q, q, 'GUIDE', q, 1, created]);
    }
    await insertMany(db, 'quizzes', ['quizid', 'title', 'category', 'status', 'guideid', 'default_passing_score',
      'quiz_revisionid', 'version', 'released_date', 'submitted_count', 'created_by', 'created_date', 'modified_date'], quizRows);
    await insertMany(db, 'quiz_revisions', ['quiz_revisionid', 'quizid', 'version', 'survey', 'userid', 'released_date'],
      revisions, { chunk: 200 });
    await insertMany(db, 'quiz_questions', ['questionid', 'quizid', 'external_question_uid', 'title', 'type', 'orderby',
      'removed'], questions);
    await insertMany(db, 'quiz_associations', ['associationid', 'quizid', 'doctype', 'docid', 'userid', 'created_date'],
      associations);
    qb.update(Math.min(quizzes, start + CHUNK - 1));
  }
  qb.done();

  // Sessions of plain users 100..899 (distinct users within a quiz), then the write pool.
  const sb = progress('quiz sessions', sizes.sessions);
  let sessionid = 0;
  let submissionid = 0;
  let sessions = [];
  let submissions = [];
  const flush = async () => {
    await insertMany(db, 'quiz_sessions', SESSION_COLUMNS, sessions, { chunk: 500 });
    await insertMany(db, 'quiz_submissions', ['submissionid', 'sessionid', 'questionid', 'external_question_uid', 'answer',
      'is_correct', 'points'], submissions);
    sb.update(sessionid);
    sessions = [];
    submissions = [];
  };
  for (let q = 1; q <= quizzes; q++) {
    for (let k = 0; k < counts[q - 1]; k++) {
      const id = ++sessionid;
      const status = sessionStatus(k);
      const started = NOW - 100 * DAY + (id % 5000) * 600;
      const userid = 100 + ((q + k * 31) % 800);
      const done = status === 'submitted';
      const answers = status === 'in_progress' ? {} : answersOf(id);
      const score = done ? scoreOf(id) : null;
      sessions.push([id, q, q, userid, null, 0, status === 'in_progress' ? 1 : null, 'GUIDE', q, status,
        JSON.stringify(answers), score, done ? Number(score >= passingScoreOf(q)) : null, passingScoreOf(q),
        liveRelease.get(q) ?? null, started, status === 'in_progress' ? null : started + 300, done ? started + 600 : null,
        null, null, null]);
      if (done) {
        const correct = correctOf(id);
        QUESTION_LIST.forEach((question, j) =>
          submissions.push([++submissionid, id, (q - 1) * QUESTIONS + j + 1, question.name,
            JSON.stringify({ value: answers[question.name] }), Number(correct[j]), Number(correct[j])]),
        );
      }
    }
    if (sessions.length >= 5000) await flush();
  }
  const active = activeQuizzesOf(quizzes);
  for (let p = 0; p < sizes.writes; p++) {
    const { quizid, taker } = poolSession(p, active);
    const id = ++sessionid;
    sessions.push([id, quizid, quizid, taker.userid, null, 0, 1, null, null, 'in_progress', '{}', null, null,
      passingScoreOf(quizid), liveRelease.get(quizid) ?? null, NOW - DAY + (p % 1000), null, null, null, null, null]);
    if (sessions.length >= 5000) await flush();
  }
  await flush();
  sb.done();
  return sizes;
}
