// The quizzes section of BENCHMARKS.md (one per database): a row per workload with its targets
// checked (≤ 3 statements for the list; ≥ 0.6× the baseline's requests/s for both).
import { TABLE_HEAD, sectionHead, summarize, workloadRow } from './report.mjs';
import { quizSizes } from './seed-quizzes.mjs';
import { QUIZ_TARGETS } from './workloads-quizzes.mjs';

function verdicts(w) {
  const target = QUIZ_TARGETS[w.name];
  const s = summarize(w.runs.service);
  const b = summarize(w.runs.baseline);
  const out = [];
  if (target.sql !== null) {
    const n = w.sql.service;
    out.push(`SQL ≤ ${target.sql}: ${n <= target.sql ? 'met' : 'MISSED'}`);
  }
  out.push(`≥ ${target.ratio}× baseline: ${s.rps / b.rps >= target.ratio ? 'met' : 'MISSED'}`);
  return out;
}

export function reportQuizzes({ workloads, quiz, settings, dbVersion, seedSeconds, wallSeconds, options, command }) {
  const sizes = quizSizes(options);
  const lines = sectionHead(`${settings.type === 'sqlite' ? 'SQLite' : 'MySQL / MariaDB'}: quizzes workloads`, {
    command,
    dbVersion,
    wallSeconds,
    dataSet:
      `${sizes.quizzes} quizzes of 30 questions, ${sizes.sessions} sessions (${sizes.writes} in progress for the submits, ` +
      `about 80% of the others submitted), releases of 2/3 of the guides, with the core data set; seeded in ` +
      `${seedSeconds.toFixed(0)} s`,
  });
  lines.push(...TABLE_HEAD, ...workloads.map((w) => workloadRow(w, verdicts(w))), '');
  if (quiz.parity.length) lines.push(`Write parity: ${quiz.parity.join('; ')}.`, '');
  return lines.join('\n');
}
