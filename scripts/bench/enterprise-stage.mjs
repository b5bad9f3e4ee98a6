// The enterprise measurements that are not request loads, and the write parity of the enterprise writes:
// - write parity: the baseline writes (signs a request, records step data) and the service must read that
//   row identically (GET /approvals/request/{id}, GET /work_log/{entryid}); the service's own write answer
//   must have the same keys as the baseline's;
// - worklog-export: GET /work_log/export.csv?guideid=1 (every entry of the data set) streamed from the
//   measured service: bytes, rows, time, CPU and the peak RSS growth over the RSS before;
// - review-tick: the periodic-review task run once in a process of its own (tick-entry.mjs): CPU, wall
//   time and peak RSS, and the rows it changed.
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { resolve } from 'node:path';
import {
  BUILD_DIR,
  ROOT,
  SERVICE_NODE_OPTIONS,
  cpuMs,
  firstDifference,
  log,
  peakRssMiB,
  resetPeakRss,
  settle,
  startNode,
} from './lib.mjs';
import { BENCH_ADMIN_TOKEN } from './seed-guides.mjs';
import { APPROVER, WORKER, changedByTick } from './seed-enterprise.mjs';
import { authOf, selected } from './workloads-enterprise.mjs';

const rssMiB = (pid) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
};

/** Key paths of a JSON value (array items merged), for comparing shapes of answers about different rows. */
function shape(value, path = '$', out = new Set()) {
  if (Array.isArray(value)) {
    out.add(`${path}[]`);
    for (const item of value) shape(item, `${path}[]`, out);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) shape(v, `${path}.${k}`, out.add(`${path}.${k}`));
  }
  return out;
}
const sameShape = (a, b) => {
  const [x, y] = [shape(a), shape(b)];
  const missing = [...x].filter((k) => !y.has(k)).concat([...y].filter((k) => !x.has(k)));
  return missing;
};

async function call(target, spec) {
  const res = await fetch(target.base + spec.path, { method: spec.method, headers: spec.headers, body: spec.body });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
}

/** Parity of the enterprise writes (see above); throws on a difference. Notes for the report. */
export async function enterpriseWriteParity(writes, targets) {
  const notes = [];
  for (const workload of writes) {
    const readPath = (spec) =>
      workload.name === 'approval-sign'
        ? `/api/2.0/approvals/request/${spec.path.split('/').pop()}`
        : `/api/2.0/work_log/${spec.path.split('/')[4]}`;
    const token = workload.name === 'approval-sign' ? APPROVER.token : WORKER.token;
    const b = workload.next('baseline');
    const written = await call(targets.baseline, b);
    if (written.status !== 200) throw new Error(`${workload.name} parity: the baseline answered ${written.status}: ${written.text.slice(0, 300)}`);
    const read = await call(targets.service, { method: 'GET', path: readPath(b), headers: authOf(token) });
    if (read.status !== 200) throw new Error(`${workload.name} parity: the service answered ${read.status} reading ${readPath(b)}`);
    // A started entry's duration runs with the clock: compare it within a second.
    if (workload.name === 'worklog-stepdata' && Math.abs(read.body.duration - written.body.duration) <= 1)
      read.body.duration = written.body.duration;
    if (!isDeepStrictEqual(read.body, written.body))
      throw new Error(
        `${workload.name} PARITY FAILURE: the service reads the baseline's write differently at ${firstDifference(read.body, written.body)}`,
      );
    const s = workload.next('service');
    const own = await call(targets.service, s);
    if (own.status !== 200) throw new Error(`${workload.name} parity: the service answered ${own.status}: ${own.text.slice(0, 300)}`);
    const missing = sameShape(own.body, written.body);
    if (missing.length) throw new Error(`${workload.name} parity: the answers' keys differ: ${missing.slice(0, 10).join(', ')}`);
    workload.check = { baseline: b, service: s };
    notes.push(
      `${workload.name}: the service reads the baseline's write deep-equal (${readPath(b)}); both write answers have the same ${shape(own.body).size} key paths`,
    );
    log(`  ${notes.at(-1)}`);
  }
  return notes;
}

/**
 * Streams the export from the measured service once its background work is done; RSS growth is the peak
 * (VmHWM) over the RSS before.
 */
