#!/usr/bin/env node
// npm run bench (issue 8): builds the service into .bench-build/, creates a fresh database (SQLite file
// or MySQL/MariaDB database rgcs_bench_<pid>), lets the service's migrations create the schema,
// bulk-seeds the data set of docs/benchmark.md (users, category tree, guides), starts the service (production) and a
// plain Fastify baseline, checks that both answer the same JSON, then loads both with autocannon,
// interleaved, and writes BENCHMARKS.md. Read workloads: workloads.mjs; then the writes (guide-create,
// guide-patch, the guide-writers-20 check): write-workloads.mjs, write-parity.mjs, write-writers.mjs;
// report text: report.mjs.
//
// Options (flag or env BENCH_<NAME>): --db sqlite|mysql, --duration 8, --connections 10, --categories 10000,
// --users 1000, --guides 10000, --rounds 2, --warmup 2, --workloads a,b, --output BENCHMARKS.md,
// --skip-build, --keep (keep the database), --cpu-prof (profile the service into .bench-build/profiles),
// --seed-all (seed the enterprise and quizzes data sets whatever the workloads, as a whole run does).
// MySQL server: BENCH_DATABASE_URL (default mysql://root@127.0.0.1:3306/).
//
// Enterprise workloads (issues #15, #16, #18; workloads-enterprise.mjs, enterprise-stage.mjs, baseline
// baseline-enterprise.mjs, data set seed-enterprise.mjs): releases-list, approvals-eligible, approval-sign,
// worklog-list, worklog-stepdata, worklog-export, review-documents, review-tick. Sizes: --releases 10000,
// --approvals 8000, --worklog 100000, --worklog-writes 4000, --reviews 50000. Run them alone with e.g.
// --workloads releases-list,approvals-eligible,approval-sign,worklog-list,worklog-stepdata,worklog-export,review-documents,review-tick
// (their results go to a section of their own in BENCHMARKS.md, so the core section is kept).
//
// Search workload (issue #20; seed-search.mjs, workloads-search.mjs, baseline-search.mjs, report-search.mjs):
// only with `--workloads search` (the rebuild takes minutes): adds --wikis 10000 INFO wiki pages, fills the
// search index with the service's own rebuild (search:reindex) and loads GET /search/{two words}?limit=20;
// its own section in BENCHMARKS.md.
//
// Quizzes workloads (issue #17; workloads-quizzes.mjs, baseline-quizzes.mjs, data set seed-quizzes.mjs,
// report report-quizzes.mjs): quizzes-list, quiz-submit. Sizes: --quizzes 10000, --quiz-sessions 200000,
// --quiz-writes 150000 (the submit pool, part of the sessions). Section of their own in BENCHMARKS.md.
//
// training-import (issue #19; training-import.mjs): a 200 MiB, 2,000-file SCORM package uploaded and imported,
// against `unzip -t` on the same file; alone (--workloads training-import) it seeds only the Admin.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import {
  BUILD_DIR,
  ROOT,
  cpuMs,
  firstDifference,
  freePort,
  log,
  mysqlSettingsFromUrl,
  openDb,
  parseOptions,
  peakRssMiB,
  require,
  resetPeakRss,
  SERVICE_NODE_OPTIONS,
  serviceDbEnv,
  settle,
  startNode,
  stop,
  waitForHttp,
} from './lib.mjs';
import { SQL_SAMPLE_REQUESTS, report, writeBenchmarks } from './report.mjs';
import { seed } from './seed.mjs';
import { BENCH_ADMIN_TOKEN, BENCH_ADMIN_USERID } from './seed-guides.mjs';
import { buildWorkloads } from './workloads.mjs';
import { enterpriseWriteParity, measureExport, measureTick } from './enterprise-stage.mjs';
import { enterpriseSizes, seedEnterprise } from './seed-enterprise.mjs';
import {
  buildEnterpriseReads,
  buildEnterpriseWrites,
  enterpriseSelected,
  planEnterpriseWrites,
} from './workloads-enterprise.mjs';
import { reportEnterprise } from './report-enterprise.mjs';
import { reportSearch } from './report-search.mjs';
import { fillSearchIndex, seedSearchWikis } from './seed-search.mjs';
import { buildSearchWorkloads, indexFacts, searchSelected } from './workloads-search.mjs';
import { seedQuizzes } from './seed-quizzes.mjs';
import { buildQuizReads, buildQuizWrites, checkSeededReads, quizWriteParity, quizzesSelected } from './workloads-quizzes.mjs';
import { reportQuizzes } from './report-quizzes.mjs';
import { userRow } from './seed.mjs';
import { checkWriteParity } from './write-parity.mjs';
import { measureTrainingImport, reportTraining, trainingCleanup, trainingEnv, trainingOnly } from './training-import.mjs';
import {
  AUTH,
  createBody,
  WRITERS_CHECK,
  WRITE_WORKLOADS,
  buildWriteWorkloads,
  loadHeads,
  planWrites,
  primeServicePool,
} from './write-workloads.mjs';
import { writers20, writersSelfTest } from './write-writers.mjs';

