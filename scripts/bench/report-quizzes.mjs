// The quizzes section of BENCHMARKS.md (one per database): a table per workload with issue #17's targets
// checked (≤ 3 statements for the list; ≥ 0.6× the baseline's requests/s for both).
import { machineDescription, waitedText } from './lib.mjs';
import { comparisonTable, fmt, ratio, summarize } from './report.mjs';
import { quizSizes } from './seed-quizzes.mjs';
import { QUIZ_TARGETS } from './workloads-quizzes.mjs';

function verdicts(w) {
  const target = QUIZ_TARGETS[w.name];
  const s = summarize(w.runs.service);
  const b = summarize(w.runs.baseline);
  const out = [];
  if (target.sql !== null) {
    const n = w.sql.service;
    out.push(`SQL statements ${fmt(n, 1)} (target ≤ ${target.sql}): ${n <= target.sql ? 'met' : 'MISSED'}`);
  }
  out.push(
    `requests/s ${ratio(s.rps, b.rps)} of the baseline (target ≥ ${target.ratio}×): ${s.rps / b.rps >= target.ratio ? 'met' : 'MISSED'}`,
  );
  return out;
}

export function reportQuizzes({ workloads, quiz, settings, dbVersion, seedSeconds, wallSeconds, options, command }) {
  const m = machineDescription();
  const sizes = quizSizes(options);
  const lines = [
    `### ${settings.type === 'sqlite' ? 'SQLite' : 'MySQL / MariaDB'}: quizzes workloads`,
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Command: \`${command}\``,
    `- Machine: ${m.cores} CPU(s), ${m.model}, ${m.memGiB} GiB RAM, ${m.os}; Node ${m.node}; ${dbVersion}`,
    `- Data set: ${sizes.quizzes} quizzes (one revision each: a survey of 30 questions on 3 pages, with its 30 question ` +
      `rows and the primary guide's association), ${sizes.sessions} sessions (${sizes.writes} of them the submit pool, ` +
      `in_progress; of the others about 80% submitted with their 30 submission rows each), released releases of 2/3 of ` +
      `the guides; with the core data set (${options.users} users, ${options.guides} guides) seeded in ${seedSeconds.toFixed(1)}s in all`,
    `- Load: autocannon, ${options.connections} connections, ${options.duration}s per run, ${options.rounds} round(s) per ` +
      `target interleaved after a ${options.warmup}s warm-up; values are means of the rounds`,
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
      `Targets: ${verdicts(w).join('; ')}.`,
      '',
    );
    if (w.settled)
      lines.push(
        `Measured once the service had no undelivered event and no queued job left by the workloads before ` +
          `(${waitedText(w.settled)}).`,
        '',
      );
    if (s.non2xx || b.non2xx)
      lines.push(`**Warning:** non-2xx answers or errors: service ${s.non2xx}, baseline ${b.non2xx}.`, '');
    if (w.stats) {
      lines.push(
        `Failed answer checks: service ${w.stats.service.failures.length}, baseline ${w.stats.baseline.failures.length}.`,
        '',
      );
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
  if (quiz.parity.length) lines.push(`Write parity: ${quiz.parity.join('; ')}.`, '');
  return lines.join('\n');
}
