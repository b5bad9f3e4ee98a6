// training-import (issue #19, performance): a SCORM package of TRAINING_FILES files totalling TRAINING_BYTES
// (half pseudo-random bytes, half text, so deflate and inflate both do real work) is built in the run with
// yazl, streamed to a temp file, uploaded to the measured service as a multipart form (T10, what a browser
// form sends; written by hand onto node:http, as curl sends it: undici's FormData streams a 129 MiB Blob at
// about 85 MiB/s on this machine, four times slower than the service receives it), and the import is polled
// through T12 until it is terminal. Measured: the wall time from the
// upload's first byte to the import seen `complete`, and the service's peak RSS (VmHWM) over its RSS before.
// `unzip -t` on the same file runs before and after each import in the same run; the ratio compares
// the import's wall time with theirs. After the measurement the draft is published (T6) and the version's
// file count, size and SHA-256 are checked against the file.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { cpuMs, log, peakRssMiB, require, resetPeakRss, settle } from './lib.mjs';
import { sectionHead } from './report.mjs';
import { BENCH_ADMIN_TOKEN } from './seed-guides.mjs';

export const TRAINING_WORKLOAD = 'training-import';
const TRAINING_FILES = 2000;
const TRAINING_BYTES = 200 * 1024 * 1024;
const POLL_MS = 100;
const TARGET_RSS_MB = 100;
const TARGET_RATIO = 2;
const BASE = '/api/2.0/external_training_modules';

const selected = (options) => !options.workloads || options.workloads.includes(TRAINING_WORKLOAD);
/** Only this workload runs: the guide data set is not needed (the seeded Admin and its token are). */
export const trainingOnly = (options) => options.workloads?.every((name) => name === TRAINING_WORKLOAD) ?? false;

/** The service's training settings for the bench: its own directory, and an upload limit that admits the package. */
export const trainingEnv = (pid) => ({
  TRAINING_DIR: join(tmpdir(), `rgcs_bench_training_${pid}`),
  TRAINING_UPLOAD_LIMIT: String(512 * 1024 * 1024),
});
export const trainingCleanup = (pid) => rmSync(trainingEnv(pid).TRAINING_DIR, { recursive: true, force: true });

const rssMiB = (pid) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

// ---- the package ----------------------------------------------------------------------------------

const WORDS = (
  'battery screen connector ribbon cable adhesive spudger tweezers screw bracket shield logic board ' +
  'camera speaker antenna heat gently pry remove replace reassemble lesson module quiz step caution ' +
  'the a of to and with from under over before after carefully firmly until release clip'
).split(' ');

/** xorshift32: deterministic bytes, far faster than crypto for 100 MiB. */
function prng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>>= 0);
  };
}

/** A pool of lesson-like text; blocks are taken from it at random offsets. */
function textPool(bytes) {
  const next = prng(7);
  const parts = [];
  let size = 0;
  while (size < bytes) {
    const sentence = `<p>Step ${next() % 500}: ${Array.from({ length: 8 + (next() % 12) }, () => WORDS[next() % WORDS.length]).join(' ')}.</p>\n`;
    parts.push(sentence);
    size += sentence.length;
  }
  return Buffer.from(parts.join('')).subarray(0, bytes);
}

const BLOCK = 4096;
/** `size` bytes: 4 KiB blocks alternately pseudo-random and text. */
function* fileBlocks(size, seed, pool) {
  const next = prng(seed);
  for (let done = 0, k = 0; done < size; k++) {
    const n = Math.min(BLOCK, size - done);
    let block;
    if (k % 2 === 0) {
      block = Buffer.allocUnsafe(n + 3);
      const words = new Uint32Array(block.buffer, block.byteOffset, Math.floor(block.length / 4));
      for (let i = 0; i < words.length; i++) words[i] = next();
      block = block.subarray(0, n);
    } else {
      const at = next() % (pool.length - n);
      block = pool.subarray(at, at + n);
    }
    done += n;
    yield block;
  }
}

const manifestXml = (files) => `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="bench-course" version="1.0" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="org"><organization identifier="org"><title>Bench course</title>
    <item identifier="item1" identifierref="sco1"><title>The one lesson</title></item>
  </organization></organizations>
  <resources><resource identifier="sco1" type="webcontent" adlcp:scormtype="sco" href="index.html">
${files.map((f) => `    <file href="${f}"/>`).join('\n')}
  </resource></resources>
</manifest>
`;

/**
 * Writes the package with yazl, streamed (entries are produced as yazl reads them): imsmanifest.xml at the
 * root, the SCO's index.html, and assets/…, `files` files in all whose bytes total `bytes`.
 */
