#!/usr/bin/env node
// npm run bench (issue 8, first part): builds the service into .bench-build/, creates a fresh database
// (SQLite file or MySQL/MariaDB database rgcs_bench_<pid>), lets the service's migrations create the
// schema, bulk-seeds DESIGN §8's data set (users + category tree; guides come with the guides module),
// starts the service (production) and a plain Fastify baseline, checks that both answer the same JSON,
// then loads both with autocannon, interleaved, and writes BENCHMARKS.md.
//
// Options (flag or env BENCH_<NAME>): --db sqlite|mysql, --duration 10, --connections 10,
// --categories 10000, --users 1000, --rounds 2, --warmup 2, --workloads a,b, --output BENCHMARKS.md,
// --skip-build, --keep (keep the database), --cpu-prof (profile the service into .bench-build/profiles).
// MySQL server: BENCH_DATABASE_URL (default mysql://root@127.0.0.1:3306/).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import {
  BUILD_DIR,
  ROOT,
  cpuMs,
  freePort,
  log,
  machineDescription,
  mysqlSettingsFromUrl,
  openDb,
  parseOptions,
  peakRssMiB,
  require,
  resetPeakRss,
  serviceDbEnv,
  startNode,
  stop,
  waitForHttp,
} from './lib.mjs';
import { ROOTS, categoryTitle, detailSample, searchTerms, seed } from './seed.mjs';

const autocannon = require('autocannon');
const PUBLIC_URL = 'http://bench.example';
const SQL_SAMPLE_REQUESTS = 20;

