// Bulk seed of the benchmark's guides (docs/benchmark.md): every guide public and patrolled, source language en, one
// revision, STEPS steps × LINES lines × IMAGES images from a shared pool of image rows (no files on disk: responses
// only carry URLs). guide_revisions.document stays NULL: the service renders and stores it on first read. Also fills
// what other modules keep about guides (wiki_category_guides, as the guide.changed listener would), some comments
// (guide, reply, step) and one API token of the Admin (userid 1) for write workloads. Not filled: media_usage (the pool
// images sit in the Admin's media manager, so the media sweeper keeps them and the Admin may attach them) and
// reputation_awards (users.reputation keeps seed.mjs's values).
import { createHash } from 'node:crypto';
import { insertMany, progress } from './lib.mjs';

export const STEPS = 20;
export const LINES = 3;
export const IMAGES = 2;
export const IMAGE_POOL = 2000;
/** Plain token of userid 1 (Admin); only its sha256 is stored, as the auth module does. */
export const BENCH_ADMIN_TOKEN = 'rgcs-bench-admin-token-3c9f0e7d51a24b86';
export const BENCH_ADMIN_USERID = 1;

/** 16 letters/digits, stable per imageid (the service's guids are random). */
const imageGuid = (id) =>
  createHash('sha256').update(`bench-image-${id}`).digest('base64url').replace(/[-_]/g, '').slice(0, 16);
const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
const TYPES = ['replacement', 'replacement', 'repair', 'disassembly', 'installation', 'maintenance', 'teardown'];
const DIFFICULTIES = ['Very easy', 'Easy', 'Moderate', 'Difficult', 'Very difficult'];
const SUBJECTS = ['Battery', 'Display', 'Charging Port', 'Rear Camera', 'Speaker', 'Logic Board', 'Back Cover', 'Fan'];
const TOOLS = ['spudger', 'opening pick', 'suction handle', 'Phillips #000 screwdriver', 'tweezers', 'heat gun'];
const PARTS = ['battery connector', 'display cable', 'antenna bracket', 'midframe', 'ribbon cable', 'heat sink'];
const STEP_TITLES = [
  'Power off the device',
  'Remove the back cover',
  'Disconnect the battery',
  'Remove the screws',
  'Lift the bracket',
  'Release the connector',
  'Separate the assembly',
  '',
  'Clean the adhesive',
  'Reassembly',
];
const TOP_BULLETS = ['black', 'black', 'red', 'orange'];
const NESTED_BULLETS = ['black', 'blue', 'green', 'violet'];
const NOTE_BULLETS = ['black', 'icon_note', 'icon_caution', 'icon_reminder'];
const typeLabel = (type) => type.charAt(0).toUpperCase() + type.slice(1);

/** guideid -> 0-based guide index is guideid - 1; guide g lives in category g % categories. */
export function guideTitle(g, categoryTitle, categories) {
  const type = TYPES[g % TYPES.length];
  const subject = type === 'teardown' ? '' : SUBJECTS[Math.floor(g / TYPES.length) % SUBJECTS.length];
  return { type, subject, title: [categoryTitle(g % categories), subject, typeLabel(type)].filter(Boolean).join(' ') };
}

/** A guide another one links to with [guide|id] (always an existing public guide). */
const related = (g, guides, k) => ((g + 1 + k * 97) % guides) + 1;
const imageOf = (g, s, k) => ((g * (STEPS * IMAGES + 1) + s * IMAGES + k) % IMAGE_POOL) + 1;

function stepLines(g, s, guides) {
  const h = g * 31 + s * 7;
  const tool = TOOLS[h % TOOLS.length];
  const part = PARTS[(h >> 2) % PARTS.length];
  const mm = (1.2 + (h % 9) * 0.4).toFixed(1);
  const first =
    s % 4 === 0
      ? `Use the '''${tool}''' to pry the ${part} straight up from its socket on the logic board.`
      : `Remove the ${2 + (h % 4)} ${mm} mm ''Phillips'' screws securing the ${part}.`;
  const second =
    s % 5 === 1
      ? `If the ${part} is stuck, see [guide|${related(g, guides, s)}] before you continue.`
      : `Work slowly around the edge; the \`\`${part}\`\` is ''fragile'' and easy to tear.`;
  const third =
    s % 3 === 0
      ? `Avoid [https://bench.example/esd|static discharge]: touch a grounded surface before handling the board.`
      : `Keep track of each screw and make sure it goes back exactly where it came from.`;
  return [
    { text: first, bullet: TOP_BULLETS[h % TOP_BULLETS.length], level: 0 },
    { text: second, bullet: NESTED_BULLETS[(h >> 1) % NESTED_BULLETS.length], level: 1 },
    { text: third, bullet: NOTE_BULLETS[(h >> 3) % NOTE_BULLETS.length], level: 0 },
  ].slice(0, LINES);
}