export async function buildPackage(path, { files = TRAINING_FILES, bytes = TRAINING_BYTES } = {}) {
  const yazl = require('yazl');
  const names = ['index.html'];
  for (let i = 1; i < files - 1; i++)
    names.push(`assets/part-${String(Math.floor(i / 100)).padStart(2, '0')}/lesson-${i}.html`);
  const manifest = Buffer.from(manifestXml(names));
  const each = Math.floor((bytes - manifest.length) / names.length);
  const last = bytes - manifest.length - each * (names.length - 1);
  const pool = textPool(1024 * 1024);
  const zip = new yazl.ZipFile();
  const mtime = new Date('2026-01-01T00:00:00Z');
  zip.addBuffer(manifest, 'imsmanifest.xml', { mtime });
  names.forEach((name, i) => {
    const size = i === names.length - 1 ? last : each;
    zip.addReadStreamLazy(name, { mtime, size }, (cb) => cb(null, Readable.from(fileBlocks(size, i + 11, pool))));
  });
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(path));
  return { files, bytes, zipBytes: statSync(path).size };
}

async function sha256File(path) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk);
  return hash.digest('hex');
}

// ---- unzip -t ----------------------------------------------------------------------------------------

/** `unzip -tqq` on the file: seconds, or the reason it could not run. */
function unzipTest(path) {
  const t = process.hrtime.bigint();
  const result = spawnSync('unzip', ['-tqq', path], { encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - t) / 1e9;
  if (result.error?.code === 'ENOENT') return { missing: true };
  if (result.status !== 0) throw new Error(`unzip -t failed (${result.status}): ${result.stdout}${result.stderr}`);
  return { seconds };
}

const unzipVersion = () => {
  const result = spawnSync('unzip', ['-v'], { encoding: 'utf8' });
  return result.error ? null : (result.stdout.split('\n')[0] ?? '').trim();
};

// ---- the import through the API -------------------------------------------------------------------

const auth = { authorization: `api ${BENCH_ADMIN_TOKEN}` };

/** POSTs the file as the multipart field `file` (Content-Length known, the file streamed in 1 MiB reads). */
function uploadForm(url, path) {
  const boundary = `----rgcsbench${randomBytes(12).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="course.zip"\r\n` +
      'Content-Type: application/zip\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          ...auth,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + statSync(path).size + tail.length,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.write(head);
    const file = createReadStream(path, { highWaterMark: 1024 * 1024 });
    file.on('error', reject);
    file.on('end', () => req.end(tail));
    file.pipe(req, { end: false });
  });
}

