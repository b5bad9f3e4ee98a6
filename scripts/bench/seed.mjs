// Bulk seed of the benchmark data set (docs/benchmark.md) with raw multi-row INSERTs, into a schema the
// service's own migrations created: users, the category tree, then guides (seed-guides.mjs).
import { createHash } from 'node:crypto';
import { insertMany, progress } from './lib.mjs';
import { seedGuides } from './seed-guides.mjs';

const NOW = 1_790_000_000;
const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');

const FIRST = ['Alex', 'Sam', 'Maria', 'Chen', 'Priya', 'Jonas', 'Fatima', 'Luis', 'Olga', 'Kenji', 'Ada', 'Noor'];
const LAST = ['Smith', 'Garcia', 'Müller', 'Nguyen', 'Okafor', 'Rossi', 'Kowalski', 'Tanaka', 'Silva', 'Dubois'];

/** userid i+1: a display name from the lists above, unique_username benchuser{i+1}. */
export function userRow(i) {
  const userid = i + 1;
  return [
    userid,
    `benchuser${userid}@bench.example`,
    `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`,
    `benchuser${userid}`,
    null,
    userid === 1 ? 'Admin' : i % 50 === 0 ? 'Moderator' : i % 10 === 0 ? 'Author' : '',
    NOW - (100_000 - i) * 60,
    (i * 37) % 5000,
    1,
    0,
    '',
    'en',
  ];
}
const USER_COLUMNS = [
  'userid',
  'email',
  'username',
  'unique_username',
  'password_hash',
  'privileges',
  'join_date',
  'reputation',
  'enabled',
  'banned',
  'about_raw',
  'langid',
];

/** Tree shape: ROOTS top-level categories, every node has up to FANOUT children, breadth first. */
export const ROOTS = 10;
export const FANOUT = 10;
export const parentIndex = (i) => (i < ROOTS ? null : Math.floor((i - ROOTS) / FANOUT));
export const categoryTitle = (i) => `Device ${i + 1}`;
export const categoryDisplayTitle = (i) => `Device #${i + 1}`;

/** Wiki text with markup but no references (the baseline renders it with an empty resolver). */
export function categoryContents(i) {
  return [
    `The '''${categoryDisplayTitle(i)}''' family: repair guides, parts and troubleshooting.`,
    '',
    '== Identification ==',
    '',
    `Look for the model number ''D-${1000 + i}'' on the back label.`,
    '',
    '* Released in ' + (2000 + (i % 25)),
    '* Screen: ' + (4 + (i % 9)) + ' inches',
    '* Battery: ' + (1500 + (i % 40) * 100) + ' mAh',
    '',
    '== Background ==',
    '',
    'Most failures are the battery, the charging port and the display. Use ``ESD`` precautions.',
  ].join('\n');
}

export async function seed(db, { users, categories, guides }) {
  // Users: 1 is the author of every wiki.
  const userRows = Array.from({ length: Math.max(users, 1) }, (_, i) => userRow(i));
  const pu = progress('users', userRows.length);
  await insertMany(db, 'users', USER_COLUMNS, userRows, { onProgress: pu.update });
  pu.done();

  const wikis = [];
  const revisions = [];
  const languages = [];
  for (let i = 0; i < categories; i++) {
    const wikiid = i + 1;
    const parent = parentIndex(i);
    const title = categoryTitle(i);
    const date = NOW - (categories - i) * 10;
    wikis.push([wikiid, 'CATEGORY', title, sha256(title.toLowerCase()), 'en', parent === null ? null : parent + 1, 1, 0, date, date]);
    revisions.push([
      wikiid,
      wikiid,
      'en',
      1,
      date,
      1,
      0,
      categoryDisplayTitle(i),
      `Repair information for the ${categoryDisplayTitle(i)}.`,
      categoryContents(i),
      null,
      '',
      JSON.stringify({ info: [{ name: 'Model', value: `D-${1000 + i}` }] }),
    ]);
    languages.push([wikiid, 'en', wikiid, wikiid, null]);
  }
  const total = wikis.length * 3;
  const pc = progress('category tree', total);
  const cols = {
    wikis: [
      'wikiid',
      'namespace',
      'title',
      'title_hash',
      'langid',
      'parent_wikiid',
      'authorid',
      'deleted',
      'created_date',
      'modified_date',
    ],
    wiki_revisions: [
      'revisionid',
      'wikiid',
      'langid',
      'userid',
      'date',
      'patrolled',
      'deleted',
      'display_title',
      'summary',
      'contents',
      'imageid',
      'flags',
      'data',
    ],
    wiki_languages: ['wikiid', 'langid', 'revisionid', 'head_revisionid', 'source_revisionid'],
  };
  // Parents come before children (breadth first), so the self foreign key holds row by row.
  await insertMany(db, 'wikis', cols.wikis, wikis, { onProgress: (n) => pc.update(n) });
  await insertMany(db, 'wiki_revisions', cols.wiki_revisions, revisions, {
    chunk: 500,
    onProgress: (n) => pc.update(wikis.length + n),
  });
  await insertMany(db, 'wiki_languages', cols.wiki_languages, languages, {
    onProgress: (n) => pc.update(wikis.length * 2 + n),
  });
  pc.done();

  if (guides && !categories) throw new Error('guides need categories (--categories > 0)');
  const authorIds = userRows.filter((row) => row[5] !== '').map((row) => row[0]);
  await seedGuides(db, {
    guides,
    categories,
    users: userRows.length,
    authorIds,
    now: NOW,
    categoryTitle,
    categoryDisplayTitle,
  });
}

/** Category indexes that have both a parent and children (the detail workload reads these). */
export function detailSample(categories, count = 50) {
  const candidates = [];
  for (let i = ROOTS; i < categories; i++) if (ROOTS + i * FANOUT < categories) candidates.push(i);
  if (!candidates.length) for (let i = 0; i < categories; i++) candidates.push(i);
  const step = Math.max(1, Math.floor(candidates.length / count));
  return candidates.filter((_, k) => k % step === 0).slice(0, count);
}

/** Search terms: partial unique usernames (many hits), a surname, an exact username. */
export function searchTerms(users) {
  const terms = ['benchuser1', 'benchuser2', 'smith', 'garcia', 'user5', 'Maria'];
  if (users >= 42) terms.push('benchuser42');
  return terms;
}
