// The operator scenarios of issue 12. Each answers a result row; run.mjs prints them and decides.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGuides, editOneGuide, newTally } from './load.mjs';
import { probeRoutes, REQUEST_LIMIT_MS } from './probes.mjs';
import { call, createCategory, freePort, login, pause, startService, waitHealthy } from './service.mjs';
import { checkCreatedGuides, checkDerived, checkEdits, openTruth } from './verify.mjs';

const CATEGORY = 'Fault Phones';
/** After the database is back, a request already under way may still fail for this long. */
const RECOVERY_GRACE_MS = 2000;
/** Longer than the connect and statement time-outs together. */
const FROZEN_MS = 12_000;

const workDir = () => mkdtempSync(join(tmpdir(), 'rgcs-faults-'));

/** 5xx answers outside the windows in which 503 is allowed (database away, shutting down). */
function unexpected5xx(tally, windows) {
  return tally.failures.filter(
    (f) =>
      f.status >= 500 &&
      !(f.status === 503 && f.retryAfter !== undefined && windows.some((w) => f.started <= w.to && f.ended >= w.from)),
  );
}

function row(name, tally, verdict, extra = {}) {
  const fiveXx = tally.failures.filter((f) => f.status >= 500);
  return {
    name,
    acknowledged: tally.acks.length,
    lost: verdict.lost ?? 0,
    corrupted: verdict.corrupted ?? 0,
    stale: verdict.stale ?? 0,
    http503: fiveXx.filter((f) => f.status === 503).length,
    unexpected5xx: verdict.unexpected.length,
    resets: tally.resets,
    refused: tally.refused,
    statuses: tally.statuses,
    examples: [...(verdict.examples ?? []), ...verdict.unexpected.slice(0, 3)],
    ...extra,
  };
}

function sqliteDatabase(dir) {
  const path = join(dir, 'app.sqlite');
  return { env: { DB_TYPE: 'sqlite', DB_PATH: path }, truth: { type: 'sqlite', path } };
}

async function mysqlDatabase(server, name) {
  await server.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  return {
    env: { DB_TYPE: 'mysql', DB_HOST: '127.0.0.1', DB_PORT: String(server.port), DB_USER: 'root', DB_NAME: name },
    truth: { type: 'mysql', url: `${server.url}${name}` },
  };
}

async function boot(dir, database, label, extraEnv = {}) {
  const port = await freePort();
  const service = startService({
    port,
    env: { MEDIA_DIR: join(dir, 'media'), ...database.env, ...extraEnv },
    logFile: join(dir, `${label}.log`),
  });
  await waitHealthy(service);
  return service;
}

async function prepare(base) {
  const { token, userid } = await login(base);
  await createCategory(base, token, CATEGORY);
  return { token, userid };
}

/** Creates guides under load; `during` runs the fault while writers keep writing. */
async function underLoad({ targets, token, writers, prefix, during }) {
  const tally = newTally();
  let running = true;
  const load = createGuides({ targets, token, category: CATEGORY, writers, prefix, running: () => running, tally });
  try {
    await during(tally);
  } finally {
    running = false;
    await load;
  }
  return tally;
}

async function verifyCreations({ base, token, userid, database, tally }) {
  const truth = await openTruth(database.truth);
  try {
    const created = await checkCreatedGuides({ base, token, acks: tally.acks });
    const derived = await checkDerived({ base, truth, category: CATEGORY, userid });
    return { ...created, stale: derived.stale, committed: derived.committed, derived: derived.detail };
  } finally {
    await truth.close();
  }
}

/** Derived rows behind the guides, read from the database alone (the service is stopped). */
async function staleInDatabase(database, userid) {
  const truth = await openTruth(database.truth);
  try {
    const [{ n: missing }] = await truth.all(
      `SELECT COUNT(*) AS n FROM guides g
        WHERE g.public = 1 AND g.deleted = 0
          AND NOT EXISTS (SELECT 1 FROM wiki_category_guides c WHERE c.guideid = g.guideid)`,
    );
    const [{ n: published }] = await truth.all(
      'SELECT COUNT(*) AS n FROM guides WHERE authorid = ? AND public = 1 AND deleted = 0',
      [userid],
    );
    const [{ reputation }] = await truth.all('SELECT reputation FROM users WHERE userid = ?', [userid]);
    return Number(missing) + Math.abs(Number(published) * 10 - Number(reputation)) / 10;
  } finally {
    await truth.close();
  }
}

/**
 * Writes that committed without an acknowledgement must have been answered with a 503 that says the
 * change was saved, or that the COMMIT's outcome is unknown; a plain 503 would make the client repeat it.
 */
function unannouncedSaves(tally, committed) {
  const announced = tally.failures.filter(
    (f) => f.status === 503 && /was saved|may or may not/.test(String(f.body?.message)),
  ).length;
  const unacknowledged = committed - tally.acks.length;
  return unacknowledged > announced ? unacknowledged - announced : 0;
}

