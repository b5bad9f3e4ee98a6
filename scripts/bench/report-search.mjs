// The search section of BENCHMARKS.md (issue #20), one per database beside the core and enterprise ones.
import { TABLE_HEAD, ratio, sectionHead, summarize, workloadRow } from './report.mjs';
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
  const lines = sectionHead(`${settings.type === 'sqlite' ? 'SQLite (FTS5)' : 'MySQL / MariaDB (InnoDB FULLTEXT)'}: search`, {
    command,
    dbVersion,
    wallSeconds,
    dataSet:
      `${options.guides} guides, ${options.categories} category wikis, ${options.wikis} INFO wikis (seeded in ` +
      `${seedSeconds.toFixed(0)} s), indexed by the service's rebuild in ${reindex.seconds.toFixed(0)} s; query ` +
      `\`${SEARCH_QUERY}\` anonymous, limit 20: ${facts.matches} documents match (both servers' totalResults must equal it)`,
  });
  lines.push(
    ...TABLE_HEAD,
    ...workloads.map((w) => {
      const s = summarize(w.runs.service);
      const b = summarize(w.runs.baseline);
      const t = SEARCH_TARGETS[w.name];
      return workloadRow(w, [
        `SQL ≤ ${t.sql}: ${w.sql.service <= t.sql ? 'met' : 'MISSED'}`,
        `≥ ${t.ratio}× baseline: ${s.rps / b.rps >= t.ratio ? 'met' : 'MISSED'}`,
        `p99 ${ratio(s.p99, b.p99)} ≤ ${t.p99}×: ${s.p99 / b.p99 <= t.p99 ? 'met' : 'MISSED'}`,
      ]);
    }),
    '',
  );
  return lines.join('\n');
}