// Production refuses to start without a signing secret; one per run serves every instance the same URLs.
const BENCH_SIGNING_SECRET = randomBytes(32).toString('base64url');

const autocannon = require('autocannon');
const PUBLIC_URL = 'http://bench.example';
const WRITE_PAUSE_MS = 1000;

const started = Date.now();
const options = parseOptions();
if (trainingOnly(options)) Object.assign(options, { users: 1, categories: 0, guides: 0 });
if (options.help) {
  const text = readFileSync(new URL(import.meta.url), 'utf8').split('\n').slice(1);
  log(text.slice(0, text.findIndex((line) => !line.startsWith('//'))).join('\n'));
  process.exit(0);
}
const command = `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim().replace(/ --$/, '');

const cleanups = [];
const servers = new Map(); // name -> process, for their output when the bench fails
async function cleanup() {
  while (cleanups.length) {
    try {
      await cleanups.pop()();
    } catch (error) {
      log(`cleanup: ${error.message}`);
    }
  }
}
process.on('SIGINT', () => cleanup().then(() => process.exit(130)));

async function main() {
  // ---- 1. build ----------------------------------------------------------------------------------
  if (!options.skipBuild) {
    log('Building the service into .bench-build/ (tsc; type errors elsewhere do not stop the bench)…');
    const t = Date.now();
    const result = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json', '--outDir', '.bench-build'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (result.status !== 0) {
      const errors = (result.stdout ?? '').split('\n').filter((l) => l.includes('error TS'));
      log(`  tsc reported ${errors.length} type error(s) (ignored):\n    ${errors.slice(0, 5).join('\n    ')}`);
    }
    log(`  built in ${((Date.now() - t) / 1000).toFixed(1)}s`);
  }
  const mainJs = join(BUILD_DIR, 'src', 'main.js');
  if (!existsSync(mainJs)) throw new Error(`${relative(ROOT, mainJs)} is missing: the build emitted nothing`);

  // ---- 2. database -------------------------------------------------------------------------------
  let settings;
  if (options.db === 'sqlite') {
    const path = join(tmpdir(), `rgcs_bench_${process.pid}.sqlite`);
    settings = { type: 'sqlite', path };
    if (!options.keep) cleanups.push(async () => ['', '-wal', '-shm'].forEach((s) => rmSync(path + s, { force: true })));
  } else {
    const name = `rgcs_bench_${process.pid}`;
    settings = mysqlSettingsFromUrl(options.databaseUrl, name);
    const admin = await openDb({ ...settings, database: undefined });
    await admin.exec(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await admin.close();
    if (!options.keep)
      cleanups.push(async () => {
        const conn = await openDb({ ...settings, database: undefined });
        await conn.exec(`DROP DATABASE IF EXISTS \`${name}\``);
        await conn.close();
      });
  }
  log(`Database: ${settings.type === 'sqlite' ? settings.path : `${settings.host}:${settings.port}/${settings.database}`}`);

  // The measured service runs as deployed; a second instance with SQL_COUNT_HEADER only counts statements
  // (opening the per-request counting context has a cost of its own).
  const serviceEnv = (port, countSql = false, answerCache = true) => ({
    ...serviceDbEnv(settings),
    NODE_ENV: 'production',
    SIGNING_SECRET: BENCH_SIGNING_SECRET,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL,
    MEDIA_DIR: join(tmpdir(), `rgcs_bench_media_${process.pid}`),
    ADMIN_EMAIL: '',
    ADMIN_PASSWORD: '',
    SQL_COUNT_HEADER: countSql ? 'true' : 'false',
    ANSWER_CACHE: answerCache ? 'true' : 'false',
    // The API rate limit (600 per minute per token or address by default) is off: the loads send far more
    // from one address and a few tokens, and the baseline has no limiter.
    RATE_LIMIT_API_MAX: '0',
    ...trainingEnv(process.pid),
  });
  cleanups.push(async () => rmSync(join(tmpdir(), `rgcs_bench_media_${process.pid}`), { recursive: true, force: true }));
  cleanups.push(async () => trainingCleanup(process.pid));

  // ---- 3. schema (the service's migrations) and seed ----------------------------------------------
  {
    const t = Date.now();
    const port = await freePort();
    const proc = startNode(mainJs, [], serviceEnv(port));
    await waitForHttp(`http://127.0.0.1:${port}/api/2.0/health`, proc);
    await stop(proc);
    log(`Schema created by the service's migrations in ${((Date.now() - t) / 1000).toFixed(1)}s`);
  }
  const seedStarted = Date.now();
  log(`Seeding ${options.users} users, a ${options.categories}-node category tree and ${options.guides} guides…`);
  const db = await openDb(settings);
  await seed(db, { users: options.users, categories: options.categories, guides: options.guides });
  const enterprise = enterpriseSelected(options);
  if (enterprise) {
    const t = Date.now();
    const authorIds = Array.from({ length: Math.max(options.users, 1) }, (_, i) => userRow(i))
      .filter((row) => row[5] !== '')
      .map((row) => row[0]);
    const sizes = enterpriseSizes(options);
    log(
      `Seeding the enterprise data set: ${sizes.releases} releases, ${sizes.approvals} approval requests, ` +
        `${sizes.worklog} work-log entries × 20 values (+${sizes.worklogWrites} started), ${sizes.reviews} review documents…`,
    );
    await seedEnterprise(db, options, { authorIds, guides: options.guides, categories: options.categories });
    log(`  enterprise data set seeded in ${((Date.now() - t) / 1000).toFixed(1)}s`);
  }
  const search = searchSelected(options) && options.guides > 0 ? { facts: undefined, reindex: undefined } : undefined;
  if (search) {
    log(`Seeding ${options.wikis} INFO wiki pages for the search workload…`);
    await seedSearchWikis(db, { wikis: options.wikis });
  }
  const quizzes = quizzesSelected(options);
  if (quizzes) {
    const t = Date.now();
    log(`Seeding the quizzes data set: ${options.quizzes} quizzes × 30 questions, ${options.quizSessions} sessions…`);
    await seedQuizzes(db, options);
    log(`  quizzes data set seeded in ${((Date.now() - t) / 1000).toFixed(1)}s`);
  }
  const dbVersion =
    settings.type === 'sqlite'
      ? `SQLite ${(await db.query('SELECT sqlite_version() AS v'))[0].v} (better-sqlite3)`
      : `MySQL/MariaDB ${(await db.query('SELECT VERSION() AS v'))[0].v}`;
  const seedSeconds = (Date.now() - seedStarted) / 1000;
  log(`Seeded in ${seedSeconds.toFixed(1)}s`);
  if (search) {
    log("Filling the search index with the service's own rebuild (search:reindex)…");
    search.reindex = fillSearchIndex(serviceEnv(await freePort()));
    search.facts = await indexFacts(db, settings);
    log(`  ${search.reindex.line} in ${search.reindex.seconds.toFixed(1)}s; index ${JSON.stringify(search.facts)}`);
  }

  // ---- 4. service and baseline -------------------------------------------------------------------
  const [servicePort, baselinePort, counterPort] = [await freePort(), await freePort(), await freePort()];
  const nodeArgs = [...SERVICE_NODE_OPTIONS];
  if (options.cpuProf) {
    const dir = join(BUILD_DIR, 'profiles');
    mkdirSync(dir, { recursive: true });
    nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${dir}`);
  }
  const service = startNode(mainJs, [], serviceEnv(servicePort), nodeArgs);
  cleanups.push(() => stop(service));
  const counter = startNode(mainJs, [], serviceEnv(counterPort, true), SERVICE_NODE_OPTIONS);
  cleanups.push(() => stop(counter));
  // The wide reads measure the service without its whole-answer cache (ANSWER_CACHE=false): what a long tail of
  // documents gets. Two more instances on the same database, started only for them.
  const uncached = options.wide ? await startUncached(serviceEnv, mainJs) : undefined;
  const baseline = startNode(resolve(ROOT, 'scripts/bench/baseline-server.mjs'), [], {
    ...serviceDbEnv(settings),
    PORT: String(baselinePort),
    HOST: '127.0.0.1',
    PUBLIC_URL,
    NODE_ENV: 'production',
    // The quizzes baseline writes audit rows under the service's audit key (derived from the signing secret).
    SIGNING_SECRET: BENCH_SIGNING_SECRET,
  });
  cleanups.push(() => stop(baseline));
  const limitPort = await freePort();
  const limit = startNode(resolve(ROOT, 'scripts/bench/limit-server.mjs'), [], {
    ...serviceDbEnv(settings),
    PORT: String(limitPort),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
  });
  cleanups.push(() => stop(limit));
  servers.set('service', service).set('baseline', baseline).set('limit', limit);
  const targets = {
    service: { name: 'service', base: `http://127.0.0.1:${servicePort}`, proc: service },
    baseline: { name: 'baseline', base: `http://127.0.0.1:${baselinePort}`, proc: baseline },
  };
  const limitTarget = { name: 'limit', base: `http://127.0.0.1:${limitPort}`, proc: limit };
  const sqlTargets = {
    service: { name: 'service', base: `http://127.0.0.1:${counterPort}`, proc: counter },
    baseline: targets.baseline,
  };
  await Promise.all(
    [...Object.values(targets), sqlTargets.service, limitTarget, ...(uncached ? Object.values(uncached) : [])].map((t) =>
      waitForHttp(`${t.base}/api/2.0/health`, t.proc),
    ),
  );
  log(`Service on :${servicePort} (pid ${service.pid}), baseline on :${baselinePort} (pid ${baseline.pid})`);
  {
    // The seeded API token (for write workloads) must authenticate the Admin.
    const res = await fetch(`${targets.service.base}/api/2.0/user`, {
      headers: { authorization: `api ${BENCH_ADMIN_TOKEN}` },
    });
    const me = await res.json();
    if (res.status !== 200 || me.userid !== BENCH_ADMIN_USERID || !me.privileges?.includes('Admin'))
      throw new Error(`the seeded Admin token does not authenticate: ${res.status} ${JSON.stringify(me).slice(0, 300)}`);
  }

  // ---- 5. workloads, verification and parity -----------------------------------------------------
  const workloads = [
    ...buildWorkloads(options),
    ...(enterprise ? buildEnterpriseReads(options).map((w) => ({ ...w, enterprise: true })) : []),
    ...(search ? buildSearchWorkloads(options, search.facts).map((w) => ({ ...w, search: true })) : []),
    ...(quizzes ? buildQuizReads(options).map((w) => ({ ...w, quizzes: true })) : []),
  ];
  // Pass 1 makes the service render and store the guide documents it reads; pass 2 reads them stored.
  for (const pass of [1, 2]) {
    log(`Verifying answers and service/baseline parity (pass ${pass} of 2)…`);
    for (const workload of workloads.filter((w) => !w.skipParity)) {
      let note = '';
      for (const [k, path] of workload.paths.entries()) {
        const [a, b] = await Promise.all([
          fetchJson(targets.service, path, workload.headers),
          fetchJson(targets.baseline, path, workload.headers),
        ]);
        const verified = workload.verify(a.body, path);
        if (k === 0) note = workload.verified = verified;
        if (!isDeepStrictEqual(a.body, b.body)) {
          throw new Error(
            `PARITY FAILURE on ${path} (pass ${pass}): service and baseline answers differ at ${firstDifference(a.body, b.body)}`,
          );
        }
        if (a.text !== b.text) workload.orderNote = 'same values, different key order or spacing';
      }
      log(`  ${workload.name}: 200, ${note}; ${workload.paths.length} path(s) identical after JSON.parse`);
    }
  }
  // The limit server sends stored data, not the answer: each path must be a 200 holding JSON.
  for (const workload of workloads.filter((w) => w.limit && !w.skipParity)) {
    for (const path of workload.paths) await fetchJson(limitTarget, path, workload.headers);
    log(`  ${workload.name}: the limit server answers its ${workload.paths.length} path(s)`);
  }

  // ---- 6. SQL statements per request; 7. load, interleaved ----------------------------------------
  const ctx = { targets, sqlTargets, limitTarget, uncached, db, settings };
  await sqlStage(workloads, ctx);
  for (const workload of workloads) await measure(workload, ctx);

  // ---- 8. writes, after the reads: the guides the reads use stay as seeded until then ----------------
  const writes = await writeStage(ctx);
  const training = await measureTrainingImport(options, targets.service, db);

  // ---- 9. enterprise writes, the export and the periodic-review task --------------------------------
  const ent = { writes: [], parity: [], export: undefined, tick: undefined };
  if (enterprise) {
    const sizes = enterpriseSizes(options);
    ent.writes = buildEnterpriseWrites(options, planEnterpriseWrites(options));
    if (ent.writes.length) {
      log('\nEnterprise writes: parity…');
      ent.parity = await enterpriseWriteParity(ent.writes, targets);
      await sqlStage(ent.writes, ctx);
      for (const workload of ent.writes) await measure(Object.assign(workload, { settleFirst: true }), ctx);
    }
    ent.export = await measureExport(options, targets.service, sizes, db);
  }
  const quiz = { writes: quizzes ? buildQuizWrites(options) : [], parity: [] };
  if (quiz.writes.length) {
    log('\nQuiz writes: parity…');
    await checkSeededReads(targets, BENCH_ADMIN_TOKEN);
    quiz.parity = await quizWriteParity(quiz.writes[0], targets);
    await sqlStage(quiz.writes, ctx);
    for (const workload of quiz.writes) await measure(Object.assign(workload, { settleFirst: true }), ctx);
  }
  if (enterprise) {
    const sizes = enterpriseSizes(options);
    await stop(service);
    await stop(counter);
    ent.tick = await measureTick(options, serviceEnv(await freePort()), db, sizes);
  }
  await db.close();

  // ---- 9. report ---------------------------------------------------------------------------------
  const wallSeconds = (Date.now() - started) / 1000;
  const all = [...workloads.filter((w) => !w.enterprise && !w.search && !w.quizzes), ...writes.workloads];
  const section = all.length
    ? report({ workloads: all, writes, settings, dbVersion, seedSeconds, wallSeconds, options, command })
    : '';
  const entSection = enterprise
    ? reportEnterprise({
        workloads: [...workloads.filter((w) => w.enterprise), ...ent.writes],
        ent,
        settings,
        dbVersion,
        seedSeconds,
        wallSeconds,
        options,
        command,
      })
    : '';
  const searchSection = search
    ? reportSearch({ workloads: workloads.filter((w) => w.search), ...search, settings, dbVersion, seedSeconds, wallSeconds, options, command })
    : '';
  const quizSection = quizzes
    ? reportQuizzes({ workloads: [...workloads.filter((w) => w.quizzes), ...quiz.writes], quiz, settings, dbVersion, seedSeconds, wallSeconds, options, command })
    : '';
  const trainingSection = training ? reportTraining({ result: training, settings, dbVersion, command }) : '';
  process.stdout.write(`\n${section}\n${entSection}\n${searchSection}\n${quizSection}\n${trainingSection}\n`);
  // Core write failures stop the report; enterprise ones are findings: the report lists them.
  const failed = writes.workloads.filter((w) => Object.values(w.stats).some((s) => s.conflicts || s.failures.length));
  for (const w of [...ent.writes, ...quiz.writes])
    for (const [target, s] of Object.entries(w.stats))
      if (s.failures.length) log(`  ${w.name} ${target}: ${s.failures.length} failed check(s), e.g. ${s.failures.slice(0, 3).join(' | ')}`);
  if (failed.length)
    throw new Error(
      `write load failures (report not written): ${failed
        .map((w) => `${w.name}: ${JSON.stringify(w.stats).slice(0, 600)}`)
        .join('; ')}`,
    );
  if (section) writeBenchmarks(options.output, section, settings.type);
  if (entSection) writeBenchmarks(options.output, entSection, `${settings.type}-enterprise`);
  if (searchSection) writeBenchmarks(options.output, searchSection, `${settings.type}-search`);
  if (quizSection) writeBenchmarks(options.output, quizSection, `${settings.type}-quizzes`);
  if (trainingSection) writeBenchmarks(options.output, trainingSection, `${settings.type}-training`);
  log(`\nWrote ${relative(ROOT, options.output) || options.output} (${settings.type} section); wall time ${wallSeconds.toFixed(0)}s`);
  if (options.cpuProf) log(`CPU profile of the service: ${relative(ROOT, join(BUILD_DIR, 'profiles'))}/ (written at exit)`);
}

