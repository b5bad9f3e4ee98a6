// The measured workloads: paths requested round-robin by autocannon, and a verify(body, path) that
// checks the service's answer has the seeded shape (the parity check then compares it with the baseline).
import { ROOTS, categoryTitle, detailSample, searchTerms } from './seed.mjs';
import { IMAGES, LINES, STEPS, guideSample } from './seed-guides.mjs';

const IMAGE_KEYS = [
  'id',
  'guid',
  'mini',
  'thumbnail',
  '140x105',
  '200x150',
  'standard',
  '440x330',
  'medium',
  'large',
  'huge',
  'original',
];

function countNodes(tree) {
  let n = 0;
  const stack = [tree];
  while (stack.length) {
    const node = stack.pop();
    for (const child of Object.values(node ?? {})) {
      n += 1;
      if (child) stack.push(child);
    }
  }
  return n;
}

function assertImage(image, where) {
  const keys = Object.keys(image ?? {});
  if (keys.length !== IMAGE_KEYS.length || IMAGE_KEYS.some((k) => !keys.includes(k)))
    throw new Error(`${where}: not an image object with ${IMAGE_KEYS.length} keys: ${JSON.stringify(image)}`);
}

/** A page of guide summaries: `count` items, guideids first..first+count-1 (every seeded guide is public). */
function verifyList(body, first, count) {
  if (!Array.isArray(body) || body.length !== count)
    throw new Error(`expected ${count} summaries, got ${body?.length}`);
  body.forEach((g, i) => {
    if (g.guideid !== first + i) throw new Error(`item ${i} is guide ${g.guideid}, expected ${first + i}`);
    if (g.dataType !== 'guide' || !g.title || !g.url || !g.summary) throw new Error(`item ${i} is not a summary`);
    assertImage(g.image, `guide ${g.guideid} image`);
  });
  return `${body.length} summaries, guides ${first}..${first + count - 1}`;
}

export function buildWorkloads(options) {
  const categoryPaths = detailSample(options.categories).map(
    (i) => `/api/2.0/wikis/CATEGORY/${encodeURIComponent(categoryTitle(i).replace(/ /g, '_'))}`,
  );
  const terms = searchTerms(options.users);
  const guideIds = options.guides ? guideSample(options.guides) : [];
  const listSize = Math.min(200, options.guides);
  const offset = Math.max(0, Math.min(Math.floor(options.guides * 0.9), options.guides - 20));
  const offsetSize = Math.min(20, options.guides - offset);
  const all = [
    {
      name: 'category-hierarchy',
      limit: true,
      title: `GET /wikis/CATEGORY?display=hierarchy (${options.categories} nodes)`,
      paths: ['/api/2.0/wikis/CATEGORY?display=hierarchy'],
      verify: (body) => {
        const nodes = countNodes(body.hierarchy);
        if (nodes !== options.categories)
          throw new Error(`hierarchy has ${nodes} nodes, expected ${options.categories}`);
        if (Object.keys(body.display_titles).length !== options.categories)
          throw new Error('display_titles incomplete');
        return `${nodes} nodes, ${Object.keys(body.hierarchy).length} top level (${ROOTS} seeded)`;
      },
    },
    {
      name: 'category-detail',
      limit: true,
      title: `GET /wikis/CATEGORY/{title} (${categoryPaths.length} categories with parent and children)`,
      paths: categoryPaths,
      verify: (body) => {
        if (!body.children?.length || !body.ancestors?.length) throw new Error('detail without children or ancestors');
        return `${body.title}: ${body.ancestors.length} ancestor(s), ${body.children.length} children, ${body.guides.length} guide(s)`;
      },
    },
    {
      name: 'user-search',
      limit: true,
      title: `GET /users/search/{term} (${terms.length} terms)`,
      paths: terms.map((t) => `/api/2.0/users/search/${encodeURIComponent(t)}`),
      verify: (body) => {
        if (!body.results?.length) throw new Error(`no results for ${body.search}`);
        return `"${body.search}": ${body.totalResults} matches, ${body.results.length} shown`;
      },
    },
    {
      name: 'guide-detail',
      limit: true,
      title: `GET /guides/{guideid} (${guideIds.length} guides, ${STEPS} steps × ${LINES} lines × ${IMAGES} images)`,
      paths: guideIds.map((id) => `/api/2.0/guides/${id}`),
      verify: (body, path) => {
        const id = Number(path.split('/').pop());
        if (body.guideid !== id) throw new Error(`answered guide ${body.guideid} for ${path}`);
        if (body.steps?.length !== STEPS)
          throw new Error(`guide ${id} has ${body.steps?.length} steps, expected ${STEPS}`);
        for (const step of body.steps) {
          if (step.lines.length !== LINES || step.media.data.length !== IMAGES)
            throw new Error(`step ${step.stepid}: ${step.lines.length} lines, ${step.media.data.length} images`);
          if (step.lines.some((l) => !l.text_rendered.startsWith('<p>')))
            throw new Error(`step ${step.stepid}: unrendered line`);
          step.media.data.forEach((image) => assertImage(image, `step ${step.stepid}`));
        }
        const comments = body.comments.length + body.steps.reduce((n, s) => n + s.comment_count, 0);
        return `guide ${id}: ${STEPS} steps × ${LINES} lines × ${IMAGES} images, ${comments} top-level comment(s)`;
      },
    },
    {
      name: 'guide-list-200',
      limit: true,
      title: `GET /guides?limit=200 (${listSize} summaries)`,
      paths: ['/api/2.0/guides?limit=200'],
      verify: (body) => verifyList(body, 1, listSize),
    },
    {
      name: 'guide-list-offset',
      limit: true,
      title: `GET /guides?limit=20&offset=${offset}`,
      paths: [`/api/2.0/guides?limit=20&offset=${offset}`],
      verify: (body) => verifyList(body, offset + 1, offsetSize),
    },
  ];
  all.push(...wideWorkloads(options));
  return all
    .filter((w) => !options.workloads || options.workloads.includes(w.name))
    .filter((w) => w.paths.length && !(w.name.startsWith('guide-list') && !options.guides));
}