const started = Date.now();
const options = parseOptions();
if (options.help) {
  log(readFileSync(new URL(import.meta.url), 'utf8').split('\n').slice(1, 11).join('\n'));
  process.exit(0);
}
const command = `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim().replace(/ --$/, '');

const cleanups = [];
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

  const serviceEnv = (port) => ({
    ...serviceDbEnv(settings),
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL,
    MEDIA_DIR: join(tmpdir(), `rgcs_bench_media_${process.pid}`),
    ADMIN_EMAIL: '',
    ADMIN_PASSWORD: '',
  });
  cleanups.push(async () => rmSync(join(tmpdir(), `rgcs_bench_media_${process.pid}`), { recursive: true, force: true }));

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
  log(`Seeding ${options.users} users and a ${options.categories}-node category tree…`);
  const db = await openDb(settings);
  await seed(db, { users: options.users, categories: options.categories });
  const dbVersion =
    settings.type === 'sqlite'
      ? `SQLite ${(await db.query('SELECT sqlite_version() AS v'))[0].v} (better-sqlite3)`
      : `MySQL/MariaDB ${(await db.query('SELECT VERSION() AS v'))[0].v}`;
  const seedSeconds = (Date.now() - seedStarted) / 1000;
  log(`Seeded in ${seedSeconds.toFixed(1)}s`);

  // ---- 4. service and baseline -------------------------------------------------------------------
  const [servicePort, baselinePort] = [await freePort(), await freePort()];
  const nodeArgs = [];
  if (options.cpuProf) {
    const dir = join(BUILD_DIR, 'profiles');
    mkdirSync(dir, { recursive: true });
    nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${dir}`);
  }
  const service = startNode(mainJs, [], serviceEnv(servicePort), nodeArgs);
  cleanups.push(() => stop(service));
  const baseline = startNode(resolve(ROOT, 'scripts/bench/baseline-server.mjs'), [], {
    ...serviceDbEnv(settings),
    PORT: String(baselinePort),
    HOST: '127.0.0.1',
    PUBLIC_URL,
    NODE_ENV: 'production',
  });
  cleanups.push(() => stop(baseline));
  const targets = {
    service: { name: 'service', base: `http://127.0.0.1:${servicePort}`, proc: service },
    baseline: { name: 'baseline', base: `http://127.0.0.1:${baselinePort}`, proc: baseline },
  };
  await Promise.all(Object.values(targets).map((t) => waitForHttp(`${t.base}/api/2.0/health`, t.proc)));
  log(`Service on :${servicePort} (pid ${service.pid}), baseline on :${baselinePort} (pid ${baseline.pid})`);

  // ---- 5. workloads, verification and parity -----------------------------------------------------
  const detailPaths = detailSample(options.categories).map(
    (i) => `/api/2.0/wikis/CATEGORY/${encodeURIComponent(categoryTitle(i).replace(/ /g, '_'))}`,
  );
  const workloads = [
    {
      name: 'category-hierarchy',
      title: `GET /wikis/CATEGORY?display=hierarchy (${options.categories} nodes)`,
      paths: ['/api/2.0/wikis/CATEGORY?display=hierarchy'],
      verify: (body) => {
        const nodes = countNodes(body.hierarchy);
        if (nodes !== options.categories) throw new Error(`hierarchy has ${nodes} nodes, expected ${options.categories}`);
        if (Object.keys(body.display_titles).length !== options.categories) throw new Error('display_titles incomplete');
        return `${nodes} nodes, ${Object.keys(body.hierarchy).length} top level`;
      },
    },
    {
      name: 'category-detail',
      title: `GET /wikis/CATEGORY/{title} (${detailPaths.length} categories with parent and children)`,
      paths: detailPaths,
      verify: (body) => {
        if (!body.children?.length || !body.ancestors?.length) throw new Error('detail without children or ancestors');
        return `${body.title}: ${body.ancestors.length} ancestor(s), ${body.children.length} children`;
      },
    },
    {
      name: 'user-search',
      title: `GET /users/search/{term} (${searchTerms(options.users).length} terms)`,
      paths: searchTerms(options.users).map((t) => `/api/2.0/users/search/${encodeURIComponent(t)}`),
      verify: (body) => {
        if (!body.results?.length) throw new Error(`no results for ${body.search}`);
        return `"${body.search}": ${body.totalResults} matches, ${body.results.length} shown`;
      },
    },
  ].filter((w) => !options.workloads || options.workloads.includes(w.name));

  log('Verifying answers and service/baseline parity…');
  for (const workload of workloads) {
    let note = '';
    for (const [k, path] of workload.paths.entries()) {
      const [a, b] = await Promise.all([fetchJson(targets.service, path), fetchJson(targets.baseline, path)]);
      if (k === 0) note = workload.verify(a.body);
      if (a.sqlHeader !== null) (workload.headerSql ??= []).push(Number(a.sqlHeader));
      if (!isDeepStrictEqual(a.body, b.body)) {
        throw new Error(
          `PARITY FAILURE on ${path}: service and baseline answers differ at ${firstDifference(a.body, b.body)}`,
        );
      }
      if (a.text !== b.text) workload.orderNote = 'same values, different key order or spacing';
    }
    log(`  ${workload.name}: 200, ${note}; ${workload.paths.length} path(s) identical after JSON.parse`);
  }

  // ---- 6. SQL statements per request (MySQL: global Questions counter) ---------------------------
  for (const workload of workloads) {
    workload.sql = {};
    for (const target of Object.values(targets)) {
      workload.sql[target.name] = settings.type === 'mysql' ? await sqlPerRequest(db, target, workload.paths) : null;
    }
    // Should the service ever send x-sql-statements (exposeSqlCount), its own count wins.
    if (workload.headerSql?.length) workload.sql.service = mean(workload.headerSql);
  }

  // ---- 7. load, interleaved ----------------------------------------------------------------------
  for (const workload of workloads) {
    log(`\n${workload.title}`);
    workload.runs = { service: [], baseline: [] };
    for (const target of Object.values(targets)) if (options.warmup > 0) await load(target, workload, options.warmup);
    for (let round = 1; round <= options.rounds; round++) {
      for (const target of [targets.service, targets.baseline]) {
        resetPeakRss(target.proc.pid);
        const cpuBefore = cpuMs(target.proc.pid);
        const result = await load(target, workload, options.duration);
        const cpu = cpuMs(target.proc.pid) - cpuBefore;
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
        log(
          `  round ${round} ${target.name.padEnd(8)} ${run.rps.toFixed(1).padStart(9)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms` +
            `  cpu ${run.cpuPerRequest.toFixed(2)} ms/req  peak ${run.peakRss.toFixed(0)} MiB` +
            (run.non2xx ? `  !! ${run.non2xx} non-2xx/errors` : ''),
        );
      }
    }
  }
  await db.close();

  // ---- 8. report ---------------------------------------------------------------------------------
  const wallSeconds = (Date.now() - started) / 1000;
  const section = report({ workloads, settings, dbVersion, seedSeconds, wallSeconds });
  process.stdout.write(`\n${section}\n`);
  writeBenchmarks(section, settings.type);
  log(`\nWrote ${relative(ROOT, options.output) || options.output} (${settings.type} section); wall time ${wallSeconds.toFixed(0)}s`);
  if (options.cpuProf) log(`CPU profile of the service: ${relative(ROOT, join(BUILD_DIR, 'profiles'))}/ (written at exit)`);
}