// ---- helpers ---------------------------------------------------------------------------------------

/** Write parity, guide-writers-20, then the write loads (write-*.mjs); what the report says about them. */
async function writeStage(ctx) {
  const { targets, db } = ctx;
  const writes = { workloads: [], writers: [], parity: undefined, primed: 0 };
  const names = [...WRITE_WORKLOADS, WRITERS_CHECK];
  if (!options.guides || (options.workloads && !options.workloads.some((n) => names.includes(n)))) return writes;
  log('\nWrite workloads: parity of the answers…');
  const plan = planWrites(options.guides);
  writes.parity = await checkWriteParity({ targets, db, plan, options, publicUrl: PUBLIC_URL, log });
  if (!options.workloads || options.workloads.includes(WRITERS_CHECK)) {
    writersSelfTest();
    for (const target of Object.values(targets)) {
      const outcome = await writers20(target, db, plan.writers[target.name]);
      writes.writers.push(outcome);
      const problems = outcome.problems.length ? `FAILED: ${outcome.problems.join('; ')}` : 'ok';
      log(
        `  ${WRITERS_CHECK} ${target.name}: ${outcome.ok.length}×200, ${outcome.conflicts.length}×409, ` +
          `${outcome.other.length} other; ${problems}`,
      );
    }
    if (writes.writers.some((o) => o.problems.length)) throw new Error(`${WRITERS_CHECK} failed (see above)`);
  }
  writes.workloads = buildWriteWorkloads(options, plan, await loadHeads(db, plan));
  if (writes.workloads.some((w) => w.name === 'guide-patch')) {
    const t = Date.now();
    writes.primed = await primeServicePool(targets.service, plan);
    log(`  read the service's ${writes.primed} guide-patch guides once in ${((Date.now() - t) / 1000).toFixed(1)}s`);
  }
  await sqlStage(writes.workloads, ctx);
  for (const workload of writes.workloads) await measure(workload, ctx);
  return writes;
}

