// The enterprise section of BENCHMARKS.md (one per database): a row per workload with its targets checked,
// then a line each for the export and the periodic-review task.
import { waitedText } from './lib.mjs';
import { TABLE_HEAD, ratio, sectionHead, summarize, workloadRow } from './report.mjs';
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
    out.push(`SQL ≤ ${target.sql}: ${n <= target.sql ? 'met' : 'MISSED'}`);
  }
  const r = s.rps / b.rps;
  out.push(`≥ ${target.ratio}× baseline: ${r >= target.ratio ? 'met' : 'MISSED'}`);
  if (target.p99 !== null) {
    const p = s.p99 / b.p99;
    out.push(`p99 ${ratio(s.p99, b.p99)} ≤ ${target.p99}× baseline: ${p <= target.p99 ? 'met' : 'MISSED'}`);
  }
  return out;
}

export function reportEnterprise({ workloads, ent, settings, dbVersion, seedSeconds, wallSeconds, options, command }) {
  const sizes = enterpriseSizes(options);
  const lines = sectionHead(`${settings.type === 'sqlite' ? 'SQLite' : 'MySQL / MariaDB'}: enterprise workloads`, {
    command,
    dbVersion,
    wallSeconds,
    dataSet:
      `${sizes.releases} releases (${sizes.approvals} pending with a two-stage approval request over 200 processes), ` +
      `${sizes.worklog} work-log entries × 20 values (+${sizes.worklogWrites} started), ${sizes.reviews} scheduled review ` +
      `documents, with the core data set; seeded in ${seedSeconds.toFixed(0)} s. Each workload measured once no event ` +
      'or job was left by the ones before',
  });
  lines.push(...TABLE_HEAD, ...workloads.map((w) => workloadRow(w, verdicts(w))), '');
  for (const w of workloads)
    for (const [target, stats] of Object.entries(w.stats ?? {}))
      if (stats.failures.length)
        lines.push(`First failures of ${w.name} (${target}): \`${stats.failures[0].slice(0, 240)}\``, '');
  if (ent.parity.length) lines.push(`Write parity: ${ent.parity.join('; ')}.`, '');
  if (ent.export) {
    const e = ent.export;
    lines.push(
      `worklog-export (GET /work_log/export.csv, every entry): ${e.rows} rows, ${(e.bytes / 1048576).toFixed(1)} MiB in ` +
        `${e.seconds.toFixed(1)} s, CPU ${(e.cpuMs / 1000).toFixed(1)} s, RSS growth ${e.growth.toFixed(1)} MiB ` +
        `(< 50 MiB: ${e.growth < 50 ? 'met' : 'MISSED'}${e.reset ? '' : '; lifetime peak'}; ${waitedText(e.idle)} for idle).`,
      '',
    );
  }
  if (ent.tick) {
    const t = ent.tick;
    lines.push(
      `review-tick (the periodic-review task once, in its own process): ${t.changed} of ${t.documents} documents changed ` +
        `state, CPU ${(t.cpuPer10k / 1000).toFixed(2)} s per 10,000 documents (< 1 s: ${t.cpuPer10k < 1000 ? 'met' : 'MISSED'}` +
        `${settings.type === 'mysql' ? '; Node process only' : ''}), wall ${(t.wallMs / 1000).toFixed(1)} s, RSS growth ` +
        `${(t.peakMiB - t.rssBeforeMiB).toFixed(1)} MiB; its mail jobs afterwards ${(t.mailCpuMs / 1000).toFixed(2)} s CPU.`,
      '',
    );
  }
  return lines.join('\n');
}
