// Bench-only entry (issue #18): boots the compiled service (.bench-build) against the seeded database
// without listening and without timers (SCHEDULER_ENABLED=false), runs the periodic-review task once the
// way the scheduler does (Scheduler.run: its lock, a background request context) and prints, as one JSON
// line on stdout, the process CPU time and peak RSS of the run alone. Environment: the service's.
// The job runner is held during the task (it would otherwise start sending the task's mail jobs after each
// batch's commit, two at a time, and their CPU would count as the task's by chance of interleaving); the
// mail jobs are then run to the end and measured apart (mailCpuMs, mailWallMs, mailPeakMiB: the peak RSS up to
// their end, the task's included).
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BUILD_DIR, require } from './lib.mjs';

const { loadConfig } = require(resolve(BUILD_DIR, 'src/config/app-config.js'));
const { createApp, shutdownApp } = require(resolve(BUILD_DIR, 'src/bootstrap/create-app.js'));
const { Scheduler } = require(resolve(BUILD_DIR, 'src/platform/jobs/scheduler.js'));
const { REVIEW_TICK } = require(resolve(BUILD_DIR, 'src/modules/periodic-review/review-scheduler.service.js'));
const { JobRunner } = require(resolve(BUILD_DIR, 'src/platform/jobs/job-runner.js'));
const { DataSource } = require('typeorm');

const status = (key) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;

const app = await createApp(loadConfig()); // initialised, not listening
// seed-enterprise.mjs holds the task off the measured service with a lock row; this run takes it away.
await app.get(DataSource).query('DELETE FROM scheduler_locks WHERE name = ?', [REVIEW_TICK]);
globalThis.gc?.();
let reset = true;
try {
  writeFileSync('/proc/self/clear_refs', '5');
} catch {
  reset = false;
}
const rssBefore = status('VmRSS');
const heapMiB = (key = 'heapUsed') => process.memoryUsage()[key] / 2 ** 20;
const heapBefore = heapMiB();
const jobs = app.get(JobRunner);
const poke = jobs.poke;
jobs.poke = () => undefined;
let heapPeak = heapBefore;
let heapTotalPeak = heapMiB('heapTotal');
const sampler = setInterval(() => {
  heapPeak = Math.max(heapPeak, heapMiB());
  heapTotalPeak = Math.max(heapTotalPeak, heapMiB('heapTotal'));
}, 20);
const cpu0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
const ran = await app.get(Scheduler).run(REVIEW_TICK);
const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
const cpu = process.cpuUsage(cpu0);
clearInterval(sampler);
// The task's peak, read before the mail jobs run (they are measured apart, peak included).
const peakMiB = status('VmHWM');
// What the task left reachable: the heap after a full collection, against the same before it.
globalThis.gc?.();
const heapAfter = heapMiB();
jobs.poke = poke;
const mailCpu0 = process.cpuUsage();
const t1 = process.hrtime.bigint();
await jobs.drain();
const mailWallMs = Number(process.hrtime.bigint() - t1) / 1e6;
const mailCpu = process.cpuUsage(mailCpu0);
const result = {
  ran,
  wallMs,
  cpuMs: (cpu.user + cpu.system) / 1000,
  mailWallMs,
  mailCpuMs: (mailCpu.user + mailCpu.system) / 1000,
  rssBeforeMiB: rssBefore,
  peakMiB,
  mailPeakMiB: status('VmHWM'),
  heapBeforeMiB: heapBefore,
  heapAfterMiB: heapAfter,
  heapPeakMiB: heapPeak,
  heapTotalPeakMiB: heapTotalPeak,
  peakReset: reset,
};
await shutdownApp(app);
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