async function sqlStage(list, { sqlTargets, limitTarget, uncached, db, settings }) {
  if (list.length) log('SQL statements per request…');
  for (const workload of list) {
    workload.sql = {};
    const service = workload.uncached ? uncached.counter : sqlTargets.service;
    for (const target of [service, sqlTargets.baseline, ...(workload.limit ? [limitTarget] : [])]) {
      const counts = await sqlPerRequest(db, settings, target, workload);
      workload.sql[target.name] =
        target.name === 'service' ? (counts.header ?? counts.questions) : (counts.questions ?? counts.counter);
      log(
        `  ${workload.name} ${target.name}: SQL/request ${Object.entries(counts)
          .filter(([, v]) => v !== null)
          .map(([k, v]) => `${k} ${v.toFixed(2)}`)
          .join(', ')}`,
      );
    }
  }
}

async function measure(workload, { targets, limitTarget, uncached, db }) {
  log(`\n${workload.title}`);
  if (workload.settleFirst) {
    // The writes before (the core writes, the training import, the previous enterprise or quiz write) leave
    // background work (mail, search indexing, the category index) that would run beside this workload's rounds
    // and be counted as its CPU. This workload's own background work still runs beside its own rounds.
    workload.settled = await settle(db);
  }
  const service = workload.uncached ? uncached.service : targets.service;
  const measured = [service, targets.baseline, ...(workload.limit ? [limitTarget] : [])];
  workload.runs = Object.fromEntries(measured.map((target) => [target.name, []]));
  for (const target of measured) if (options.warmup > 0) await load(target, workload, options.warmup);
  for (let round = 1; round <= options.rounds; round++) {
    for (const target of measured) {
      resetPeakRss(target.proc.pid);
      const creates = workload.creates ? startCreates(service, workload.creates) : undefined;
      const cpuBefore = cpuMs(target.proc.pid);
      const result = await load(target, workload, options.duration);
      const cpu = cpuMs(target.proc.pid) - cpuBefore;
      if (creates) {
        const done = await creates.stop();
        if (done.failed) throw new Error(`${workload.name}: ${done.failed} of ${done.sent} guide creates failed: ${done.error}`);
        workload.createsSent = (workload.createsSent ?? 0) + done.sent;
      }
      const run = {
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        total: result.requests.total,
        non2xx: result.non2xx + result.errors + result.timeouts,
        cpuPerRequest: result.requests.total ? cpu / result.requests.total : NaN,
        peakRss: peakRssMiB(target.proc.pid),
      };
      workload.runs[target.name].push(run);
      const stats = workload.stats?.[target.name];
      log(
        `  round ${round} ${target.name.padEnd(8)} ${run.rps.toFixed(1).padStart(9)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms` +
          `  cpu ${run.cpuPerRequest.toFixed(2)} ms/req  peak ${run.peakRss.toFixed(0)} MiB` +
          (run.non2xx ? `  !! ${run.non2xx} non-2xx/errors` : '') +
          (stats ? `  (409s so far ${stats.conflicts}, failed checks ${stats.failures.length})` : ''),
      );
    }
  }
}

