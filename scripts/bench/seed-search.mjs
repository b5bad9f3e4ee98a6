// The search workload's data (issue #20): --wikis INFO wiki pages beside the seeded categories, then the
// search index filled by the service's own rebuild (`npm run search:reindex`'s code, the compiled
// .bench-build/src/modules/search/reindex-cli.js) for every guide and wiki, so the index holds exactly what
// the service's indexer writes.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BUILD_DIR, insertMany, progress } from './lib.mjs';

const NOW = 1_790_000_000;
const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The query of the workload: two words that guide titles, wiki titles and wiki bodies hold in part. */
export const SEARCH_QUERY = 'fan replacement';

// Topics of the wiki pages, one in ten each. One fan page in a hundred is titled "Fan Replacement Guide …"
// and its body is full of both words: ten per 10,000 pages, ranked first with the "… Fan Replacement"
// guides (title matches), so the first page of 20 holds wikis and guides (FTS5's bm25 divides by the
// length of the whole row: these short pages rank above the long guides). The other fan pages ("Fan
// Notes …") and one in seven of the other pages name both words in their body only (ranked after).
const TOPICS = [
  'Fan',
  'Battery Calibration',
  'Screen Protector',
  'Water Damage',
  'Thermal Paste',
  'Charging Port Cleaning',
  'Speaker Grille',
  'Camera Lens',
  'Button Repair',
  'Firmware Update',
];

const pageNumber = (i) => Math.floor(i / TOPICS.length) + 1;
const isFan = (i) => i % TOPICS.length === 0;

export function searchWikiTitle(i) {
  const n = pageNumber(i);
  if (!isFan(i)) return `${TOPICS[i % TOPICS.length]} Notes ${n}`;
  return n % 100 === 0 ? `Fan Replacement Guide ${n}` : `Fan Notes ${n}`;
}

/** The page's subject in its body (fan pages name the fan only where the query should find it). */
const subjectOf = (i) => (isFan(i) ? 'cooling' : TOPICS[i % TOPICS.length].toLowerCase());

function contents(i) {
  const subject = subjectOf(i);
  const n = pageNumber(i);
  const lines = [
    `Notes on '''${subject}''' collected from repairers, page ${i + 1}.`,
    '',
    '== Symptoms ==',
    '',
    `* The device runs ${i % 2 ? 'hot' : 'slow'} after ${1 + (i % 12)} months of use`,
    `* Check the ${subject} before ordering parts`,
  ];
  const timing = 'A fan replacement takes about twenty minutes with a spudger and tweezers.';
  if (isFan(i) && n % 100 === 0)
    lines.push(
      '',
      timing,
      '',
      '== Fan replacement ==',
      '',
      'Remove the old fan, fit the replacement fan, then test the fan: a replacement fan must spin freely.',
    );
  else if (isFan(i)) lines.push('', timing);
  else if (i % 7 === 0) lines.push('', `After a fan replacement, check the ${subject} as well.`);
  return lines.join('\n');
}

/**
 * INFO pages after the wikis already seeded (categories, and the enterprise review pages when those run too),
 * authored by user 1, patrolled, source language en.
 */
export async function seedSearchWikis(db, { wikis }) {
  if (!wikis) return;
  const [last] = await db.query(
    'SELECT (SELECT COALESCE(MAX(wikiid), 0) FROM wikis) AS wikiid, (SELECT COALESCE(MAX(revisionid), 0) FROM wiki_revisions) AS revisionid',
  );
  const [firstWikiid, firstRevisionid] = [Number(last.wikiid) + 1, Number(last.revisionid) + 1];
  const rows = { wikis: [], wiki_revisions: [], wiki_languages: [] };
  for (let i = 0; i < wikis; i++) {
    const wikiid = firstWikiid + i;
    const revisionid = firstRevisionid + i;
    const title = searchWikiTitle(i);
    const date = NOW - (wikis - i) * 7;
    rows.wikis.push([wikiid, 'INFO', title, sha256(title.toLowerCase()), 'en', null, 1, 0, date, date]);
    rows.wiki_revisions.push([
      revisionid,
      wikiid,
      'en',
      1,
      date,
      1,
      0,
      title,
      `What repairers know about ${subjectOf(i)}.`,
      contents(i),
      null,
      '',
      '{}',
    ]);
    rows.wiki_languages.push([wikiid, 'en', revisionid, revisionid, null]);
  }
  const cols = {
    wikis: ['wikiid', 'namespace', 'title', 'title_hash', 'langid', 'parent_wikiid', 'authorid', 'deleted', 'created_date', 'modified_date'],
    wiki_revisions: ['revisionid', 'wikiid', 'langid', 'userid', 'date', 'patrolled', 'deleted', 'display_title', 'summary', 'contents', 'imageid', 'flags', 'data'],
    wiki_languages: ['wikiid', 'langid', 'revisionid', 'head_revisionid', 'source_revisionid'],
  }; // prettier-ignore
  const bar = progress('wiki pages', wikis * 3);
  let done = 0;
  for (const table of ['wikis', 'wiki_revisions', 'wiki_languages']) {
    const before = done;
    await insertMany(db, table, cols[table], rows[table], { chunk: 500, onProgress: (n) => bar.update(before + n) });
    done += wikis;
  }
  bar.done();
}

/** Runs the service's index rebuild on the seeded database; returns its summary line and seconds. */
export function fillSearchIndex(env) {
  const t = Date.now();
  const result = spawnSync(process.execPath, [join(BUILD_DIR, 'src', 'modules', 'search', 'reindex-cli.js')], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0)
    throw new Error(`search:reindex failed (${result.status}): ${(result.stderr || result.stdout).slice(-2000)}`);
  // The CLI's own log lines (warnings at shutdown) share stdout with its summary line.
  const line = result.stdout.split('\n').find((l) => l.startsWith('search index rebuilt')) ?? result.stdout.trim();
  return { line, seconds: (Date.now() - t) / 1000 };
}
