// Shared helpers of the HTTP benchmark harness (issue 8): options, database access, child processes,
// /proc readings. Plain Node ESM: nothing to compile.
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

export const require = createRequire(import.meta.url);
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The Node options `npm start` runs the service with (package.json's `start`: `node <options> dist/src/main.js`):
 * the measured service, its SQL-counting twin and the periodic-review task's process start with them too, so
 * the bench measures the service as it is run.
 */
export const SERVICE_NODE_OPTIONS = (() => {
  const start = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')).scripts.start;
  const words = start.split(/\s+/);
  if (words[0] !== 'node' || !words.at(-1).endsWith('main.js')) throw new Error(`package.json start is not "node … main.js": ${start}`);
  return words.slice(1, -1);
})();
export const BUILD_DIR = resolve(ROOT, '.bench-build');

/** `--name value`, `--name=value` or env BENCH_NAME; defaults otherwise. */
export function parseOptions(argv = process.argv.slice(2)) {
  const flags = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new Error(`Unexpected argument ${arg}`);
    const eq = arg.indexOf('=');
    if (eq > 0) flags[arg.slice(2, eq)] = arg.slice(eq + 1);
    else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) flags[arg.slice(2)] = argv[++i];
    else flags[arg.slice(2)] = 'true';
  }
  const get = (name, fallback) => flags[name] ?? process.env[`BENCH_${name.toUpperCase().replace(/-/g, '_')}`] ?? fallback;
  const int = (name, fallback) => {
    const value = Number(get(name, String(fallback)));
    if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} expects a number`);
    return value;
  };
  const options = {
    db: get('db', 'sqlite'),
    duration: int('duration', 8),
    connections: int('connections', 10),
    categories: int('categories', 10000),
    guides: int('guides', 10000),
    users: int('users', 1000),
    // Enterprise data set (seed-enterprise.mjs): releases, approval requests (pending releases among them),
    // work-log entries (20 values each) plus started entries for the stepData writes, review documents.
    releases: int('releases', 10000),
    approvals: int('approvals', 8000),
    worklog: int('worklog', 100000),
    worklogWrites: int('worklog-writes', 4000),
    reviews: int('reviews', 50000),
    wikis: int('wikis', 10000), // INFO wiki pages of the search workload (seed-search.mjs)
    // Quizzes (seed-quizzes.mjs): quizzes of 30 questions, sessions (the submit workload's pool included).
    quizzes: int('quizzes', 10000),
    quizSessions: int('quiz-sessions', 200000),
    quizWrites: int('quiz-writes', 150000),
    // Wide read workloads (workloads.mjs): documents read evenly, and guide creates a second beside them.
    wide: int('wide', 2000),
    createRate: int('create-rate', 10),
    rounds: int('rounds', 2),
    warmup: int('warmup', 2),
    workloads: get('workloads', '') ? get('workloads', '').split(',') : undefined,
    output: get('output', resolve(ROOT, 'BENCHMARKS.md')),
    skipBuild: get('skip-build', 'false') === 'true',
    keep: get('keep', 'false') === 'true',
    cpuProf: get('cpu-prof', 'false') === 'true',
    // Seed the enterprise and quizzes data sets (released versions of most guides among them) whatever the
    // workloads, as a whole run does: the core reads then look up live releases that exist.
    seedAll: get('seed-all', 'false') === 'true',
    databaseUrl: process.env.BENCH_DATABASE_URL ?? get('database-url', 'mysql://root@127.0.0.1:3306/'),
  };
  if (!['sqlite', 'mysql'].includes(options.db)) throw new Error('--db expects sqlite or mysql');
  if (options.help || flags.help) options.help = true;
  return options;
}

// ---- database ------------------------------------------------------------------------------------

/** A tiny uniform handle over better-sqlite3 and mysql2: exec, query, insertMany, close. */
export async function openDb(settings) {
  if (settings.type === 'sqlite') {
    const Database = require('better-sqlite3');
    const db = new Database(settings.path);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    return {
      type: 'sqlite',
      exec: async (sql) => db.exec(sql),
      query: async (sql, params = []) => db.prepare(sql).all(...params),
      begin: async () => db.exec('BEGIN'),
      commit: async () => db.exec('COMMIT'),
      run: async (sql, params = []) => db.prepare(sql).run(...params),
      close: async () => db.close(),
      raw: db,
    };
  }
  const mysql = require('mysql2/promise');
  const conn = await mysql.createConnection({
    host: settings.host,
    port: settings.port,
    user: settings.user,
    password: settings.password,
    database: settings.database,
    multipleStatements: true,
    charset: 'utf8mb4_unicode_ci',
    supportBigNumbers: true,
  });
  return {
    type: 'mysql',
    exec: async (sql) => conn.query(sql),
    query: async (sql, params = []) => (await conn.query(sql, params))[0],
    begin: async () => conn.query('START TRANSACTION'),
    commit: async () => conn.query('COMMIT'),
    run: async (sql, params = []) => conn.query(sql, params),
    close: async () => conn.end(),
    raw: conn,
  };
}

export function mysqlSettingsFromUrl(url, database) {
  const parsed = new URL(url);
  return {
    type: 'mysql',
    host: parsed.hostname || '127.0.0.1',
    port: parsed.port ? Number(parsed.port) : 3306,
    user: decodeURIComponent(parsed.username || 'root'),
    password: decodeURIComponent(parsed.password),
    database,
  };
}

export function databaseUrlOf(settings) {
  const auth = settings.password
    ? `${encodeURIComponent(settings.user)}:${encodeURIComponent(settings.password)}`
    : encodeURIComponent(settings.user);
  return `mysql://${auth}@${settings.host}:${settings.port}/${settings.database}`;
}