/** A fixed shuffle (the same order every run), so that no two neighbours in the request list are neighbours in the data. */
function shuffled(items) {
  const out = [...items];
  let state = 12345;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * The wide read workloads: --wide documents (2,000 by default) read evenly, as a site's long tail is read, beside
 * the 50-document ones above (whose answers fit any per-instance cache). Each comes twice: alone, and with a steady
 * --create-rate guide creates a second sent to the service beside the reads (`creates`), whichever target is loaded.
 */
function wideWorkloads(options) {
  const wide = options.wide;
  if (!wide) return [];
  const spread = (count, size) => Array.from({ length: Math.min(count, size) }, (_, k) => Math.floor((k * size) / Math.min(count, size)));
  const guideIds = shuffled(spread(wide, options.guides).map((i) => i + 1));
  const categories = shuffled(spread(wide, options.categories));
  const pages = [];
  for (let offset = 0; offset + 20 <= options.guides && pages.length < Math.ceil(wide / 20); offset += 20) pages.push(offset);
  const base = [
    {
      name: 'guide-detail-wide',
      limit: true,
      title: `GET /guides/{guideid} (${guideIds.length} guides read evenly)`,
      paths: guideIds.map((id) => `/api/2.0/guides/${id}`),
      verify: (body, path) => {
        const id = Number(path.split('/').pop());
        if (body.guideid !== id || body.steps?.length !== STEPS) throw new Error(`unexpected answer for ${path}`);
        return `guide ${id}: ${STEPS} steps`;
      },
    },
    {
      name: 'category-detail-wide',
      limit: true,
      title: `GET /wikis/CATEGORY/{title} (${categories.length} categories read evenly)`,
      paths: categories.map((i) => `/api/2.0/wikis/CATEGORY/${encodeURIComponent(categoryTitle(i).replace(/ /g, '_'))}`),
      verify: (body) => {
        if (body.namespace !== 'CATEGORY' || !Array.isArray(body.guides)) throw new Error('not a category detail');
        return `${body.title}: ${body.children.length} children, ${body.guides.length} guide(s)`;
      },
    },
    {
      name: 'guide-list-wide',
      limit: true,
      title: `GET /guides?limit=20&offset={k×20} (${pages.length} pages, ${pages.length * 20} guides read evenly)`,
      paths: shuffled(pages).map((offset) => `/api/2.0/guides?limit=20&offset=${offset}`),
      verify: (body, path) => verifyList(body, Number(/offset=(\d+)/.exec(path)[1]) + 1, 20),
    },
  ]
    .filter((w) => w.paths.length)
    .map((w) => ({ ...w, uncached: true }));
  const withCreates = base.map((w) => ({
    ...w,
    name: `${w.name}-creates`,
    title: `${w.title}, with ${options.createRate} guide creates/s beside`,
    creates: options.createRate,
    // The same paths as the workload alone, whose parity is checked.
    skipParity: true,
  }));
  return options.createRate ? [...base, ...withCreates] : base;
}
