// Parity of the write answers: the service and the baseline get equivalent requests (the same create
// bodies; the same edits of two "twins", identical copies of one seeded guide, one per target) and their
// answers must be deep-equal once the fields that name a different guide, revision or moment are checked
// and replaced by placeholders (NORMALISED lists them; normalise() checks each one's value before
// replacing it). Also compared: error answers (401, 404, 409, 422) and what each side reads of the
// other's writes. Negative controls prove the comparison can fail.
import { isDeepStrictEqual } from 'node:util';
import { firstDifference } from './lib.mjs';
import { createTwins } from './write-twins.mjs';
import { AUTH, createBody } from './write-workloads.mjs';

const slugUrl = (publicUrl, guideid, title) =>
  `${publicUrl}/Guide/${encodeURIComponent(title.replace(/ /g, '_'))}/${guideid}`;

/** Fields replaced before comparing (each checked first: see normalise). */
export const NORMALISED = {
  create: ['guideid', 'url', 'revisionid', 'head_revisionid', 'modified_date', 'created_date'],
  edit: [
    'guideid',
    'url',
    'revisionid',
    'head_revisionid',
    'modified_date',
    'steps[].guideid',
    'steps[].stepid',
    'steps[].revisionid',
  ],
};

/**
 * Checks the fields that legitimately differ and replaces them: guideid (expect.guideid when known), url
 * (PUBLIC_URL/Guide/<title>/<guideid>), revisionid = head_revisionid (expect.head exactly, or above
 * expect.after), modified_date and created_date within expect.dates, steps' guideid, stepid and revisionid
 * those of expect.steps. Throws when one of them is wrong.
 */
export function normalise(body, expect, publicUrl) {
  const problem = (message) => {
    throw new Error(`write answer of guide ${body?.guideid}: ${message}`);
  };
  if (!body || typeof body !== 'object') problem('not a JSON object');
  const { guideid } = body;
  if (!Number.isInteger(guideid) || (expect.guideid !== undefined && guideid !== expect.guideid))
    problem(`guideid ${guideid}, expected ${expect.guideid ?? 'an integer'}`);
  if (body.url !== slugUrl(publicUrl, guideid, String(body.title))) problem(`url ${body.url}`);
  if (body.revisionid !== body.head_revisionid) problem(`revisionid ${body.revisionid} ≠ head ${body.head_revisionid}`);
  if (expect.head !== undefined ? body.revisionid !== expect.head : !(body.revisionid > (expect.after ?? 0)))
    problem(`revisionid ${body.revisionid}, expected ${expect.head ?? `> ${expect.after ?? 0}`}`);
  const [lo, hi] = expect.dates;
  for (const field of ['modified_date', ...(expect.created ? ['created_date'] : [])])
    if (!(body[field] >= lo && body[field] <= hi)) problem(`${field} ${body[field]} not in [${lo}, ${hi}]`);
  const steps = expect.steps ?? [];
  if (!Array.isArray(body.steps) || body.steps.length !== steps.length) problem(`${body.steps?.length} steps`);
  const out = { ...body, guideid: '<guideid>', url: '<url>', revisionid: '<revision>', head_revisionid: '<revision>' };
  out.modified_date = '<date>';
  if (expect.created) out.created_date = '<date>';
  out.steps = body.steps.map((step, i) => {
    if (step.guideid !== guideid || step.stepid !== steps[i].stepid || step.revisionid !== steps[i].revisionid)
      problem(`step ${i}: ${step.guideid}/${step.stepid}/${step.revisionid}, expected ${JSON.stringify(steps[i])}`);
    return { ...step, guideid: '<guideid>', stepid: `<step ${i + 1}>`, revisionid: `<step revision ${i + 1}>` };
  });
  return out;
}

const now = () => Math.floor(Date.now() / 1000);

async function call(target, method, path, { headers = AUTH, body } = {}) {
  const res = await fetch(target.base + path, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, body: json };
}

function same(label, a, b) {
  if (!isDeepStrictEqual(a, b)) throw new Error(`WRITE PARITY FAILURE (${label}): differ at ${firstDifference(a, b)}`);
}

