// Browser test of the HTML pages (npm run test:browser): the built service with its demo content in headless
// Chromium (Debian's `chromium` through puppeteer-core, no download). A reader's walk by clicks only: the home
// page, a top category, a child category, one of its guides, back up by the guide's category link and the
// breadcrumbs, home by the header link; then a private guide's URL, which must be an HTML 404 page. Any missing
// link fails the run. Screenshots of each page go to SCREENSHOT_DIR (default: a new temporary directory, kept
// and printed). Bounded: the run is stopped after RUN_LIMIT_MS.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, launchBrowser, runBounded, STEP_MS, startService, tally } from './harness.mjs';

const RUN_LIMIT_MS = 120_000;
const { counts, check } = tally();

/** Clicks the link under `selector` whose text is `text` (the first one when `text` is undefined) and waits for the page. */
async function follow(page, selector, text) {
  const links = await page.$$(selector);
  for (const link of links) {
    const shown = await link.evaluate((e) => e.textContent?.trim() ?? '');
    if (text === undefined || shown === text) {
      const [response] = await Promise.all([page.waitForNavigation({ waitUntil: 'networkidle0' }), link.click()]);
      return { text: shown, status: response?.status() };
    }
  }
  throw new Error(`no link ${text === undefined ? '' : `"${text}" `}matching ${selector} on ${page.url()}`);
}

const heading = (page) => page.$eval('main h1', (e) => e.textContent?.trim() ?? '');
const crumbs = (page) =>
  page.$$eval('nav.breadcrumbs li', (items) => items.map((e) => e.textContent?.trim() ?? '')).catch(() => []);

async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'rgcs-pages-browser-'));
  const shots = process.env.SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), 'rgcs-pages-screenshots-'));
  mkdirSync(shots, { recursive: true });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { child, password } = await startService(dir, port);
  const browser = await launchBrowser();
  const pageErrors = [];
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(STEP_MS);
    await page.setViewport({ width: 1024, height: 800 });
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(`${page.url()}: ${message.text()}`);
    });
    const shoot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

    const home = await page.goto(`${base}/`, { waitUntil: 'networkidle0' });
    check(
      'the home page is HTML',
      home.status() === 200 && home.headers()['content-type']?.startsWith('text/html'),
      `${home.status()} ${home.headers()['content-type']}`,
    );
    check('the home page has a search box', (await page.$('form[role=search] input[name=query]')) !== null);
    check('the home page lists recent guides', (await page.$$('ul.guides li.guide a')).length > 0);
    await shoot('1-home');

    const top = await follow(page, 'a.featured-category-item', 'Electronics');
    check('home → a top category', top.status === 200 && (await heading(page)) === 'Electronics', page.url());
    check('its breadcrumbs lead home', JSON.stringify(await crumbs(page)) === '["Home","Electronics"]');
    await shoot('2-category-top');

    const trail = ['Home', 'Electronics'];
    for (const title of ['Phone', 'iPhone', 'iPhone 6']) {
      const child = await follow(page, 'ul.categories a', title);
      trail.push(title);
      check(`a category → its child ${title}`, child.status === 200 && (await heading(page)) === title);
      check(
        `${title} shows its ancestors as breadcrumbs`,
        JSON.stringify(await crumbs(page)) === JSON.stringify(trail),
        JSON.stringify(await crumbs(page)),
      );
    }
    await shoot('3-category');

    const guide = await follow(page, 'ul.guides li.guide a', 'iPhone 6 Battery Replacement');
    check('a category → one of its guides', guide.status === 200 && (await heading(page)) === guide.text, guide.text);
    const items = await page.$$eval('main h2 + ul a', (links) => links.map((e) => e.textContent));
    check(
      'the guide links its parts and tools',
      ['iPhone 6 Battery', 'Spudger'].every((name) => items.includes(name)),
      JSON.stringify(items),
    );
    await shoot('4-guide');
    const tool = await follow(page, 'main h2 + ul a', 'Spudger');
    check("a tool's link leads to its ITEM page", tool.status === 200 && (await heading(page)) === 'Spudger');
    await page.goBack({ waitUntil: 'networkidle0' });

    const back = await follow(page, 'main dd a', 'iPhone 6');
    check(
      "the guide's category link leads to the category",
      back.status === 200 && (await heading(page)) === 'iPhone 6',
    );
    const up = await follow(page, 'nav.breadcrumbs a', 'Electronics');
    check('a breadcrumb leads to an ancestor', up.status === 200 && (await heading(page)) === 'Electronics');
    const header = await follow(page, 'header a.site');
    check('the header link leads to the home page', header.status === 200 && new URL(page.url()).pathname === '/');
    check('no page errors while browsing', pageErrors.length === 0, pageErrors.join('\n'));

    // The demo's private guide: found through the API with the Admin's token, absent from the pages.
    const login = await fetch(`${base}/api/2.0/user/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@demo.example', password }),
    });
    const { authToken } = await login.json();
    let hidden;
    for (let guideid = 1; guideid <= 20 && !hidden; guideid++) {
      const anonymous = await fetch(`${base}/api/2.0/guides/${guideid}`);
      if (anonymous.status !== 404) continue;
      const own = await fetch(`${base}/api/2.0/guides/${guideid}`, { headers: { authorization: `api ${authToken}` } });
      if (own.status === 200) hidden = await own.json();
    }
    check('the demo has a private guide', hidden !== undefined);
    pageErrors.length = 0;
    const privatePage = await page.goto(hidden.url, { waitUntil: 'networkidle0' });
    const text = await page.$eval('main', (e) => e.textContent ?? '');
    check(
      "a private guide's URL is an HTML 404 page that says why",
      privatePage.status() === 404 &&
        privatePage.headers()['content-type']?.startsWith('text/html') &&
        text.includes('does not exist or is not public'),
      `${privatePage.status()} ${text.slice(0, 200)}`,
    );
    check('the 404 page has the site header', (await page.$('header a.site[href="/"]')) !== null);
    await shoot('5-private-guide-404');

    // The only error the 404 page may cause is its own status.
    const others = pageErrors.filter((error) => !error.includes('status of 404'));
    check('no page errors on the 404 page', others.length === 0, others.join('\n'));
    process.stdout.write(`screenshots: ${shots}\n`);
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

await runBounded(run, counts, RUN_LIMIT_MS);
