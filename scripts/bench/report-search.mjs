// The search section of BENCHMARKS.md (issue #20), one per database beside the core and enterprise ones.
import { machineDescription } from './lib.mjs';
import { comparisonTable, fmt, ratio, summarize } from './report.mjs';
import { SEARCH_QUERY } from './seed-search.mjs';
import { SEARCH_TARGETS } from './workloads-search.mjs';

export function reportSearch({
  workloads,
  facts,
  reindex,
  settings,
  dbVersion,
  seedSeconds,
  wallSeconds,
  options,
  command,
}) {
  const m = machineDescription();
  const lines = [
    `### ${settings.type === 'sqlite' ? 'SQLite (FTS5)' : 'MySQL / MariaDB (InnoDB FULLTEXT)'}: search`,
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Command: \`${command}\``,
    `- Machine: ${m.cores} CPU(s), ${m.model}, ${m.memGiB} GiB RAM, ${m.os}; Node ${m.node}; ${dbVersion}`,
    `- Data set: ${options.guides} guides, ${options.categories} category wikis and ${options.wikis} INFO wiki pages ` +
      `(seeded in ${seedSeconds.toFixed(1)}s), all in the search index: filled by the service's own rebuild ` +
      `(\`search:reindex\`'s code) in ${reindex.seconds.toFixed(1)}s (“${reindex.line}”); index rows by kind ` +
      `${Object.entries(facts.byKind)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`,
    `- Query: \`${SEARCH_QUERY}\`, anonymous, \`limit=20\`: the index itself (a COUNT over the engine's MATCH, run by ` +
      `the bench on the index tables) finds ${facts.matches} documents, and both servers' \`totalResults\` must equal it`,
    `- Load: autocannon, ${options.connections} connections, ${options.duration}s per run, ${options.rounds} round(s) per ` +
      `target interleaved after a ${options.warmup}s warm-up; values are means of the rounds. Other benches may have run ` +
      'on the machine at the same time (2 cores shared): compare service and baseline within a run, not across runs',
    `- Wall time of the whole run: ${wallSeconds.toFixed(0)}s`,
    '',
  ];
  for (const w of workloads) {
    const s = summarize(w.runs.service);
    const b = summarize(w.runs.baseline);
    lines.push(
      `#### ${w.name}: ${w.title}`,
      '',
      ...comparisonTable(w, s, b),
      '',
      'Rounds (service / baseline req/s): ' +
        w.runs.service.map((r, i) => `${fmt(r.rps)} / ${fmt(w.runs.baseline[i]?.rps)}`).join('; ') +
        '.',
      '',
    );
    const t = SEARCH_TARGETS[w.name];
    const verdicts = [
      `SQL statements ${w.sql.service == null ? 'n/a' : fmt(w.sql.service, 1)} (target ≤ ${t.sql}): ${w.sql.service <= t.sql ? 'met' : 'MISSED'}`,
      `requests/s ${ratio(s.rps, b.rps)} of the baseline (target ≥ ${t.ratio}×): ${s.rps / b.rps >= t.ratio ? 'met' : 'MISSED'}`,
      `p99 ${ratio(s.p99, b.p99)} of the baseline (target ≤ ${t.p99}×): ${s.p99 / b.p99 <= t.p99 ? 'met' : 'MISSED'}`,
    ];
    lines.push(`Targets: ${verdicts.join('; ')}.`, '');
    if (s.non2xx || b.non2xx)
      lines.push(`**Warning:** non-2xx answers or errors: service ${s.non2xx}, baseline ${b.non2xx}.`, '');
    if (w.verified)
      lines.push(`Answer: ${w.verified}; service and baseline answers deep-equal on both parity passes.`, '');
  }
  return lines.join('\n');
}
