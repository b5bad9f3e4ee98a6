// The BENCHMARKS.md text: a fixed header, then one section per database (a run rewrites its own
// database's section and keeps the other one).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { machineDescription } from './lib.mjs';
import { IMAGES, IMAGE_POOL, LINES, STEPS } from './seed-guides.mjs';
import { WRITERS } from './write-writers.mjs';

export const SQL_SAMPLE_REQUESTS = 20;

export const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
export const fmt = (x, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');

export const ratio = (x, y, digits = 2) => (Number.isFinite(x / y) ? `${(x / y).toFixed(digits)}×` : 'n/a');

const sqlText = (w, name) => (w.sql[name] == null ? 'n/a' : fmt(w.sql[name], 1));

/** The head of a compact results table: one row per workload (`workloadRow`). */
export const TABLE_HEAD = [
  '| workload | req/s | p50 ms | p99 ms | SQL/req | CPU ms/req | peak RSS MiB | baseline req/s | ÷ baseline | limit req/s | ÷ limit | targets |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
];

/**
 * One workload's row: the service's figures, the baseline's and the limit server's requests/s with the
 * service's ratio to each, and the workload's target verdicts (or notes) in the last column.
 */
export function workloadRow(w, notes = []) {
  const s = summarize(w.runs.service);
  const b = summarize(w.runs.baseline);
  const l = w.runs.limit?.length ? summarize(w.runs.limit) : undefined;
  const extra = [...notes];
  if (s.non2xx || b.non2xx) extra.push(`**non-2xx: service ${s.non2xx}, baseline ${b.non2xx}**`);
  if (w.stats) {
    const failed = (t) => w.stats[t]?.failures.length ?? 0;
    const conflicts = (t) => w.stats[t]?.conflicts;
    if (conflicts('service') !== undefined) extra.push(`409s ${conflicts('service')}/${conflicts('baseline')}`);
    if (failed('service') || failed('baseline')) extra.push(`**failed checks ${failed('service')}/${failed('baseline')}**`);
  }
  return (
    `| ${w.name ?? w.title} | ${fmt(s.rps)} | ${fmt(s.p50)} | ${fmt(s.p99)} | ${sqlText(w, 'service')} | ${fmt(s.cpu, 2)} | ` +
    `${fmt(s.peak, 0)} | ${fmt(b.rps)} | ${ratio(s.rps, b.rps)} | ${l ? fmt(l.rps) : '–'} | ${l ? ratio(s.rps, l.rps) : '–'} | ` +
    `${extra.join('; ')} |`
  );
}

/** The two lines that head every section: when and how it was run, on what. */
export function sectionHead(title, { command, dbVersion, wallSeconds, dataSet }) {
  const m = machineDescription();
  return [
    `### ${title}`,
    '',
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, \`${command}\`${wallSeconds == null ? '' : `, ${wallSeconds.toFixed(0)} s`}; ` +
      `${m.cores} CPU(s), Node ${m.node}, ${dbVersion}.`,
    `Data: ${dataSet}.`,
    '',
  ];
}

export function summarize(runs) {
  return {
    rps: mean(runs.map((r) => r.rps)),
    p50: mean(runs.map((r) => r.p50)),
    p99: mean(runs.map((r) => r.p99)),
    cpu: mean(runs.map((r) => r.cpuPerRequest)),
    peak: Math.max(...runs.map((r) => r.peakRss)),
    non2xx: runs.reduce((s, r) => s + r.non2xx, 0),
  };
}

/** The core targets (service ÷ baseline requests/s; hot reads kept, wide reads ÷ limit server). */
export const CORE_TARGETS = {
  'guide-detail': { ratio: 1.0 },
  'guide-list-200': { ratio: 0.6 },
  'category-hierarchy': { ratio: 0.8 },
  'guide-create': { ratio: 0.6 },
  'guide-patch': { ratio: 0.6 },
  'guide-detail-wide': { limit: 0.5 },
};

function coreVerdicts(w) {
  const target = CORE_TARGETS[w.name];
  const notes = w.orderNote ? [w.orderNote] : [];
  if (!target) return notes;
  const s = summarize(w.runs.service);
  if (target.ratio) {
    const r = s.rps / summarize(w.runs.baseline).rps;
    notes.push(`≥ ${target.ratio}× baseline: ${r >= target.ratio ? 'met' : 'MISSED'}`);
  }
  if (target.limit && w.runs.limit?.length) {
    const r = s.rps / summarize(w.runs.limit).rps;
    notes.push(`≥ ${target.limit}× limit: ${r >= target.limit ? 'met' : 'MISSED'}`);
  }
  return notes;
}

export function report({ workloads, writes, settings, dbVersion, seedSeconds, wallSeconds, options, command }) {
  const lines = sectionHead(settings.type === 'sqlite' ? 'SQLite' : 'MySQL / MariaDB', {
    command,
    dbVersion,
    wallSeconds,
    dataSet:
      `${options.categories} categories, ${options.users} users, ${options.guides} guides × ${STEPS} steps × ${LINES} lines × ` +
      `${IMAGES} images (${IMAGE_POOL} image rows), seeded in ${seedSeconds.toFixed(0)} s; autocannon ${options.connections} ` +
      `connections, ${options.duration} s × ${options.rounds} round(s) per target, interleaved`,
  });
  lines.push(...TABLE_HEAD, ...workloads.map((w) => workloadRow(w, coreVerdicts(w))), '');
  if (writes?.parity) lines.push(`Write parity: ${writes.parity.notes.join('; ')}.`, '');
  if (writes?.writers.length)
    lines.push(
      `guide-writers-${WRITERS} (${WRITERS} PATCHes with one revisionid at once): ` +
        writes.writers
          .map((o) => `${o.target} ${o.ok.length}×200 ${o.conflicts.length}×409 ${o.problems.length ? '**FAILED**' : 'ok'}`)
          .join('; ') +
        '.',
      '',
    );
  return lines.join('\n');
}

const HEADER = `# Benchmarks

The latest whole \`npm run bench\` per database, against the hand-written baseline and the limit server in the
same run. How the bench works, its data sets and its parity checks: docs/benchmark.md. Earlier runs and the
findings that led to the current code are in this file's git history.

Run it: \`npm run bench -- --db sqlite\` and \`npm run bench -- --db mysql\` (about 15 minutes each on 2 cores;
add \`--workloads a,b\` for some workloads, \`--wide 2000 --create-rate 10\` sets the wide reads). A run rewrites its
database's sections below and keeps the rest of the page.

Columns: the service's requests/s, latency, SQL statements per request, CPU ms per request and peak RSS; the
baseline's (plain Fastify, hand-written SQL, same answers) and the limit server's (plain Fastify sending the
stored bytes by primary key; no parity) requests/s, and the service's ratio to each. Noise: 2 cores shared by
the load generator and both servers; ratios move ±10–15% between runs.
`;

export function writeBenchmarks(file, section, db) {
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const sections = {};
  const names = [
    'sqlite',
    'sqlite-enterprise',
    'sqlite-search',
    'sqlite-quizzes',
    'sqlite-training',
    'mysql',
    'mysql-enterprise',
    'mysql-search',
    'mysql-quizzes',
    'mysql-training',
  ];
  for (const name of names) {
    const match = new RegExp(`<!-- bench:${name}:start -->\\n([\\s\\S]*?)<!-- bench:${name}:end -->`).exec(old);
    if (match) sections[name] = match[1];
  }
  sections[db] = `${section}\n`;
  // The targets are written by hand from the runs; a run keeps that text as it is.
  const targets = /<!-- targets:start -->\n[\s\S]*?<!-- targets:end -->\n/.exec(old)?.[0] ?? '';
  let text = `${HEADER}\n${targets ? `${targets}\n` : ''}## Results\n`;
  for (const name of names)
    if (sections[name]) text += `\n<!-- bench:${name}:start -->\n${sections[name]}<!-- bench:${name}:end -->\n`;
  writeFileSync(file, text);
}
