// The enterprise section of BENCHMARKS.md (one per database, next to the core section): a table per
// workload with the issues' targets checked, then the export and the periodic-review task.
import { machineDescription, waitedText } from './lib.mjs';
import { comparisonTable, fmt, ratio, summarize } from './report.mjs';
import { enterpriseSizes } from './seed-enterprise.mjs';
import { TARGETS } from './workloads-enterprise.mjs';

/** Each target of the workload: met or missed, with the measured value. */
export function verdicts(w) {
  const target = TARGETS[w.name];
  if (!target) return [];
  const s = summarize(w.runs.service);
  const b = summarize(w.runs.baseline);
  const out = [];
  if (target.sql !== null) {
    const n = w.sql.service;
    out.push(`SQL statements ${fmt(n, 1)} (target ≤ ${target.sql}): ${n <= target.sql ? 'met' : 'MISSED'}`);
  }
  const r = s.rps / b.rps;
  out.push(
    `requests/s ${ratio(s.rps, b.rps)} of the baseline (target ≥ ${target.ratio}×): ${r >= target.ratio ? 'met' : 'MISSED'}`,
  );
  if (target.p99 !== null) {
    const p = s.p99 / b.p99;
    out.push(
      `p99 ${ratio(s.p99, b.p99)} of the baseline (target ≤ ${target.p99}×): ${p <= target.p99 ? 'met' : 'MISSED'}`,
    );
  }
  return out;
}

export function reportEnterprise({ workloads, ent, settings, dbVersion, seedSeconds, wallSeconds, options, command }) {
  const m = machineDescription();
  const sizes = enterpriseSizes(options);
  const lines = [
    `### ${settings.type === 'sqlite' ? 'SQLite' : 'MySQL / MariaDB'}: enterprise workloads`,
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Command: \`${command}\``,
    `- Machine: ${m.cores} CPU(s), ${m.model}, ${m.memGiB} GiB RAM, ${m.os}; Node ${m.node}; ${dbVersion}`,
    `- Data set: ${sizes.releases} releases (${sizes.approvals} pending, each with an approval request of two stages ` +
      `over 200 processes), ${sizes.worklog} work-log entries of one guide × 20 values (+${sizes.worklogWrites} started ` +
      `entries for the writes), ${sizes.reviews} scheduled review documents over 50 schedules; with the core data set ` +
      `(${options.users} users, ${options.categories} categories, ${options.guides} guides) seeded in ${seedSeconds.toFixed(1)}s in all`,
    `- Load: autocannon, ${options.connections} connections, ${options.duration}s per run, ${options.rounds} round(s) per ` +
      `target interleaved after a ${options.warmup}s warm-up; values are means of the rounds`,
    `- Wall time of the whole run: ${wallSeconds.toFixed(0)}s`,
    '',
  ];
  for (const w of workloads) {
    const s = summarize(w.runs.service);
    const b = summarize(w.runs.baseline);
    lines.push(`#### ${w.name}: ${w.title}`, '', ...comparisonTable(w, s, b), '');
    const v = verdicts(w);
    if (v.length) lines.push(`Targets: ${v.join('; ')}.`, '');
    if (w.settled)
      lines.push(
        `Measured once the service had no undelivered event and no queued job left by the workloads before ` +
          `(${waitedText(w.settled)}).`,
        '',
      );
    if (s.non2xx || b.non2xx)
      lines.push(`**Warning:** non-2xx answers or errors: service ${s.non2xx}, baseline ${b.non2xx}.`, '');
    if (w.stats) {
      const [sf, bf] = [w.stats.service.failures.length, w.stats.baseline.failures.length];
      lines.push(`Failed answer checks: service ${sf}, baseline ${bf}.`, '');
      for (const [target, stats] of Object.entries(w.stats))
        if (stats.failures.length)
          lines.push(
            `First failures (${target}): ${stats.failures
              .slice(0, 3)
              .map((f) => `\`${f.slice(0, 240)}\``)
              .join('; ')}`,
            '',
          );
    }
  }
  if (ent.parity.length) lines.push(`Write parity: ${ent.parity.join('; ')}.`, '');
  if (ent.export) {
    const e = ent.export;
    lines.push(
      '#### worklog-export: GET /work_log/export.csv?guideid=1 (Admin; every entry of the data set)',
      '',
      `Measured once the service had no undelivered event and no queued job (${waitedText(e.idle)}). ` +
        `${e.rows} CSV rows (${(e.bytes / 1048576).toFixed(1)} MiB) streamed in ${e.seconds.toFixed(1)}s; service CPU ` +
        `${(e.cpuMs / 1000).toFixed(1)}s; service RSS ${e.rssBefore.toFixed(0)} MiB before, peak ${e.peak.toFixed(0)} MiB: ` +
        `growth ${e.growth.toFixed(1)} MiB (target < 50 MiB: ${e.growth < 50 ? 'met' : 'MISSED'})` +
        (e.reset ? '.' : ' (VmHWM could not be reset: lifetime peak).'),
      '',
    );
  }
  if (ent.tick) {
    const t = ent.tick;
    lines.push(
      '#### review-tick: the periodic-review task (ReviewSchedulerService.tick through Scheduler.run), once',
      '',
      `${t.changed} of ${t.documents} documents changed state (per document its state stored, an audit row, an outbox event and a mail job, written per batch of 500; the events' in-process dispatch after each commit runs in the same process and is counted); ` +
        `process CPU ${(t.cpuMs / 1000).toFixed(2)}s = ${(t.cpuPer10k / 1000).toFixed(2)}s per 10,000 documents ` +
        `(target < 1 s: ${t.cpuPer10k < 1000 ? 'met' : 'MISSED'}); wall ${(t.wallMs / 1000).toFixed(1)}s; RSS ${t.rssBeforeMiB.toFixed(0)} MiB ` +
        `before, peak ${t.peakMiB.toFixed(0)} MiB (growth ${(t.peakMiB - t.rssBeforeMiB).toFixed(1)} MiB). ` +
        `The job runner is held while the task runs; the mail jobs the task queued, run to the end afterwards (two at a time, ` +
        `logged mailer), took ${(t.mailCpuMs / 1000).toFixed(2)}s CPU in ${(t.mailWallMs / 1000).toFixed(1)}s (not counted above; peak RSS by their end ` +
        `${t.mailPeakMiB?.toFixed(0) ?? '?'} MiB). ` +
        (settings.type === 'mysql' ? 'CPU is the Node process only (the MariaDB server’s is not counted). ' : '') +
        'Measured in a process of its own (scripts/bench/tick-entry.mjs) that boots the compiled service without listening.',
      '',
    );
  }
  return lines.join('\n');
}
