// Browser test of the training player (npm run test:browser): the built service with its demo content, the demo
// SCORM 1.2 module opened at its launch URL in headless Chromium (Debian's `chromium` through puppeteer-core, no
// download). The package's page finds the scorm-again runtime the player hosts, sets cmi.core.lesson_status to
// completed and commits; the player sends the commit with its registration token, and the registration reads
// `completed` through the API. Fails on any page error. Bounded: the run is stopped after RUN_LIMIT_MS.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, launchBrowser, runBounded, STEP_MS, startService, tally } from './harness.mjs';

const RUN_LIMIT_MS = 120_000;
const { counts, check } = tally();

async function api(base, token, method, path, body) {
  const response = await fetch(`${base}/api/2.0${path}`, {
    method,
    headers: { authorization: `api ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'rgcs-training-browser-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { child, password } = await startService(dir, port, { TRAINING_DIR: join(dir, 'training') });
  const browser = await launchBrowser();
  const pageErrors = [];
  try {
    const login = await fetch(`${base}/api/2.0/user/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@demo.example', password }),
    });
    const { authToken } = await login.json();
    check('the demo Admin logs in', login.status === 201, String(login.status));

    const current = await api(base, authToken, 'GET', '/external_training_modules/current');
    const module = current.body.find((m) => m.current?.standard === 'scorm12');
    check(
      'the demo SCORM 1.2 module is current',
      current.status === 200 && module !== undefined,
      JSON.stringify(current.body),
    );

    const launch = await api(base, authToken, 'GET', `/external_training_modules/${module.moduleid}/player`);
    check(
      'T4 answers a launch URL',
      launch.status === 200 && launch.body.runtime.api === 'API',
      JSON.stringify(launch.body),
    );
    const before = await api(base, authToken, 'GET', `/external_training_modules/${module.moduleid}/usage`);

    const page = await browser.newPage();
    page.setDefaultTimeout(STEP_MS);
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(`${page.url()}: ${message.text()}`);
    });
    const commits = [];
    page.on('response', (response) => {
      if (response.request().method() === 'PUT' && response.url() === launch.body.runtime.commit_url) {
        commits.push(response);
      }
    });
    const opened = await page.goto(launch.body.launch_url, { waitUntil: 'networkidle0' });
    check('the player page opens', opened.status() === 200, String(opened.status()));
    check(
      'the player hosts scorm-again (window.API)',
      await page.evaluate(() => typeof globalThis.API?.LMSInitialize === 'function'),
    );
    const frame = await (await page.waitForSelector('iframe#content')).contentFrame();
    await frame.waitForSelector('#result[data-status]');
    const inFrame = await frame.$eval('#result', (e) => e.getAttribute('data-status'));
    check('the package set cmi.core.lesson_status through scorm-again', inFrame === 'completed', inFrame);
    await page.waitForSelector('#status[data-status="completed"]');
    const shown = await page.$eval('#status', (e) => e.getAttribute('data-status'));
    check('the player shows the committed status', shown === 'completed', shown);
    check(
      'the commit went to the registration route with the token and succeeded',
      commits.length > 0 && commits.every((r) => r.status() === 200) && !commits[0].request().headers().authorization,
      commits.map((r) => r.status()).join(','),
    );
    const headers = commits[0]?.request().headers() ?? {};
    check(
      'the commit carries X-Registration-Token',
      headers['x-registration-token'] === launch.body.runtime.commit_token,
    );

    const after = await api(base, authToken, 'GET', `/external_training_modules/${module.moduleid}/usage`);
    check(
      'the registration reads completed (usage)',
      after.body.registrations.completed === before.body.registrations.completed + 1,
      JSON.stringify([before.body.registrations, after.body.registrations]),
    );
    const commit = await api(
      base,
      authToken,
      'PUT',
      `/external_training_modules/registrations/${launch.body.registrationid}`,
      {},
    );
    check(
      'the registration itself is completed with a completed_date and the stored location',
      commit.status === 200 &&
        commit.body.status === 'completed' &&
        commit.body.completed_date !== null &&
        commit.body.location === 'safety-rules',
      JSON.stringify(commit.body),
    );
    const contentHeaders = await fetch(await frame.evaluate(() => globalThis.location.href)).then((r) => [
      r.headers.get('content-security-policy'),
      r.headers.get('x-content-type-options'),
    ]);
    check(
      'the package page is sandboxed and not sniffed',
      contentHeaders[0]?.startsWith('sandbox') && contentHeaders[1] === 'nosniff',
      JSON.stringify(contentHeaders),
    );
    check('no page errors', pageErrors.length === 0, pageErrors.join('\n'));
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

await runBounded(run, counts, RUN_LIMIT_MS);