function guideData(g, { guides, categories, categoryTitle, categoryDisplayTitle }) {
  const { type, subject, title } = guideTitle(g, categoryTitle, categories);
  const device = categoryDisplayTitle(g % categories);
  const min = 300 * (1 + (g % 6));
  return {
    category: categoryTitle(g % categories),
    type,
    subject,
    title,
    summary:
      type === 'teardown'
        ? `A look inside the ${device}.`
        : `Replace or repair the ${subject.toLowerCase()} of a ${device}.`,
    introduction: [
      `Use this guide to work on the '''${subject || 'internals'}''' of your ${device}.`,
      '',
      `Before you start, discharge the battery below 25% and read [guide|${related(g, guides, 0)}]. ` +
        `A ''damaged'' battery can swell: take [https://bench.example/safety|safety precautions].`,
    ].join('\n'),
    conclusion: g % 4 === 0 ? '' : 'To reassemble your device, follow these instructions in reverse order.',
    difficulty: DIFFICULTIES[g % DIFFICULTIES.length],
    time_required_min: min,
    time_required_max: min * 2,
    imageid: imageOf(g, STEPS, 0),
    flags: g % 50 === 0 ? ['GUIDE_STARRED'] : [],
    prerequisites: [],
    documents: [],
    featured_documentid: null,
    parts: [],
    tools: [],
    public: true,
    steps: Array.from({ length: STEPS }, (_, s) => ({ stepid: g * STEPS + s + 1, revisionid: g * STEPS + s + 1 })),
  };
}

/** Column lists of the rows the guide seed inserts, by table. */
export const COLUMNS = {
  images: [
    'imageid',
    'guid',
    'owner_userid',
    'in_manager',
    'srcid',
    'filename',
    'mime',
    'original_ext',
    'variant_ext',
    'width',
    'height',
    'ratio',
    'file_size',
    'exif',
    'markup',
    'created_date',
  ],
  auth_tokens: ['tokenid', 'userid', 'token_hash', 'app_id', 'created_date', 'last_used_date', 'revoked_date'],
  guides: [
    'guideid',
    'authorid',
    'langid',
    'category',
    'title',
    'type',
    'public',
    'deleted',
    'flags',
    'revisionid',
    'head_revisionid',
    'created_date',
    'modified_date',
    'published_date',
  ],
  guide_revisions: ['revisionid', 'guideid', 'langid', 'userid', 'date', 'patrolled', 'data', 'document', 'render_key'],
  guide_steps: ['stepid', 'guideid', 'revisionid', 'deleted'],
  guide_step_revisions: ['revisionid', 'stepid', 'guideid', 'userid', 'date', 'data'],
  wiki_category_guides: ['guideid', 'category', 'category_hash', 'title'],
  comments: [
    'commentid',
    'context',
    'contextid',
    'parentid',
    'userid',
    'title',
    'text_raw',
    'status',
    'langid',
    'created_date',
    'modified_date',
    'replied_date',
  ],
};

// Parents before children: guides, then revisions and steps, then step revisions.
const BATCH_TABLES = [
  'guides',
  'guide_revisions',
  'guide_steps',
  'guide_step_revisions',
  'wiki_category_guides',
  'comments',
];

/** Guides with comments: every third (a guide comment, a reply to it and a comment on one step). */
export const hasComments = (g) => g % 3 === 0;

/**
 * @param authorIds userids allowed to author guides (Author+), cycled through.
 * @param users number of seeded users (commenters are any of them).
 */