/** The environment the service reads (src/config/app-config.ts). */
export function serviceDbEnv(settings) {
  if (settings.type === 'sqlite') return { DB_TYPE: 'sqlite', DB_PATH: settings.path };
  return { DB_TYPE: 'mysql', DATABASE_URL: databaseUrlOf(settings) };
}

/** Multi-row INSERTs of `chunk` rows per statement, all in one transaction per `chunk * 10` rows. */
export async function insertMany(db, table, columns, rows, { chunk = 1000, onProgress } = {}) {
  const q = db.type === 'mysql' ? '`' : '"';
  const head = `INSERT INTO ${q}${table}${q} (${columns.map((c) => `${q}${c}${q}`).join(', ')}) VALUES `;
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  // SQLite caps bound parameters at 32766: keep a statement under it.
  const perStatement = Math.max(1, Math.min(chunk, Math.floor(32000 / columns.length)));
  let done = 0;
  let prepared;
  for (let start = 0; start < rows.length; start += perStatement * 10) {
    await db.begin();
    for (let s = start; s < Math.min(rows.length, start + perStatement * 10); s += perStatement) {
      const slice = rows.slice(s, s + perStatement);
      const sql = head + new Array(slice.length).fill(tuple).join(', ');
      const params = slice.flat();
      if (db.type === 'sqlite') {
        if (!prepared || prepared.n !== slice.length) prepared = { n: slice.length, stmt: db.raw.prepare(sql) };
        prepared.stmt.run(...params);
      } else {
        await db.raw.query(sql, params);
      }
      done += slice.length;
      onProgress?.(done);
    }
    await db.commit();
  }
}

// ---- progress ------------------------------------------------------------------------------------

export function progress(label, total) {
  let last = 0;
  const started = Date.now();
  const draw = (done, final = false) => {
    const now = Date.now();
    if (!final && now - last < 100) return;
    last = now;
    const width = 30;
    const filled = Math.round((done / Math.max(total, 1)) * width);
    process.stderr.write(
      `\r  ${label.padEnd(18)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(done).padStart(7)}/${total}` +
        (final ? ` ${((now - started) / 1000).toFixed(1)}s\n` : ''),
    );
  };
  return { update: (done) => draw(done), done: () => draw(total, true) };
}