export async function measureExport(options, target, sizes, db) {
  if (!selected(options, 'worklog-export') || !sizes.worklog) return undefined;
  log('\nworklog-export: GET /work_log/export.csv?guideid=1 (Admin), streamed and discarded…');
  const idle = await settle(db);
  globalThis.gc?.();
  await new Promise((r) => setTimeout(r, 500));
  const pid = target.proc.pid;
  const reset = resetPeakRss(pid);
  const rssBefore = rssMiB(pid);
  const cpuBefore = cpuMs(pid);
  const t0 = Date.now();
  const res = await fetch(`${target.base}/api/2.0/work_log/export.csv?guideid=1`, { headers: authOf(BENCH_ADMIN_TOKEN) });
  if (res.status !== 200) throw new Error(`export answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  let bytes = 0;
  let lines = 0;
  let maxPeak = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    for (let i = 0; i < value.length; i++) if (value[i] === 10) lines++;
    if ((lines & 0x3fff) === 0) maxPeak = Math.max(maxPeak, peakRssMiB(pid));
  }
  const seconds = (Date.now() - t0) / 1000;
  const peak = Math.max(maxPeak, peakRssMiB(pid));
  const result = {
    bytes,
    rows: lines - 1,
    seconds,
    cpuMs: cpuMs(pid) - cpuBefore,
    rssBefore,
    peak,
    growth: peak - rssBefore,
    reset,
    idle,
    expectedRows: sizes.worklog * 20,
  };
  log(
    `  ${result.rows} rows, ${(bytes / 1048576).toFixed(1)} MiB in ${seconds.toFixed(1)}s; service CPU ${(result.cpuMs / 1000).toFixed(1)}s; ` +
      `RSS before ${rssBefore.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB, growth ${result.growth.toFixed(1)} MiB` +
      (reset ? '' : ' (VmHWM could not be reset: the peak is the process lifetime peak)'),
  );
  if (result.rows !== result.expectedRows) throw new Error(`export: ${result.rows} rows, expected ${result.expectedRows}`);
  return result;
}

/** The periodic-review task, once, in a process of its own against the seeded database. */
export async function measureTick(options, env, db, sizes) {
  if (!selected(options, 'review-tick') || !sizes.reviews) return undefined;
  log(`\nreview-tick: the periodic-review task once over ${sizes.reviews} scheduled documents (tick-entry.mjs)…`);
  const profile = options.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${resolve(BUILD_DIR, 'profiles')}`] : [];
  const proc = startNode(resolve(ROOT, 'scripts/bench/tick-entry.mjs'), [], { ...env, SCHEDULER_ENABLED: 'false' }, [
    ...SERVICE_NODE_OPTIONS,
    '--expose-gc',
    ...profile,
  ]);
  const exit = await proc.exited;
  const line = proc
    .output()
    .split('\n')
    .find((l) => l.startsWith('{"ran"'));
  if (exit.code !== 0 || !line) throw new Error(`tick-entry failed (${exit.code ?? exit.signal}):\n${proc.output().slice(-3000)}`);
  const result = JSON.parse(line);
  const [row] = await db.query(
    "SELECT COUNT(*) AS n FROM periodic_review_documents WHERE notified_state <> 'scheduled'",
  );
  result.changed = Number(row.n);
  result.expected = changedByTick(sizes.reviews);
  result.documents = sizes.reviews;
  result.cpuPer10k = (result.cpuMs / sizes.reviews) * 10_000;
  log(
    `  ran ${result.ran}; ${result.changed} of ${sizes.reviews} documents changed state (expected ${result.expected}); ` +
      `CPU ${(result.cpuMs / 1000).toFixed(2)}s (${(result.cpuPer10k / 1000).toFixed(2)}s per 10,000 documents), wall ${(result.wallMs / 1000).toFixed(1)}s; ` +
      `RSS before ${result.rssBeforeMiB.toFixed(0)} MiB, peak ${result.peakMiB.toFixed(0)} MiB (growth ${(result.peakMiB - result.rssBeforeMiB).toFixed(1)} MiB); ` +
      `heap used ${result.heapBeforeMiB.toFixed(0)} MiB before, at most ${result.heapPeakMiB.toFixed(0)} MiB (heap size at most ${result.heapTotalPeakMiB.toFixed(0)} MiB), ${result.heapAfterMiB.toFixed(0)} MiB after a full GC; ` +
      `then the mail jobs: CPU ${(result.mailCpuMs / 1000).toFixed(2)}s, wall ${(result.mailWallMs / 1000).toFixed(1)}s, peak by their end ${result.mailPeakMiB.toFixed(0)} MiB`,
  );
  if (result.changed !== result.expected) throw new Error(`tick changed ${result.changed} documents, expected ${result.expected}`);
  return result;
}
