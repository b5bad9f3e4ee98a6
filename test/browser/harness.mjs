// What the browser tests share: where Chromium is and how it is launched, a tally of checks, a bounded run, and
// the built service started with its demo content in a temporary directory.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import puppeteer from 'puppeteer-core';

export const ROOT = resolve(import.meta.dirname, '../..');
export const STEP_MS = 30_000;
export const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path) => path && existsSync(path),
);

/** Named checks printed as they are made; `fail` counts an error that ended the run early. */
export function tally() {
  const counts = { passed: 0, failed: 0 };
  const check = (name, ok, detail = '') => {
    if (ok) counts.passed += 1;
    else counts.failed += 1;
    process.stdout.write(`${ok ? '✓' : '✕'} ${name}${ok || !detail ? '' : `: ${detail}`}\n`);
  };
  return { counts, check };
}

export function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => (port ? done(port) : fail(new Error('no port'))));
    });
  });
}

/** Starts dist/src/main.js on `port` with a fresh SQLite file and the demo content; answers the demo password. */
export async function startService(dir, port, env = {}) {
  const child = spawn(process.execPath, [join(ROOT, 'dist/src/main.js')], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      DB_PATH: join(dir, 'app.sqlite'),
      MEDIA_DIR: join(dir, 'media'),
      SEED_DEMO: 'true',
      // The demo password is shown in the pretty start-up block only (never in a log record).
      LOG_FORMAT: 'pretty',
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const health = await fetch(`http://127.0.0.1:${port}/health/ready`);
      if (health.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the service did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const shown = /password for all, shown once: ([^\s)]+)/;
  while (!shown.test(output) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const password = shown.exec(output)?.[1];
  if (!password) throw new Error(`no demo password in the start-up output:\n${output}`);
  return { child, password };
}

/** Debian's Chromium, headless, as every browser test drives it. */
export function launchBrowser() {
  if (!CHROMIUM) throw new Error('no Chromium: apt-get install chromium, or set CHROMIUM_PATH');
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}

/** Runs `run` stopped after `limitMs`; an error it throws counts as a failed check. Prints the tally and exits. */
export async function runBounded(run, counts, limitMs) {
  const limit = setTimeout(() => {
    process.stdout.write(`✕ the run took longer than ${limitMs / 1000} s\n`);
    process.exit(1);
  }, limitMs);
  try {
    await run();
  } catch (error) {
    counts.failed += 1;
    process.stdout.write(`✕ ${error.stack ?? error}\n`);
  }
  clearTimeout(limit);
  process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed\n`);
  process.exit(counts.failed ? 1 : 0);
}