export async function seedGuides(
  db,
  { guides, categories, users, authorIds, now, categoryTitle, categoryDisplayTitle },
) {
  const pool = Array.from({ length: IMAGE_POOL }, (_, i) => [
    i + 1,
    imageGuid(i + 1),
    BENCH_ADMIN_USERID,
    1,
    null,
    `step-${i + 1}.jpg`,
    'image/jpeg',
    'jpg',
    'jpg',
    1600,
    1200,
    'FOUR_THREE',
    240_000 + i,
    '{}',
    null,
    now - 86_400,
  ]);
  await insertMany(db, 'images', COLUMNS.images, pool);
  await insertMany(db, 'auth_tokens', COLUMNS.auth_tokens, [
    [1, BENCH_ADMIN_USERID, sha256(BENCH_ADMIN_TOKEN), 'bench', now, null, null],
  ]);
  if (!guides) return;

  const ctx = { guides, categories, categoryTitle, categoryDisplayTitle };
  const commented = Array.from({ length: guides }, (_, g) => g).filter(hasComments).length;
  const total = guides * (4 + 2 * STEPS) + commented * 3;
  const bar = progress('guides', total);
  let done = 0;
  let commentid = 0;
  const BATCH = 500;
  for (let start = 0; start < guides; start += BATCH) {
    const rows = Object.fromEntries(BATCH_TABLES.map((table) => [table, []]));
    for (let g = start; g < Math.min(guides, start + BATCH); g++) {
      const guideid = g + 1;
      const authorid = authorIds[g % authorIds.length];
      const date = now - (guides - g) * 60;
      const data = guideData(g, ctx);
      rows.guides.push([
        guideid,
        authorid,
        'en',
        data.category,
        data.title,
        data.type,
        1,
        0,
        data.flags.join(','),
        guideid,
        guideid,
        date - 3600,
        date,
        date - 1800,
      ]);
      rows.guide_revisions.push([guideid, guideid, 'en', authorid, date, 1, JSON.stringify(data), null, '']);
      rows.wiki_category_guides.push([guideid, data.category, sha256(data.category.toLowerCase()), data.title]);
      for (let s = 0; s < STEPS; s++) {
        const stepid = g * STEPS + s + 1;
        const step = {
          title: STEP_TITLES[(g + s) % STEP_TITLES.length],
          lines: stepLines(g, s, guides),
          imageids: Array.from({ length: IMAGES }, (_, k) => imageOf(g, s, k)),
        };
        rows.guide_steps.push([stepid, guideid, stepid, 0]);
        rows.guide_step_revisions.push([stepid, stepid, guideid, authorid, date - 600, JSON.stringify(step)]);
      }
      if (hasComments(g)) {
        const [a, b] = [((g * 7) % users) + 1, ((g * 13 + 5) % users) + 1];
        const top = ++commentid;
        rows.comments.push(
          [
            top,
            'guide',
            guideid,
            null,
            a,
            data.title,
            `Worked on my ''${data.category}''. The '''heat''' step matters.`,
            'public',
            'en',
            date + 100,
            0,
            date + 200,
          ],
          [
            ++commentid,
            'guide',
            guideid,
            top,
            b,
            data.title,
            'Same here, thanks for the [https://bench.example/tip|tip]!',
            'public',
            null,
            date + 200,
            0,
            0,
          ],
          [
            ++commentid,
            'step',
            g * STEPS + (g % STEPS) + 1,
            null,
            b,
            data.title,
            'Which screwdriver bit fits these screws?',
            'public',
            'en',
            date + 300,
            0,
            0,
          ],
        );
      }
    }
    for (const [table, list] of Object.entries(rows)) {
      if (!list.length) continue;
      const before = done;
      await insertMany(db, table, COLUMNS[table], list, { chunk: 500, onProgress: (n) => bar.update(before + n) });
      done += list.length;
    }
  }
  bar.done();
}

/** ~count guides spread over the id range, one third of them with comments. */
export function guideSample(guides, count = 50) {
  const step = Math.max(1, Math.floor(guides / count));
  const ids = [];
  for (let k = 0; k < count && k * step < guides; k++) ids.push(Math.min(guides, k * step + (k % 2) + 1));
  return [...new Set(ids)];
}