/** A measured service and its statement counter, both with ANSWER_CACHE=false (named 'service' in the report). */
async function startUncached(serviceEnv, mainJs) {
  const [servicePort, counterPort] = [await freePort(), await freePort()];
  const service = startNode(mainJs, [], serviceEnv(servicePort, false, false), SERVICE_NODE_OPTIONS);
  cleanups.push(() => stop(service));
  const counter = startNode(mainJs, [], serviceEnv(counterPort, true, false), SERVICE_NODE_OPTIONS);
  cleanups.push(() => stop(counter));
  return {
    service: { name: 'service', base: `http://127.0.0.1:${servicePort}`, proc: service },
    counter: { name: 'service', base: `http://127.0.0.1:${counterPort}`, proc: counter },
  };
}

let createSequence = 2_000_000;
/**
 * Guide creates sent to the service at `rate` a second (a steady stream, whichever target is being read), each
 * waited for; stop() answers how many were sent and failed.
 */
function startCreates(service, rate) {
  const counts = { sent: 0, failed: 0, error: '' };
  const inFlight = new Set();
  const timer = setInterval(() => {
    const body = createBody(createSequence++, options);
    const request = fetch(`${service.base}/api/2.0/guides`, { method: 'POST', headers: AUTH, body: JSON.stringify(body) })
      .then(async (res) => {
        if (res.status !== 201) {
          counts.failed += 1;
          counts.error = `${res.status} ${(await res.text()).slice(0, 200)}`;
        }
      })
      .catch((error) => {
        counts.failed += 1;
        counts.error = String(error);
      })
      .finally(() => inFlight.delete(request));
    counts.sent += 1;
    inFlight.add(request);
  }, 1000 / rate);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      return counts;
    },
  };
}