/** Sends one request to both targets (path may depend on the target) and expects `status` from both. */
async function both(targets, label, status, method, path, options) {
  const at = (t) => (typeof path === 'function' ? path(t.name) : path);
  // One after the other: on SQLite a write of one process can make the other's open transaction fail
  // (SQLITE_BUSY_SNAPSHOT); in production the service is the only writer of its database file.
  const a = await call(targets.service, method, at(targets.service), options);
  const b = await call(targets.baseline, method, at(targets.baseline), options);
  for (const [name, r] of [
    ['service', a],
    ['baseline', b],
  ])
    if (r.status !== status)
      throw new Error(
        `${label}: ${name} answered ${r.status}, expected ${status}: ${JSON.stringify(r.body).slice(0, 300)}`,
      );
  return [a.body, b.body];
}

/** The parity checks for writes; returns what the report says about them. */
export async function checkWriteParity({ targets, db, plan, options, publicUrl, log }) {
  const twins = await createTwins(db, plan.twinSource);
  const notes = [];
  // ---- create: the same bodies, one with a title, one with the generated title, one naming its category in
  // another case (stored in the category's spelling) ----
  const lowerCategory = (body) => ({ ...body, category: body.category.toLowerCase() });
  const bodies = [
    createBody(1_000_000, options),
    { ...createBody(1_000_001, options), title: undefined },
    lowerCategory({ ...createBody(1_000_002, options), title: undefined }),
  ];
  const created = {};
  for (const [k, body] of bodies.entries()) {
    const since = now();
    const [a, b] = await both(targets, `create ${k + 1}`, 201, 'POST', '/api/2.0/guides', { body });
    const expect = { dates: [since, now()], created: true };
    same(`POST /guides body ${k + 1}`, normalise(a, expect, publicUrl), normalise(b, expect, publicUrl));
    if (a.guideid === b.guideid) throw new Error('service and baseline created the same guideid');
    created.service = a;
    created.baseline = b;
  }
  notes.push(`${bodies.length} creates`);

  // ---- edits of the twins: a change with wiki text, a second change, then one that changes nothing ----
  const edits = [
    {
      summary: 'Twin edit: the battery is glued down.',
      introduction: "Heat the '''rear''' panel first; see [guide|2].",
    },
    { subject: ' Battery ', conclusion: 'Test the device before closing it.' },
    { subject: 'Battery', summary: 'Twin edit: the battery is glued down.' },
  ];
  let last;
  for (const [k, body] of edits.entries()) {
    const since = now();
    const [a, b] = await both(
      targets,
      `edit ${k + 1}`,
      200,
      'PATCH',
      (t) => `/api/2.0/guides/${twins[t].guideid}?revisionid=${twins[t].head}`,
      { body },
    );
    const unchanged = k === edits.length - 1;
    const expect = (t) => ({
      guideid: twins[t].guideid,
      steps: twins[t].steps,
      ...(unchanged
        ? { head: twins[t].head, dates: [last[t].modified_date, last[t].modified_date] }
        : { after: twins[t].head, dates: [since, now()] }),
    });
    same(
      `PATCH twin, edit ${k + 1}`,
      normalise(a, expect('service'), publicUrl),
      normalise(b, expect('baseline'), publicUrl),
    );
    twins.service.head = a.head_revisionid;
    twins.baseline.head = b.head_revisionid;
    last = { service: a, baseline: b };
  }
  notes.push(
    `${edits.length} edits of twin guides ${twins.service.guideid}/${twins.baseline.guideid} (${twins.service.steps.length} steps; the last changes nothing)`,
  );

  // ---- error answers: same status and, apart from 409's guide, the same body ----
  const twinPath = (query) => (t) => `/api/2.0/guides/${twins[t].guideid}${query}`;
  const post = (label, status, body, headers = AUTH) => [label, status, 'POST', '/api/2.0/guides', { body, headers }];
  const patch = (label, status, path, body, headers = AUTH) => [label, status, 'PATCH', path, { body, headers }];
  const valid = bodies[0];
  const errors = [
    post('no token', 401, valid, { 'content-type': 'application/json' }),
    post('unknown token', 401, valid, { ...AUTH, authorization: 'api nope' }),
    patch('not an api token', 401, twinPath('?revisionid=1'), {}, { ...AUTH, authorization: 'Bearer x' }),
    post('unknown category', 422, { ...valid, category: 'No Such Device' }),
    post('invalid type', 422, { ...valid, type: 'fixing' }),
    post('missing type', 422, { ...valid, type: undefined }),
    post('summary of 156 characters', 422, { ...valid, summary: 'x'.repeat(156) }),
    post('introduction of 50 lines', 422, { ...valid, introduction: 'a\n'.repeat(49) + 'a' }),
    patch('missing revisionid', 422, twinPath(''), { summary: 'x' }),
    patch('revisionid not a number', 422, twinPath('?revisionid=abc'), { summary: 'x' }),
    patch('summary too long on edit', 422, twinPath('?revisionid=1'), { summary: 'y'.repeat(200) }),
    patch('invalid type on edit', 422, twinPath('?revisionid=1'), { type: 'Repair' }),
    patch('unknown guide', 404, '/api/2.0/guides/2000000000?revisionid=1', { summary: 'x' }),
  ];
  for (const [label, status, method, path, opts] of errors) {
    const [a, b] = await both(targets, label, status, method, path, opts);
    same(label, a, b);
  }
  {
    const [a, b] = await both(targets, 'stale revisionid', 409, 'PATCH', twinPath('?revisionid=1'), {
      body: { summary: 'stale' },
    });
    const expect = (t) => ({
      guideid: twins[t].guideid,
      steps: twins[t].steps,
      head: twins[t].head,
      dates: [last[t].modified_date, last[t].modified_date],
    });
    same('409 body', normalise(a, expect('service'), publicUrl), normalise(b, expect('baseline'), publicUrl));
  }
  notes.push(`${errors.length + 1} error answers (401, 404, 409, 422)`);

  // ---- each side reads what the other wrote ----
  const asAnonymous = (guide) => ({ ...guide, can_edit: false });
  const seen = await call(targets.service, 'GET', `/api/2.0/guides/${created.baseline.guideid}`);
  same('the service reading the guide the baseline created', seen.body, created.baseline);
  same(
    'the service reading the baseline-edited twin',
    (await call(targets.service, 'GET', `/api/2.0/guides/${twins.baseline.guideid}`, { headers: {} })).body,
    asAnonymous(last.baseline),
  );
  same(
    'the baseline reading the service-edited twin',
    (await call(targets.baseline, 'GET', `/api/2.0/guides/${twins.service.guideid}`, { headers: {} })).body,
    asAnonymous(last.service),
  );
  notes.push('3 cross-reads (each side reads the other’s writes)');

  const controls = negativeControls(last, twins, publicUrl);
  notes.push(`${controls} negative controls detected`);
  log(`  write parity: ${notes.join('; ')}`);
  return { notes, twins };
}

