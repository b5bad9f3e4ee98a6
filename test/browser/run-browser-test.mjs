// Browser test (npm run test:browser): the built service with its demo content, driven through the Swagger UI
// in headless Chromium (Debian's `chromium`, through puppeteer-core, which downloads no browser). Logs in by
// executing the prefilled POST /user/token as shown (the page is then authorized by itself), runs GET /user,
// then every GET operation with its prefilled example, POST /guides with the example shown, a multipart image
// upload, checks that the authorization survives a reload, that a token typed without `api ` works and that
// DELETE /user/token logs the page out, then opens a guide's HTML page. Takes a screenshot of the Swagger UI
// (SCREENSHOT_DIR, default a temporary folder). Fails on any console error or page error. Bounded: the whole
// run is stopped after RUN_LIMIT_MS.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, launchBrowser, ROOT, STEP_MS, startService, tally } from './harness.mjs';
import sharp from 'sharp';

const RUN_LIMIT_MS = 600_000;
/** The GET examples that do not answer 2xx on a fresh demo site, as the built service documents them. */
const { NOT_2XX_ON_DEMO } = createRequire(import.meta.url)(join(ROOT, 'dist/src/openapi/request-examples.js'));
const { counts, check } = tally();
/** The step running, named in the error when a wait times out. */
let phase = 'start';

