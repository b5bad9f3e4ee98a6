// The BENCHMARKS.md text: a fixed header, then one section per database (a run rewrites its own
// database's section and keeps the other one).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { machineDescription } from './lib.mjs';
import { ROOTS } from './seed.mjs';
import { IMAGES, IMAGE_POOL, LINES, STEPS } from './seed-guides.mjs';
import { NORMALISED } from './write-parity.mjs';
import { WRITERS, writersLine } from './write-writers.mjs';

export const SQL_SAMPLE_REQUESTS = 20;

export const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
export const fmt = (x, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');

export const ratio = (x, y, digits = 2) => (Number.isFinite(x / y) ? `${(x / y).toFixed(digits)}×` : 'n/a');

/**
 * The service / baseline table of one workload (summaries `s` and `b` of its runs; `w.sql` statement counts),
 * with the limit server's row and service ÷ limit where the workload has one.
 */
export function comparisonTable(w, s, b) {
  const sql = (name) => (w.sql[name] == null ? 'n/a' : fmt(w.sql[name], 1));
  const l = w.runs.limit?.length ? summarize(w.runs.limit) : undefined;
  const limitRows = l
    ? [
        `| limit server | ${fmt(l.rps)} | ${fmt(l.p50)} | ${fmt(l.p99)} | ${sql('limit')} | ${fmt(l.cpu, 2)} | ${fmt(l.peak, 0)} |`,
        `| service/limit | ${ratio(s.rps, l.rps)} | ${ratio(s.p50, l.p50)} | ${ratio(s.p99, l.p99)} | ` +
          `${w.sql.service == null || w.sql.limit == null ? 'n/a' : ratio(w.sql.service, w.sql.limit)} | ` +
          `${ratio(s.cpu, l.cpu)} | ${ratio(s.peak, l.peak)} |`,
      ]
    : [];
  return [
    '| | requests/s | p50 ms | p99 ms | SQL statements/request | CPU ms/request | peak RSS MiB |',
    '|---|---:|---:|---:|---:|---:|---:|',
    `| service | ${fmt(s.rps)} | ${fmt(s.p50)} | ${fmt(s.p99)} | ${sql('service')} | ${fmt(s.cpu, 2)} | ${fmt(s.peak, 0)} |`,
    `| baseline | ${fmt(b.rps)} | ${fmt(b.p50)} | ${fmt(b.p99)} | ${sql('baseline')} | ${fmt(b.cpu, 2)} | ${fmt(b.peak, 0)} |`,
    `| service/baseline | ${ratio(s.rps, b.rps)} | ${ratio(s.p50, b.p50)} | ${ratio(s.p99, b.p99)} | ` +
      `${w.sql.service == null || w.sql.baseline == null ? 'n/a' : ratio(w.sql.service, w.sql.baseline)} | ` +
      `${ratio(s.cpu, b.cpu)} | ${ratio(s.peak, b.peak)} |`,
    ...limitRows,
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

export function report({ workloads, writes, settings, dbVersion, seedSeconds, wallSeconds, options, command }) {
  const m = machineDescription();
  const lines = [
    `### ${settings.type === 'sqlite' ? 'SQLite' : 'MySQL / MariaDB'}`,
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Command: \`${command}\``,
    `- Machine: ${m.cores} CPU(s), ${m.model}, ${m.memGiB} GiB RAM, ${m.os}; Node ${m.node}; ${dbVersion}`,
    `- Data set: ${options.categories} categories (${ROOTS} top level, 10 children per node), ${options.users} users, ` +
      `${options.guides} guides × ${STEPS} steps × ${LINES} lines × ${IMAGES} images (${IMAGE_POOL} image rows); ` +
      `seeded in ${seedSeconds.toFixed(1)}s`,
    `- Load: autocannon, ${options.connections} connections, ${options.duration}s per run, ${options.rounds} round(s) ` +
      `per target interleaved (service, baseline, service, …) after a ${options.warmup}s warm-up; values are means of ` +
      'the rounds, peak memory the highest VmHWM of a round',
    `- Wall time of the whole run: ${wallSeconds.toFixed(0)}s`,
    '',
  ];
  for (const w of workloads) {
    const s = summarize(w.runs.service);
    const b = summarize(w.runs.baseline);
    lines.push(`#### ${w.title}`, '', ...comparisonTable(w, s, b), '');
    if (s.non2xx || b.non2xx)
      lines.push(`**Warning:** non-2xx answers or errors: service ${s.non2xx}, baseline ${b.non2xx}.`, '');
    if (w.orderNote) lines.push(`Note: ${w.orderNote}.`, '');
    if (w.stats) {
      const [s409, b409] = [w.stats.service.conflicts, w.stats.baseline.conflicts];
      const [sf, bf] = [w.stats.service.failures.length, w.stats.baseline.failures.length];
      lines.push(
        `409 answers: service ${s409}, baseline ${b409}; failed answer checks: service ${sf}, baseline ${bf}.`,
        '',
      );
    }
  }
  if (writes?.parity) lines.push(...writeNotes(writes));
  return lines.join('\n');
}

function writeNotes(writes) {
  const lines = [
    `Write parity: ${writes.parity.notes.join('; ')}. Fields checked and then replaced before comparing: ` +
      `create ${NORMALISED.create.join(', ')}; edit ${NORMALISED.edit.join(', ')}.`,
    '',
  ];
  if (writes.primed)
    lines.push(`The service's ${writes.primed} guide-patch guides were read once before (stored documents).`, '');
  if (writes.writers.length)
    lines.push(
      `#### guide-writers-20: ${WRITERS} concurrent PATCHes with the same revisionid on one guide`,
      '',
      '| target | guide | 200 | 409 | other | winner | anonymous GET afterwards shows | revisions added | result |',
      '|---|---:|---:|---:|---:|---|---|---:|---|',
      ...writes.writers.map(writersLine),
      '',
    );
  return lines;
}

const HEADER = `# Benchmarks

Generated by \`npm run bench\` (\`scripts/bench/run.mjs\`, docs/benchmark.md). Each section is rewritten by a run on
that database; the other database's section is kept.

How it works: the service is compiled with \`tsc\` into \`.bench-build/\` and started with
\`NODE_ENV=production LOG_LEVEL=warn\` against a fresh database whose schema its own
migrations create; the data set is bulk-inserted with raw multi-row INSERTs. The baseline
(\`scripts/bench/baseline-server.mjs\`, \`baseline-guides.mjs\`) is plain Fastify with better-sqlite3 / mysql2
and hand-written SQL. Before measuring, every workload path is requested from both, twice, and the answers
must be deep-equal after \`JSON.parse\` both times (the run fails otherwise). Both processes run for the whole
bench and each workload alternates between them, so machine noise hits both.

Guides are seeded with \`guide_revisions.document\` NULL: the service renders a revision's document (wiki
text, image objects, URLs) on its first read and stores it. The first parity pass, before any warm-up or
measurement, therefore fills the document of every guide a workload reads; the second pass and all measured
requests read stored documents. The baseline never reads that column: it builds each answer from
\`guide_revisions.data\`, the step revisions, images, users and comments, and renders the wiki text with the
service's own engine on every request (the "naive SQL" server the stored documents are measured against).

The **limit server** (\`scripts/bench/limit-server.mjs\`), measured on the read workloads in the same rounds, is
plain Fastify with one prepared statement per request that sends what the service has stored for the answer
without reshaping: the guide's \`guide_revisions.document\` as stored; a page's \`guide_revisions.summary\`
values joined into one array; a category's wiki row; the category tree rows; a page of user rows. It is not the
same answer (no parity): it is what the hardware does for the stored bytes, so **service/limit** says how
much of the service's time goes into its own work (framework, access checks, caller-dependent fields,
serialization).

- **requests/s, p50, p99**: autocannon (the load generator runs on the same machine).
- **SQL statements/request**: ${SQL_SAMPLE_REQUESTS} sequential requests after the parity passes and one warming request to
  each path they send (reads; writes: one request), so what a server keeps per document counts as under load. Service: the mean of its
  \`X-Sql-Statements\` header, from a second service instance started with \`SQL_COUNT_HEADER=true\` only for this
  count (the measured instance runs without it: the per-request counting context costs time). Baseline:
  on MySQL/MariaDB the server's \`Questions\` counter (\`SHOW GLOBAL STATUS\`) around those requests; on SQLite
  the baseline's own count of the statements it ran (\`GET /__bench/sql-statements\`).
- **CPU ms/request**: user + system time of the server process (\`/proc/<pid>/stat\`) over the run, divided by
  the requests answered.
- **peak RSS**: \`VmHWM\` of the server process (reset before each run through \`/proc/<pid>/clear_refs\`).

The data set: users (every tenth an Author, every fiftieth a Moderator, userid 1 Admin with one API token
for write workloads), a category tree, and guides spread over the categories (guide g in category
g mod categories), each public, patrolled, in English, with one revision, ${STEPS} steps of ${LINES} lines (wiki text
with bold, italic, monospace, external links and \`[guide|id]\` links to other guides) and ${IMAGES} images
from a pool of ${IMAGE_POOL} image rows (no files: answers only carry URLs). Every third guide has a comment, a
reply and a comment on one step. \`wiki_category_guides\` is filled as the guide.changed listener would.

Parity limits of the baseline (it answers only what the seeded data needs): category detail in the source
language for anonymous callers, no image, document or wiki-link resolution (the seed has none), contents
rendered with the service's own wiki-text engine; hierarchy with default options; user search as an
anonymous caller; guide detail and lists for anonymous callers without query options other than
limit/offset, no prerequisites, documents, translations, or image/document/wiki/product references in
wiki text (the seed has none; the baseline answers 501 where it would have to guess).

Writes (\`scripts/bench/write-*.mjs\`, baseline \`baseline-writes.mjs\`) run after all reads, with the seeded
Admin token. **guide-create** POSTs distinct guides (a seeded category, type, title, subject, summary and an
introduction with wiki text and a \`[guide|id]\` link); **guide-patch** PATCHes a new summary into guides
of a pool per target (the service and the baseline edit disjoint guides, none of those the reads use), each
request carrying the guide's current \`head_revisionid\` from the previous answer for that guide (autocannon
\`setupRequest\`/\`onResponse\`; a guide is never requested twice at once), so any 409 is a failure, and so
is an answer that is not the guide just written; the run fails on either. The service's pool guides are
read once before (the service stores a rendered document with every revision it writes; the seeded ones
have none yet). The baseline writes in one transaction with hand-written SQL (token by sha256, the body
checks the bench needs, a guide_revisions row with the guide's whole state and no rendered document,
the conditional \`UPDATE guides … WHERE head_revisionid = ?\`) and answers with its naive detail builder.
Write parity: equivalent requests to both (the same create bodies; the same edits of two identical copies of
one seeded guide; 401/404/409/422 answers) must give deep-equal answers once the ids, revision ids, dates
and id-bearing URLs are checked and replaced; each side must read the other's writes identically, and
negative controls (mutated answers) must be reported. **guide-writers-20** sends 20 PATCHes with one
revisionid to one guide at once, on each target: exactly one 200 and nineteen 409s (the winner's version as
body), and a GET, the guide row and its revision count must show the winner's edit; the run fails otherwise.
SQL statements/request for writes count the transaction statements too (BEGIN/COMMIT).
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
  // The targets, findings and re-measurements between the header and `## Results` are written by hand from
  // the measurements; runs keep all of that text as it is.
  const start = old.indexOf('<!-- findings:start -->');
  const results = old.indexOf('\n## Results\n');
  let prose = start >= 0 && results > start ? old.slice(start, results + 1) : '';
  if (!prose) {
    const findings = /<!-- findings:start -->\n[\s\S]*?<!-- findings:end -->\n/.exec(old)?.[0] ?? '';
    const training = /<!-- findings-training:start -->\n[\s\S]*?<!-- findings-training:end -->\n/.exec(old)?.[0] ?? '';
    prose = `${findings ? `${findings}\n` : ''}${training ? `${training}\n` : ''}`;
  }
  let text = `${HEADER}\n${prose}## Results\n`;
  for (const name of names)
    if (sections[name]) text += `\n<!-- bench:${name}:start -->\n${sections[name]}<!-- bench:${name}:end -->\n`;
  writeFileSync(file, text);
}