export const log = (message) => process.stderr.write(`${message}\n`);

/**
 * Waits until the service has no undelivered event and no queued or running job (at most `limitMs`): the
 * workloads before leave a backlog (search indexing of every created guide, the category index, mail) that the
 * service works off in the background, and its CPU and memory would be counted as the next measurement's.
 * Answers the wait.
 */
async function quiescent(db, limitMs = 180_000) {
  const started = Date.now();
  for (;;) {
    const [{ n: events }] = await db.query('SELECT COUNT(*) AS n FROM domain_events WHERE dispatched_at IS NULL');
    const [{ n: jobs }] = await db.query("SELECT COUNT(*) AS n FROM jobs WHERE status IN ('queued', 'running')");
    const waitedMs = Date.now() - started;
    if ((Number(events) === 0 && Number(jobs) === 0) || waitedMs > limitMs) {
      return { waitedMs, events: Number(events), jobs: Number(jobs) };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** quiescent(), logged. */
export async function settle(db) {
  const settled = await quiescent(db);
  log(
    `  waited ${(settled.waitedMs / 1000).toFixed(1)}s for the service's background work first` +
      (settled.events || settled.jobs ? ` (still ${settled.events} events, ${settled.jobs} jobs pending)` : ''),
  );
  return settled;
}

/** How long a measurement waited for settle(), for the reports. */
export const waitedText = (settled) =>
  `waited ${(settled.waitedMs / 1000).toFixed(1)}s` +
  (settled.events || settled.jobs ? `; still ${settled.events} events and ${settled.jobs} jobs pending after the limit` : '');


// ---- processes -----------------------------------------------------------------------------------

export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/** Starts a Node child; stderr/stdout kept (last 64 KiB) for error messages. */
export function startNode(script, args, env, nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-65536);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolveExit) => child.on('exit', (code, signal) => resolveExit({ code, signal })));
  return { child, pid: child.pid, output: () => output, exited };
}

export async function waitForHttp(url, proc, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  proc.exited.then(() => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`process exited before answering ${url}:\n${proc.output()}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${url}:\n${proc.output()}`);
}

export async function stop(proc, timeoutMs = 15_000) {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill('SIGTERM');
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), timeoutMs);
  await proc.exited;
  clearTimeout(timer);
}

// ---- /proc ---------------------------------------------------------------------------------------

export const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of a process, in milliseconds. */
export function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): utime is field 14, stime field 15.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

/** Peak RSS (VmHWM) in MiB. */
export function peakRssMiB(pid) {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/** Resets VmHWM to the current RSS (Linux: write 5 to clear_refs); false when not permitted. */
export function resetPeakRss(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

export function machineDescription() {
  const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
  const model = /model name\s*:\s*(.+)/.exec(cpuinfo)?.[1]?.trim() ?? 'unknown CPU';
  const meminfo = existsSync('/proc/meminfo') ? readFileSync('/proc/meminfo', 'utf8') : '';
  const memKb = Number(/MemTotal:\s+(\d+)/.exec(meminfo)?.[1] ?? 0);
  let cores = '?';
  try {
    cores = execFileSync('nproc').toString().trim();
  } catch {
    /* ignore */
  }
  let os = process.platform;
  try {
    os = /PRETTY_NAME="([^"]+)"/.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? os;
  } catch {
    /* ignore */
  }
  return { cores, model, memGiB: (memKb / 1024 / 1024).toFixed(1), node: process.version, os };
}

// ---- answers --------------------------------------------------------------------------------------

/** Where two JSON values first differ (a: the service's, b: the baseline's), for error messages. */
export function firstDifference(a, b, path = '$') {
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