function commitUnknownLines(dir, labels) {
  return labels
    .flatMap((label) => readFileSync(join(dir, `${label}.log`), 'utf8').split('\n'))
    .filter((line) => line.includes('COMMIT outcome unknown'));
}

/** kill -9 of the service under write load, then a restart: nothing acknowledged may be missing. */
export async function kill9UnderLoad({ db = 'sqlite', server } = {}) {
  const dir = workDir();
  const database = db === 'sqlite' ? sqliteDatabase(dir) : await mysqlDatabase(server, 'faults_kill9');
  let service = await boot(dir, database, 'first');
  const { token, userid } = await prepare(service.base);
  const tally = await underLoad({
    targets: [() => service.base],
    token,
    writers: 8,
    prefix: 'K9',
    during: async () => {
      await pause(3000);
      await service.stop('SIGKILL');
      service = await boot(dir, database, 'second');
      await pause(1500);
    },
  });
  const verdict = await verifyCreations({ base: service.base, token, userid, database, tally });
  await service.stop('SIGTERM');
  return row(
    `kill -9 under write load (${db})`,
    tally,
    { ...verdict, unexpected: unexpected5xx(tally, []) },
    {
      committed: verdict.committed,
    },
  );
}

/**
 * SIGTERM under write load: requests on kept-alive connections are served (or answered 503 with
 * Connection: close), never reset; pending events are drained; the process exits 0 within 10 s.
 */
export async function sigtermUnderLoad({ db = 'sqlite', server } = {}) {
  const dir = workDir();
  const database = db === 'sqlite' ? sqliteDatabase(dir) : await mysqlDatabase(server, 'faults_sigterm');
  let service = await boot(dir, database, 'first');
  const { token, userid } = await prepare(service.base);
  let exit;
  let undrained;
  let signalled = 0;
  const tally = await underLoad({
    targets: [() => service.base],
    token,
    writers: 8,
    prefix: 'TERM',
    during: async () => {
      await pause(3000);
      signalled = Date.now();
      exit = await service.stop('SIGTERM');
      undrained = await staleInDatabase(database, userid);
      service = await boot(dir, database, 'second');
      await pause(1000);
    },
  });
  // Derived rows are checked against the restarted process; the drain at exit is checked separately:
  // the first process's log must not say it gave up on events.
  const verdict = await verifyCreations({ base: service.base, token, userid, database, tally });
  await service.stop('SIGTERM');
  const window = { from: signalled, to: exit.at };
  const unexpected = [
    ...unexpected5xx(tally, [window]),
    ...tally.failures.filter((f) => f.status === 503 && f.connection !== 'close'),
  ];
  const exitMs = exit.at - signalled;
  const problems = [];
  if (exit.code !== 0) problems.push(`exit code ${exit.code} (signal ${exit.signal})`);
  if (exitMs > 10_000) problems.push(`exit took ${exitMs} ms`);
  if (tally.resets) problems.push(`${tally.resets} requests reset on kept-alive connections`);
  if (undrained) problems.push(`${undrained} derived rows missing when the process had exited (events not drained)`);
  return row(
    `SIGTERM under write load (${db})`,
    tally,
    { ...verdict, unexpected },
    {
      committed: verdict.committed,
      exitMs,
      problems,
    },
  );
}

/** The database stops (SIGKILL) under load and starts again: 503 while away, then everything holds. */
export async function databaseStopStart({ server }) {
  const dir = workDir();
  const database = await mysqlDatabase(server, 'faults_stop');
  const service = await boot(dir, database, 'service');
  const { token, userid } = await prepare(service.base);
  const windows = [];
  const problems = [];
  const tally = await underLoad({
    targets: [() => service.base],
    token,
    writers: 8,
    prefix: 'STOP',
    during: async (t) => {
      await pause(2000);
      const window = { from: Date.now(), to: Infinity };
      windows.push(window);
      await server.stop('SIGKILL');
      await pause(500);
      const probe = await probeRoutes(service.base, token, t.acks[0]?.guideid ?? 1, CATEGORY);
      if (!probe.ok) problems.push(...probe.problems);
      await pause(1500);
      await server.start();
      window.to = Date.now() + RECOVERY_GRACE_MS;
      await waitHealthy(service, 30_000);
      await pause(2500);
    },
  });
  const verdict = await verifyCreations({ base: service.base, token, userid, database, tally });
  await service.stop('SIGTERM');
  const unknown = commitUnknownLines(dir, ['service']);
  if (unknown.some((line) => !line.includes('"requestId"')))
    problems.push('a COMMIT-unknown log line has no requestId');
  const silent = unannouncedSaves(tally, verdict.committed);
  if (silent) problems.push(`${silent} saved writes were answered 503 without saying so`);
  return row(
    'database stop (SIGKILL) and start (MariaDB)',
    tally,
    {
      ...verdict,
      unexpected: unexpected5xx(tally, windows),
    },
    { committed: verdict.committed, problems, commitUnknownLogged: unknown.length },
  );
}