/** Deliberate differences the comparison must report; throws when one goes unnoticed. */
function negativeControls(last, twins, publicUrl) {
  const expect = (t) => ({
    guideid: twins[t].guideid,
    steps: twins[t].steps,
    head: twins[t].head,
    dates: [0, Infinity],
  });
  const base = normalise(last.baseline, expect('baseline'), publicUrl);
  same('control pair', normalise(last.service, expect('service'), publicUrl), base);
  const mutations = {
    'summary text': (g) => (g.summary += ' '),
    'a rendered step line': (g) => (g.steps[5].lines[2].text_rendered += '<br>'),
    'an extra key': (g) => (g.extra = null),
    'a missing key': (g) => delete g.patrolled,
    'a number sent as a string': (g) => (g.time_required_min = String(g.time_required_min)),
    'two steps swapped': (g) => ([g.steps[0], g.steps[1]] = [g.steps[1], g.steps[0]]),
    'an image URL': (g) => (g.steps[0].media.data[0].large += '?'),
  };
  for (const [label, mutate] of Object.entries(mutations)) {
    const copy = JSON.parse(JSON.stringify(last.service));
    mutate(copy);
    let detected = false;
    try {
      same(label, normalise(copy, expect('service'), publicUrl), base);
    } catch {
      detected = true;
    }
    if (!detected) throw new Error(`write parity negative control not detected: ${label}`);
  }
  const invariants = {
    'a url of another guide': (g) => (g.url = g.url.replace(/\d+$/, String(g.guideid + 1))),
    'a step of the other twin': (g) => (g.steps[0].stepid = twins.baseline.steps[0].stepid),
    'revisionid not the head': (g) => (g.revisionid -= 1),
    'a modification date outside the request': (g) => (g.modified_date = 0),
  };
  for (const [label, mutate] of Object.entries(invariants)) {
    const copy = JSON.parse(JSON.stringify(last.service));
    mutate(copy);
    const expectation = { ...expect('service'), dates: [1, Infinity] };
    let thrown = false;
    try {
      normalise(copy, expectation, publicUrl);
    } catch {
      thrown = true;
    }
    if (!thrown) throw new Error(`write parity negative control not detected: ${label}`);
  }
  return Object.keys(mutations).length + Object.keys(invariants).length;
}