/** Expands an operation of the Swagger UI and answers its element. */
async function openOperation(page, tag, operationId) {
  const id = `#operations-${tag.replace(/ /g, '_')}-${operationId}`;
  // Swagger UI virtualizes a long operation list (only what is on screen is in the page): filter by the tag
  // first, as a user looking for it would.
  await replaceText(page, '.operation-filter-input', tag);
  phase = `${phase.split(':')[0]}: filtered`;
  await page.waitForSelector(id, { timeout: STEP_MS });
  phase = `${phase.split(':')[0]}: listed`;
  // Clicked through the DOM, and again if it did not open: a click while the filtered list re-renders can be
  // lost (CI and local runs timed out here, between the login and GET /user).
  for (let attempt = 1; ; attempt++) {
    if (!(await page.$(`${id}.is-open`))) await page.$eval(`${id} .opblock-summary-control`, (e) => e.click());
    try {
      await page.waitForSelector(`${id} .opblock-body`, { timeout: attempt === 3 ? STEP_MS : 5_000 });
      break;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
  phase = `${phase.split(':')[0]}: opened`;
  // Swagger UI resolves an operation's references only once it is expanded, asynchronously; an Execute before
  // that fails in the page ("OperationNotFoundError") and sends nothing (CI and local runs timed out so at GET /user).
  // (A deprecated operation's path has its own class.)
  const path = await page.$eval(`${id} .opblock-summary [data-path]`, (e) => e.getAttribute('data-path'));
  const method = (await page.$eval(`${id} .opblock-summary-method`, (e) => e.textContent ?? '')).toLowerCase();
  await page.waitForFunction(
    (p, m) => globalThis.ui.getSystem().specSelectors.specResolvedSubtree(['paths', p, m])?.get?.('operationId'),
    { timeout: STEP_MS },
    path,
    method,
  );
  phase = `${phase.split(':')[0]}: resolved`;
  // The body renders in steps; the Execute button (try-it-out is on) comes with the rest of it (beside Clear once
  // the operation has a response).
  await page.waitForSelector(`${id} .opblock-body .execute`, { timeout: STEP_MS });
  return id;
}

/** Presses Execute and answers the API response the UI received (`pathEnd`: a string, or a test of the path). */
async function execute(page, id, pathEnd, method) {
  const matches = typeof pathEnd === 'string' ? (path) => path.endsWith(pathEnd) : pathEnd;
  await page.waitForSelector(`${id} .execute`, { timeout: STEP_MS });
  // Clicked through the DOM, and again when no request went out: a click while the operation's body is still
  // rendering can be lost (runs timed out here, at GET /user, with the operation open).
  let response;
  for (let attempt = 1; !response; attempt++) {
    const answered = page.waitForResponse(
      (r) =>
        r.request().method() === method &&
        ['fetch', 'xhr'].includes(r.request().resourceType()) &&
        matches(new URL(r.url()).pathname),
      { timeout: attempt === 3 ? STEP_MS : 5_000 },
    );
    await page.$eval(`${id} .execute`, (element) => element.click());
    try {
      response = await answered;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
  phase = `${phase.split(':')[0]}: answered`;
  await page.waitForSelector(`${id} .live-responses-table`, { timeout: STEP_MS });
  return response;
}

/** Waits for an element and clicks it through the DOM (independent of layout shifts). */
async function clickInPage(page, selector) {
  await page.waitForSelector(selector, { timeout: STEP_MS });
  await page.$eval(selector, (element) => element.click());
}

async function replaceText(page, selector, text) {
  // The try-it-out editor renders a moment after the operation opens.
  await page.waitForSelector(selector, { timeout: STEP_MS });
  // Keystrokes go wherever the focus is: while the UI re-renders (the authorize dialog closing, say) they can
  // miss the field. Typed again until the field holds the text (a CI run once timed out waiting for GET /user
  // after the dialog closed).
  for (let attempt = 1; ; attempt++) {
    await page.$eval(selector, (element) => element.focus());
    await page.keyboard.down('Control');
    await page.keyboard.press('KeyA');
    await page.keyboard.up('Control');
    await page.keyboard.press('Backspace');
    await page.type(selector, text);
    if ((await page.$eval(selector, (element) => element.value)) === text || attempt === 3) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Collapses an operation again, so that the page stays small over a hundred operations. */
async function closeOperation(page, id) {
  if (await page.$(`${id}.is-open`)) await page.$eval(`${id} .opblock-summary-control`, (e) => e.click());
}

/** Every GET operation of the served document: its group, id, path and a test of the URL path the UI sends. */
async function getOperations(base) {
  const document = await (await fetch(`${base}/api/2.0/openapi.json`)).json();
  return Object.entries(document.paths).flatMap(([path, item]) =>
    item.get
      ? [
          {
            tag: item.get.tags[0],
            operationId: item.get.operationId,
            path,
            // Parameters are filled in (and encoded) by the UI: each {…} is one segment or more.
            matches: (sent) => new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '.+')}$`).test(sent),
          },
        ]
      : [],
  );
}

const SCREENSHOTS = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'rgcs-browser-screenshots');

async function run() {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'rgcs-browser-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { child, password } = await startService(dir, port);
  const browser = await launchBrowser();
  const consoleErrors = [];
  /** The error status the GET example being run is documented to answer. */
  let expectedStatus;
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(STEP_MS);
    page.on('console', (message) => {
      // Chromium reports a response with an error status as a console error: expected for the few documented ones.
      const expected = expectedStatus && message.text().includes(`responded with a status of ${expectedStatus} `);
      if (message.type() === 'error' && !expected) consoleErrors.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => consoleErrors.push(`${page.url()}: ${error.message}`));

    await page.goto(`${base}/api/2.0/docs`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('.swagger-ui .information-container');
    check('Swagger UI loads with a filter box', (await page.$('.operation-filter-input')) !== null);
    // The order the UI renders its groups in (the list is virtualized, so not every group is in the page).
    const tags = await page.evaluate(() => globalThis.ui.getSystem().specSelectors.taggedOperations().keySeq().toJS());
    check('tags in reading order', tags[0] === 'Authentication' && tags[1] === 'Guides', tags.slice(0, 3).join(', '));

    // Log in through the UI: the prefilled example, executed as shown, holds the password printed at start-up.
    phase = 'log in';
    const login = await openOperation(page, 'Authentication', 'Auth_createToken');
    const loginBody = await page.$eval(`${login} textarea.body-param__text`, (e) => e.value);
    check('the login example holds the demo password', loginBody.includes(password), loginBody);
    const loginResponse = await execute(page, login, '/api/2.0/user/token', 'POST');
    check('POST /user/token through the UI', loginResponse.status() === 201, String(loginResponse.status()));
    const { authToken } = await loginResponse.json();

    // No token typed: the login authorized the page.
    phase = 'authorized by the login';
    await page.waitForSelector('.scheme-container .btn.authorize.locked', { timeout: STEP_MS });
    const stored = await page.evaluate(() => globalThis.localStorage.getItem('authorized') ?? '');
    check('the login authorized the page (and stored it)', stored.includes(`api ${authToken}`), stored);
    await page.screenshot({ path: join(SCREENSHOTS, 'swagger-ui-after-login.png'), fullPage: false });
    phase = 'GET /user';
    const me = await openOperation(page, 'Users', 'CurrentUser_me');
    const meResponse = await execute(page, me, '/api/2.0/user', 'GET');
    const meBody = meResponse.status() === 200 ? await meResponse.json() : {};
    check('GET /user with the token from the UI', meBody.email === 'admin@demo.example', String(meResponse.status()));
    await closeOperation(page, me);

    // Every GET operation with its prefilled example, executed as shown.
    phase = 'GET examples';
    const gets = await getOperations(base);
    const unexpected = [];
    for (const operation of gets) {
      phase = `GET ${operation.path}`;
      const id = await openOperation(page, operation.tag, operation.operationId);
      const expected = NOT_2XX_ON_DEMO[`get ${operation.path}`]?.status;
      expectedStatus = expected;
      const response = await execute(page, id, operation.matches, 'GET');
      const ok = expected === undefined ? response.status() < 300 : response.status() === expected;
      if (!ok) unexpected.push(`${operation.path} → ${response.status()} ${(await response.text()).slice(0, 120)}`);
      await closeOperation(page, id);
      expectedStatus = undefined;
    }
    check(`each of ${gets.length} GET examples answers as documented`, unexpected.length === 0, unexpected.join('\n'));

    // POST /guides with the example as shown; its description keeps <category> <subject> <Type>.
    phase = 'POST /guides';
    const create = await openOperation(page, 'Guides', 'Guides_create');
    await page.waitForSelector(`${create} .opblock-description-wrapper`, { timeout: STEP_MS });
    const description = await page.$eval(`${create} .opblock-description-wrapper`, (e) => e.textContent ?? '');
    check(
      'descriptions keep text in angle brackets',
      description.includes('<category> <subject>'),
      description.slice(0, 200),
    );
    const createResponse = await execute(page, create, '/api/2.0/guides', 'POST');
    const guide = createResponse.status() === 201 ? await createResponse.json() : {};
    check('POST /guides with the example shown', createResponse.status() === 201, await createResponse.text());

    // Multipart upload: the form's file field.
    phase = 'upload';
    const upload = await openOperation(page, 'Media', 'Images_upload');
    const imagePath = join(dir, 'photo.png');
    await sharp({ create: { width: 320, height: 240, channels: 3, background: '#3366cc' } })
      .png()
      .toFile(imagePath);
    const fileInput = await page.waitForSelector(`${upload} input[type=file]`);
    await fileInput.uploadFile(imagePath);
    const uploadResponse = await execute(page, upload, '/api/2.0/user/media/images', 'POST');
    check('multipart image upload through the UI', uploadResponse.status() === 200, await uploadResponse.text());

    // The authorization survives a reload.
    phase = 'reload';
    await page.reload({ waitUntil: 'networkidle0' });
    await page.waitForSelector('.swagger-ui .information-container');
    check('authorization kept across a reload', (await page.$('.scheme-container .btn.authorize.locked')) !== null);

    // DELETE /user/token logs the page out (and revokes the token).
    phase = 'log out';
    const logout = await openOperation(page, 'Authentication', 'Auth_deleteToken');
    const logoutResponse = await execute(page, logout, '/api/2.0/user/token', 'DELETE');
    check('DELETE /user/token through the UI', logoutResponse.status() === 204, String(logoutResponse.status()));
    await page.waitForSelector('.scheme-container .btn.authorize:not(.locked)', { timeout: STEP_MS });
    const afterLogout = await page.evaluate(() => globalThis.localStorage.getItem('authorized') ?? '');
    check('the logout removed the authorization', !afterLogout.includes('apiToken'), afterLogout);

    // A token typed into Authorize without `api `: the UI adds it.
    phase = 'bare token';
    const second = await (
      await fetch(`${base}/api/2.0/user/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@demo.example', password }),
      })
    ).json();
    await clickInPage(page, '.scheme-container .btn.authorize');
    await page.waitForSelector('.modal-ux .auth-container input[type=text]', { timeout: STEP_MS });
    await page.type('.modal-ux .auth-container input[type=text]', second.authToken);
    await clickInPage(page, '.modal-ux .auth-container .btn.modal-btn.auth.authorize');
    await clickInPage(page, '.modal-ux .btn-done');
    await page.waitForSelector('.modal-ux', { hidden: true, timeout: STEP_MS });
    const again = await openOperation(page, 'Users', 'CurrentUser_me');
    const againResponse = await execute(page, again, '/api/2.0/user', 'GET');
    check(
      'a token typed without `api ` is sent with it',
      againResponse.status() === 200 && againResponse.request().headers().authorization === `api ${second.authToken}`,
      `${againResponse.status()} ${againResponse.request().headers().authorization}`,
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'swagger-ui.png'), fullPage: false });
    process.stdout.write(`screenshots in ${SCREENSHOTS}\n`);

    // The HTML page behind the new guide's URL.
    phase = 'guide pages';
    const pagePath = new URL(guide.url ?? `${base}/Guide/x/1`).pathname;
    const pageResponse = await page.goto(`${base}${pagePath}`, { waitUntil: 'networkidle0' });
    const heading = await page.$eval('h1', (e) => e.textContent ?? '');
    check('the guide page answers with its title', pageResponse.status() === 200 && heading === guide.title, heading);
    const demoPage = await page.goto(`${base}/Guide/iPhone_6_Battery_Replacement/2`, { waitUntil: 'networkidle0' });
    const images = await page.$$eval('main img', (els) => els.map((e) => e.naturalWidth));
    check(
      'a demo guide page shows its images',
      demoPage.status() === 200 && images.length > 0 && images.every((w) => w > 0),
      JSON.stringify(images),
    );

    check('no console errors', consoleErrors.length === 0, consoleErrors.join('\n'));
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

const limit = setTimeout(() => {
  process.stderr.write(`browser test: stopped after ${RUN_LIMIT_MS / 1000} s\n`);
  process.exit(1);
}, RUN_LIMIT_MS);
run()
  .catch((error) => {
    counts.failed += 1;
    process.stderr.write(
      `browser test, during "${phase}": ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  })
  .finally(() => {
    clearTimeout(limit);
    process.stdout.write(`browser: ${counts.passed} passed, ${counts.failed} failed\n`);
    process.exit(counts.failed === 0 && counts.passed > 0 ? 0 : 1);
  });