async function fetchJson(target, path, headers) {
  const res = await fetch(target.base + path, { headers });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${target.name} answered ${res.status} to GET ${path}: ${text.slice(0, 500)}`);
  return { text, body: JSON.parse(text), sqlHeader: res.headers.get('x-sql-statements') };
}

/**
 * Statements per request over SQL_SAMPLE_REQUESTS sequential requests: the X-Sql-Statements header
 * (service), the server's Questions counter (MySQL/MariaDB) and the baseline's own counter.
 */
async function sqlPerRequest(db, settings, target, workload) {
  const send = workload.send
    ? () => workload.send(target)
    : (i) => fetch(target.base + workload.paths[i % workload.paths.length], { headers: workload.headers });
  const questions = async () =>
    settings.type === 'mysql' ? Number((await db.query("SHOW GLOBAL STATUS LIKE 'Questions'"))[0].Value) : null;
  const counter = async () =>
    target.name !== 'service'
      ? (await (await fetch(`${target.base}/__bench/sql-statements`)).json()).statements
      : null;
  // Warm connections and caches: a read warms every path the sample sends (what the service keeps per document is
  // then counted as under load, where each path is sent thousands of times), a write its first request only.
  const warm = workload.write ? 1 : Math.min(SQL_SAMPLE_REQUESTS, workload.paths?.length ?? 1);
  for (let i = 0; i < warm; i++) await send(i).then((r) => r.bodyUsed || r.arrayBuffer());
  const [q0, c0] = [await questions(), await counter()];
  const headers = [];
  for (let i = 0; i < SQL_SAMPLE_REQUESTS; i++) {
    const res = await send(i);
    if (!res.bodyUsed) await res.arrayBuffer();
    headers.push(res.headers.get('x-sql-statements'));
  }
  // The service's guide.changed listeners run after the answer (setImmediate): let them finish.
  if (workload.write) await new Promise((r) => setTimeout(r, 300));
  const [q1, c1] = [await questions(), await counter()];
  const per = (before, after, extra = 0) =>
    before === null ? null : (after - before - extra) / SQL_SAMPLE_REQUESTS;
  return {
    header: headers.every((h) => h !== null) ? headers.reduce((sum, h) => sum + Number(h), 0) / headers.length : null,
    questions: per(q0, q1, 1), // minus the SHOW itself
    counter: per(c0, c1),
  };
}

function load(target, workload, duration) {
  return new Promise((resolveRun, reject) => {
    autocannon(
      {
        url: target.base,
        connections: options.connections,
        duration,
        requests:
          workload.autocannon?.(target.name) ??
          workload.paths.map((path) => ({ method: 'GET', path, ...(workload.headers ? { headers: workload.headers } : {}) })),
      },
      (error, result) => {
        workload.settle?.(target.name);
        // Writes still in flight when a run ends are left to finish before the other target is loaded (on
        // SQLite a write of one process can make the other's open transaction fail: SQLITE_BUSY_SNAPSHOT).
        const pause = workload.write ? WRITE_PAUSE_MS : 0;
        setTimeout(() => (error ? reject(error) : resolveRun(result)), pause);
      },
    );
  });
}

try {
  await main();
  await cleanup();
} catch (error) {
  log(`\nBENCH FAILED: ${error.stack ?? error}`);
  for (const [name, proc] of servers)
    if (proc.output().trim()) log(`\n--- last output of the ${name} ---\n${proc.output().slice(-3000)}`);
  await cleanup();
  process.exit(1);
}