async function api(target, method, path, body) {
  const res = await fetch(target.base + path, {
    method,
    headers: body === undefined ? auth : { ...auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
}

async function expectStatus(promise, status, what) {
  const res = await promise;
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${res.text.slice(0, 500)}`);
  return res.body;
}

/** One import of the package into a new module's draft: times, RSS, states seen, checks. */
async function importOnce(target, db, path, pkg, round) {
  const pid = target.proc.pid;
  const module = await expectStatus(
    api(target, 'POST', `${BASE}/drafts`, { title: `Bench module ${round}` }),
    201,
    'T2',
  );
  const created = await expectStatus(api(target, 'POST', `${BASE}/imports`, { moduleid: module.moduleid }), 201, 'T8');
  const importid = created.importid;
  await new Promise((r) => setTimeout(r, 500));
  const reset = resetPeakRss(pid);
  const rssBefore = rssMiB(pid);
  const cpuBefore = cpuMs(pid);
  const t0 = performance.now();
  const seen = {}; // status -> ms after t0 when first seen
  const peakBy = {}; // status -> VmHWM (MiB) when it was left: the peak up to the end of that stage
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, peakRssMiB(pid))), 50);
  let row;
  try {
    const res = await uploadForm(`${target.base}${BASE}/imports/${importid}/start/byUpload`, path);
    const text = res.text;
    if (res.status !== 202) throw new Error(`T10 byUpload answered ${res.status}: ${text.slice(0, 500)}`);
    seen.uploaded = performance.now() - t0;
    peakBy.receiving = peakRssMiB(pid);
    row = JSON.parse(text);
    seen[row.status] ??= seen.uploaded;
    let last = row.status;
    while (!['complete', 'failed', 'cancelled'].includes(row.status)) {
      await new Promise((r) => setTimeout(r, POLL_MS));
      row = await expectStatus(api(target, 'GET', `${BASE}/imports/${importid}/progress`), 200, 'T12');
      seen[row.status] ??= performance.now() - t0;
      if (row.status !== last) [peakBy[last], last] = [peakRssMiB(pid), row.status];
    }
    peakBy[last] = peakRssMiB(pid);
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - t0) / 1000;
  peak = Math.max(peak, peakRssMiB(pid));
  const cpu = cpuMs(pid) - cpuBefore;
  if (row.status !== 'complete') throw new Error(`the import ended ${row.status}: ${JSON.stringify(row.error)}`);
  // The import job must have run in the measured instance (the SQL-counting instance shares the queue).
  const [job] = await db.query('SELECT locked_by FROM jobs WHERE unique_key = ?', [`training-import:${importid}`]);
  const ranIn = job?.locked_by ?? null;
  const elsewhere = ranIn !== null && !ranIn.includes(`:${pid}:`);
  // Checks, after the measurement: the preview, then the published version against the file.
  const preview = await expectStatus(api(target, 'GET', `${BASE}/imports/${importid}/preview`), 200, 'T13');
  if (
    preview.files.length !== pkg.files ||
    preview.manifest.launch_path !== 'index.html' ||
    preview.manifest.scos.length !== 1
  )
    throw new Error(
      `preview: ${preview.files.length} files, launch ${preview.manifest.launch_path}, ${preview.manifest.scos.length} SCOs`,
    );
  const published = await expectStatus(api(target, 'PUT', `${BASE}/${module.moduleid}/current`, {}), 200, 'T6');
  const v = published.current;
  if (
    v.file_count !== pkg.files ||
    v.package_bytes !== pkg.zipBytes ||
    v.package_sha256 !== pkg.sha256 ||
    v.standard !== 'scorm12'
  )
    throw new Error(`published version does not match the package: ${JSON.stringify(v)}`);
  return {
    importid,
    seconds,
    cpuMs: cpu,
    rssBefore,
    peak,
    growth: peak - rssBefore,
    reset,
    seen,
    peakBy,
    ranIn,
    elsewhere,
  };
}

/** The training-import measurement (undefined when not selected). */
export async function measureTrainingImport(options, target, db) {
  if (!selected(options)) return undefined;
  const rounds = Math.max(1, options.rounds);
  log(
    `\n${TRAINING_WORKLOAD}: building a SCORM package of ${TRAINING_FILES} files, ${TRAINING_BYTES / 1048576} MiB, with yazl…`,
  );
  const path = join(tmpdir(), `rgcs_bench_package_${process.pid}.zip`);
  try {
    let t = performance.now();
    const pkg = await buildPackage(path);
    pkg.buildSeconds = (performance.now() - t) / 1000;
    pkg.sha256 = await sha256File(path);
    log(
      `  ${(pkg.zipBytes / 1048576).toFixed(1)} MiB ZIP in ${pkg.buildSeconds.toFixed(1)}s (${pkg.files} files, ${(pkg.bytes / 1048576).toFixed(0)} MiB inflated)`,
    );
    const unzip = { version: unzipVersion(), runs: [] };
    if (!unzip.version)
      log(
        '  !! unzip is MISSING: the import rate cannot be compared with `unzip -t` (install it: apt-get install -y unzip)',
      );
    const runUnzip = () => {
      if (!unzip.version) return;
      const r = unzipTest(path);
      unzip.runs.push(r.seconds);
      log(`  unzip -t: ${r.seconds.toFixed(2)}s`);
    };
    // The writes before queue background work (search indexing, the category index) that would run beside the
    // imports: the import is measured once it is done, as the export is.
    const settled = db ? await settle(db) : undefined;
    const imports = [];
    // With --warmup above 0 (the default), one import first warms the service up, as the other workloads'
    // warm-up does: it is shown and counts for the RSS target, not for the time.
    const warmups = options.warmup > 0 ? 1 : 0;
    for (let round = 1 - warmups; round <= rounds; round++) {
      runUnzip();
      const r = await importOnce(target, db, path, pkg, round + warmups);
      r.warmup = round < 1;
      imports.push(r);
      const states = Object.entries(r.seen)
        .map(([k, ms]) => `${k} ${(ms / 1000).toFixed(2)}s`)
        .join(', ');
      log(
        `  ${r.warmup ? 'warm-up' : `round ${round}`}: import ${r.importid} complete in ${r.seconds.toFixed(2)}s (${states}); service CPU ${(r.cpuMs / 1000).toFixed(1)}s; ` +
          `RSS before ${r.rssBefore.toFixed(0)} MiB, peak ${r.peak.toFixed(0)} MiB, growth ${r.growth.toFixed(1)} MiB ` +
          `(peak by the end of: ${stagePeaks(r)})` +
          (r.reset ? '' : ' (VmHWM could not be reset: lifetime peak)') +
          (r.elsewhere ? ` !! the job ran in another instance (${r.ranIn})` : ''),
      );
    }
    runUnzip();
    return { pkg, unzip, imports, rounds, settled };
  } finally {
    rmSync(path, { force: true });
  }
}

// ---- report ----------------------------------------------------------------------------------------

const stagePeaks = (r) =>
  Object.entries(r.peakBy)
    .map(([k, v]) => `${k} ${v.toFixed(0)}`)
    .join(', ');

const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;

export function reportTraining({ result, settings, dbVersion, command }) {
  const { pkg, unzip, imports } = result;
  const measured = imports.filter((r) => !r.warmup);
  const importSeconds = mean(measured.map((r) => r.seconds));
  const growth = Math.max(...imports.map((r) => r.growth));
  const unzipSeconds = unzip.runs.length ? mean(unzip.runs) : NaN;
  const ratio = importSeconds / unzipSeconds;
  const jobSeconds = mean(measured.map((r) => r.seconds - r.seen.uploaded / 1000));
  const mib = (b) => (b / 1048576).toFixed(1);
  const lines = [
    ...sectionHead(`${settings.type === 'sqlite' ? 'SQLite' : 'MySQL / MariaDB'}: training-import`, {
      command,
      dbVersion,
      dataSet:
        `a SCORM 1.2 package of ${pkg.files} files, ${mib(pkg.bytes)} MiB inflated, ${mib(pkg.zipBytes)} MiB as a ZIP, ` +
        `uploaded (T10) and polled every ${POLL_MS} ms until complete, then listed and published; ${imports.length} ` +
        `import(s), the first a warm-up; \`unzip -t\` ${unzip.version ? 'on the same file' : '**missing**'}`,
    }).slice(0, -1),
    '',
    '| import | upload answered (s) | validating seen (s) | extracting seen (s) | complete (s) | service CPU (s) | RSS before MiB | peak MiB | growth MiB | peak by the end of each stage, MiB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...imports.map((r, i) => {
      const s = (k) => (r.seen[k] === undefined ? '–' : (r.seen[k] / 1000).toFixed(2));
      return (
        `| ${r.warmup ? 'warm-up' : i + 1 - (imports.length - measured.length)} | ${s('uploaded')} | ${s('validating')} | ${s('extracting')} | ${r.seconds.toFixed(2)} | ` +
        `${(r.cpuMs / 1000).toFixed(1)} | ${r.rssBefore.toFixed(0)} | ${r.peak.toFixed(0)} | ${r.growth.toFixed(1)} | ${stagePeaks(r)} |`
      );
    }),
    '',
    `\`unzip -t\` runs: ${unzip.runs.length ? unzip.runs.map((s) => `${s.toFixed(2)}s`).join(', ') : 'none (unzip missing)'}.`,
    '',
    `Targets: peak RSS growth ${growth.toFixed(1)} MiB = ${(growth * 1.048576).toFixed(1)} MB (the largest of the imports; ` +
      `target < ${TARGET_RSS_MB} MB): ${growth * 1.048576 < TARGET_RSS_MB ? 'met' : 'MISSED'}` +
      (imports.every((r) => r.reset) ? '' : ' (VmHWM could not be reset: lifetime peak)') +
      `; import ${importSeconds.toFixed(2)}s (mean of ${measured.length}) against \`unzip -t\` ${Number.isFinite(unzipSeconds) ? `${unzipSeconds.toFixed(2)}s (mean)` : 'n/a'}: ` +
      (Number.isFinite(ratio)
        ? `${ratio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×): ${ratio <= TARGET_RATIO ? 'met' : 'MISSED'}`
        : 'not compared: **unzip is missing**') +
      `; ${mib(pkg.zipBytes / importSeconds)} MiB/s of ZIP. The import job alone (from the upload answered to ` +
      `\`complete\` seen, for comparison only): ${jobSeconds.toFixed(2)}s (mean)` +
      (Number.isFinite(ratio) ? `, ${(jobSeconds / unzipSeconds).toFixed(2)}× \`unzip -t\`.` : '.'),
    '',
  ];
  if (imports.some((r) => r.elsewhere))
    lines.push(
      "**Warning:** an import job ran in the SQL-counting instance, not the measured one: its RSS figures are not the import's.",
      '',
    );
  if (settings.type === 'mysql')
    lines.push('Service CPU is the Node process only (the MariaDB server’s is not counted).', '');
  return lines.join('\n');
}