// ---- helpers ---------------------------------------------------------------------------------------

async function fetchJson(target, path) {
  const res = await fetch(target.base + path);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${target.name} answered ${res.status} to GET ${path}: ${text.slice(0, 500)}`);
  return { text, body: JSON.parse(text), sqlHeader: res.headers.get('x-sql-statements') };
}

function countNodes(tree) {
  let n = 0;
  const stack = [tree];
  while (stack.length) {
    const node = stack.pop();
    for (const child of Object.values(node ?? {})) {
      n += 1;
      if (child) stack.push(child);
    }
  }
  return n;
}

function firstDifference(a, b, path = '$') {
  if (isDeepStrictEqual(a, b)) return undefined;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      if (!(key in a)) return `${path}.${key} (only in baseline: ${JSON.stringify(b[key]).slice(0, 200)})`;
      if (!(key in b)) return `${path}.${key} (only in service: ${JSON.stringify(a[key]).slice(0, 200)})`;
      const inner = firstDifference(a[key], b[key], `${path}.${key}`);
      if (inner) return inner;
    }
  }
  return `${path}: service ${JSON.stringify(a)?.slice(0, 200)} vs baseline ${JSON.stringify(b)?.slice(0, 200)}`;
}

/** MySQL/MariaDB: statements the server received per request, from SHOW GLOBAL STATUS 'Questions'. */
async function sqlPerRequest(db, target, paths) {
  const questions = async () => Number((await db.query("SHOW GLOBAL STATUS LIKE 'Questions'"))[0].Value);
  await fetch(target.base + paths[0]).then((r) => r.arrayBuffer()); // warm connections and caches
  const before = await questions();
  for (let i = 0; i < SQL_SAMPLE_REQUESTS; i++) await fetch(target.base + paths[i % paths.length]).then((r) => r.arrayBuffer());
  const after = await questions();
  return (after - before - 1) / SQL_SAMPLE_REQUESTS; // minus the SHOW itself
}

function load(target, workload, duration) {
  return new Promise((resolveRun, reject) => {
    autocannon(
      {
        url: target.base,
        connections: options.connections,
        duration,
        requests: workload.paths.map((path) => ({ method: 'GET', path })),
      },
      (error, result) => (error ? reject(error) : resolveRun(result)),
    );
  });
}

const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
const fmt = (x, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');

function summarize(runs) {
  return {
    rps: mean(runs.map((r) => r.rps)),
    p50: mean(runs.map((r) => r.p50)),
    p99: mean(runs.map((r) => r.p99)),
    cpu: mean(runs.map((r) => r.cpuPerRequest)),
    peak: Math.max(...runs.map((r) => r.peakRss)),
    non2xx: runs.reduce((s, r) => s + r.non2xx, 0),
  };
}

function report({ workloads, settings, dbVersion, seedSeconds, wallSeconds }) {
  const m = machineDescription();
  const lines = [
    `### ${settings.type === 'sqlite' ? 'SQLite' : 'MySQL / MariaDB'}`,
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Command: \`${command}\``,
    `- Machine: ${m.cores} CPU(s), ${m.model}, ${m.memGiB} GiB RAM, ${m.os}; Node ${m.node}; ${dbVersion}`,
    `- Data set: ${options.categories} categories (${ROOTS} top level, 10 children per node), ${options.users} users; ` +
      `seeded in ${seedSeconds.toFixed(1)}s`,
    `- Load: autocannon, ${options.connections} connections, ${options.duration}s per run, ${options.rounds} round(s) ` +
      `per target interleaved (service, baseline, service, …) after a ${options.warmup}s warm-up; values are means of ` +
      'the rounds, peak memory the highest VmHWM of a round',
    `- Wall time of the whole run: ${wallSeconds.toFixed(0)}s`,
    '',
  ];
  for (const w of workloads) {
    const s = summarize(w.runs.service);
    const b = summarize(w.runs.baseline);
    const sql = (name) => (w.sql[name] === null ? 'n/a' : fmt(w.sql[name], 1));
    const ratio = (x, y, digits = 2) => (Number.isFinite(x / y) ? `${(x / y).toFixed(digits)}×` : 'n/a');
    lines.push(
      `#### ${w.title}`,
      '',
      '| | requests/s | p50 ms | p99 ms | SQL statements/request | CPU ms/request | peak RSS MiB |',
      '|---|---:|---:|---:|---:|---:|---:|',
      `| service | ${fmt(s.rps)} | ${fmt(s.p50)} | ${fmt(s.p99)} | ${sql('service')} | ${fmt(s.cpu, 2)} | ${fmt(s.peak, 0)} |`,
      `| baseline | ${fmt(b.rps)} | ${fmt(b.p50)} | ${fmt(b.p99)} | ${sql('baseline')} | ${fmt(b.cpu, 2)} | ${fmt(b.peak, 0)} |`,
      `| service/baseline | ${ratio(s.rps, b.rps)} | ${ratio(s.p50, b.p50)} | ${ratio(s.p99, b.p99)} | ` +
        `${w.sql.service === null ? 'n/a' : ratio(w.sql.service, w.sql.baseline)} | ${ratio(s.cpu, b.cpu)} | ${ratio(s.peak, b.peak)} |`,
      '',
    );
    if (s.non2xx || b.non2xx) lines.push(`**Warning:** non-2xx answers or errors: service ${s.non2xx}, baseline ${b.non2xx}.`, '');
    if (w.orderNote) lines.push(`Note: ${w.orderNote}.`, '');
  }
  return lines.join('\n');
}