/**
 * The database freezes (SIGSTOP) for longer than every time-out, under more concurrent requests than the
 * pool has connections: every request fails with 503 within 10 s, /health within 2 s; then it thaws.
 */
export async function frozenDatabase({ server }) {
  const dir = workDir();
  const database = await mysqlDatabase(server, 'faults_frozen');
  const service = await boot(dir, database, 'service', { DB_POOL_SIZE: '4' });
  const { token, userid } = await prepare(service.base);
  const windows = [];
  const problems = [];
  let probeMs;
  let healthMs;
  const tally = await underLoad({
    targets: [() => service.base],
    token,
    writers: 12,
    prefix: 'FROZEN',
    during: async (t) => {
      await pause(2000);
      const window = { from: Date.now(), to: Infinity };
      windows.push(window);
      server.freeze();
      try {
        await pause(300);
        const probe = await probeRoutes(service.base, token, t.acks[0]?.guideid ?? 1, CATEGORY);
        probeMs = probe.slowestMs;
        healthMs = probe.healthMs;
        if (!probe.ok) problems.push(...probe.problems);
        await pause(FROZEN_MS - 300 - probe.slowestMs);
      } finally {
        server.thaw();
        window.to = Date.now() + RECOVERY_GRACE_MS;
      }
      await waitHealthy(service, 30_000);
      await pause(2500);
    },
  });
  const verdict = await verifyCreations({ base: service.base, token, userid, database, tally });
  await service.stop('SIGTERM');
  const unknown = commitUnknownLines(dir, ['service']);
  if (unknown.some((line) => !line.includes('"requestId"')))
    problems.push('a COMMIT-unknown log line has no requestId');
  const silent = unannouncedSaves(tally, verdict.committed);
  if (silent) problems.push(`${silent} saved writes were answered 503 without saying so`);
  if (tally.slowestMs > REQUEST_LIMIT_MS) problems.push(`a request took ${tally.slowestMs} ms while frozen`);
  if (!tally.failures.some((f) => f.status === 503)) problems.push('no writer was answered 503 while frozen');
  return row(
    'frozen database (SIGSTOP, MariaDB)',
    tally,
    { ...verdict, unexpected: unexpected5xx(tally, windows) },
    {
      committed: verdict.committed,
      problems,
      slowestProbeMs: probeMs,
      healthMs,
      slowestRequestMs: tally.slowestMs,
      commitUnknownLogged: unknown.length,
    },
  );
}

/** Two service processes writing to one SQLite file: writers wait for the lock, never 5xx. */
export async function twoProcessesOneSqliteFile() {
  const dir = workDir();
  const database = sqliteDatabase(dir);
  const a = await boot(dir, database, 'a');
  const b = await boot(dir, database, 'b');
  const { token, userid } = await prepare(a.base);
  const tally = await underLoad({
    targets: [() => a.base, () => b.base],
    token,
    writers: 10,
    prefix: 'TWO',
    during: () => pause(5000),
  });
  const verdict = await verifyCreations({ base: b.base, token, userid, database, tally });
  await Promise.all([a.stop('SIGTERM'), b.stop('SIGTERM')]);
  return row(
    'two processes on one SQLite file',
    tally,
    { ...verdict, unexpected: unexpected5xx(tally, []) },
    {
      committed: verdict.committed,
    },
  );
}

/** 20 editors race on one guide through two instances on MariaDB: no lost update, no 5xx. */
export async function twentyWritersOneGuide({ server }) {
  const dir = workDir();
  const database = await mysqlDatabase(server, 'faults_race');
  const a = await boot(dir, database, 'a');
  const b = await boot(dir, database, 'b');
  const { token, userid } = await prepare(a.base);
  const tally = newTally();
  const created = await call(
    null,
    'POST',
    `${a.base}/api/2.0/guides`,
    {
      category: CATEGORY,
      type: 'replacement',
      subject: 'Race',
      title: 'The raced guide',
      summary: 'start',
      public: true,
    },
    token,
  );
  if (created.status !== 201) throw new Error(`creating the raced guide: ${created.status}`);
  const guideid = created.body.guideid;
  let running = true;
  const load = editOneGuide({
    targets: [() => a.base, () => b.base],
    token,
    guideid,
    editors: 20,
    running: () => running,
    tally,
  });
  await pause(6000);
  running = false;
  await load;
  const truth = await openTruth(database.truth);
  try {
    const edits = await checkEdits({ base: b.base, token, truth, guideid, acks: tally.acks });
    const derived = await checkDerived({ base: a.base, truth, category: CATEGORY, userid });
    await Promise.all([a.stop('SIGTERM'), b.stop('SIGTERM')]);
    return row(
      '20 writers on one guide, two instances (MariaDB)',
      tally,
      {
        ...edits,
        stale: derived.stale,
        unexpected: unexpected5xx(tally, []),
      },
      { conflicts: tally.statuses[409] ?? 0 },
    );
  } finally {
    await truth.close();
  }
}