const HEADER = `# Benchmarks

Generated by \`npm run bench\` (\`scripts/bench/run.mjs\`, DESIGN §8). Each section is rewritten by a run on
that database; the other database's section is kept.

How it works: the service is compiled with \`tsc\` into \`.bench-build/\` and started with
\`NODE_ENV=production LOG_LEVEL=warn\` against a fresh database whose schema its own migrations create;
the data set is bulk-inserted with raw multi-row INSERTs. The baseline
(\`scripts/bench/baseline-server.mjs\`) is plain Fastify with better-sqlite3 / mysql2 and hand-written SQL;
before measuring, every workload path is requested from both and the answers must be deep-equal after
\`JSON.parse\` (the run fails otherwise). Both processes run for the whole bench and each workload
alternates between them, so machine noise hits both.

- **requests/s, p50, p99**: autocannon (the load generator runs on the same machine).
- **SQL statements/request**: MySQL/MariaDB only, from \`SHOW GLOBAL STATUS LIKE 'Questions'\` around
  ${SQL_SAMPLE_REQUESTS} sequential requests. SQLite has no server-side counter ("n/a"); the service can send an
  \`x-sql-statements\` header only when created with \`exposeSqlCount\`, which the environment cannot enable yet.
- **CPU ms/request**: user + system time of the server process (\`/proc/<pid>/stat\`) over the run, divided by
  the requests answered.
- **peak RSS**: \`VmHWM\` of the server process (reset before each run through \`/proc/<pid>/clear_refs\`).

Parity limits of the baseline (it answers only what the seeded data needs): category detail in the source
language for anonymous callers, no image, document or wiki-link resolution (the seed has none), contents
rendered with the service's own wiki-text engine; hierarchy with default options; user search as an
anonymous caller.

## Not yet measured

Coming with the guides module: guide detail, guide lists, POST/PATCH guides, 20 writers on one guide
(and the 10,000 guides × 20 steps × 3 lines × 2 images of the data set).
`;

function writeBenchmarks(section, db) {
  const file = options.output;
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const sections = {};
  for (const name of ['sqlite', 'mysql']) {
    const match = new RegExp(`<!-- bench:${name}:start -->\\n([\\s\\S]*?)<!-- bench:${name}:end -->`).exec(old);
    if (match) sections[name] = match[1];
  }
  sections[db] = `${section}\n`;
  let text = `${HEADER}\n## Results\n`;
  for (const name of ['sqlite', 'mysql'])
    if (sections[name]) text += `\n<!-- bench:${name}:start -->\n${sections[name]}<!-- bench:${name}:end -->\n`;
  writeFileSync(file, text);
}

try {
  await main();
  await cleanup();
} catch (error) {
  log(`\nBENCH FAILED: ${error.stack ?? error}`);
  await cleanup();
  process.exit(1);
}
