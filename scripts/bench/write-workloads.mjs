// The write workloads (issue 8): POST /guides and PATCH /guides/{guideid}?revisionid= for the seeded
// Admin token. Each request is built just before it is sent (autocannon's setupRequest, or send() for
// sequential requests) and its answer checked when it arrives (onResponse): a PATCH always carries the
// guide's current head_revisionid, taken from the previous answer for that guide, so a 409 is a failure.
// The service and the baseline edit disjoint sets of seeded guides, none of those the read workloads read.
import { categoryDisplayTitle, categoryTitle } from './seed.mjs';
import { BENCH_ADMIN_TOKEN, guideSample, hasComments } from './seed-guides.mjs';

export const WRITE_WORKLOADS = ['guide-create', 'guide-patch'];
export const WRITERS_CHECK = 'guide-writers-20';
export const AUTH = { authorization: `api ${BENCH_ADMIN_TOKEN}`, 'content-type': 'application/json' };
const TYPES = ['replacement', 'repair', 'disassembly', 'installation', 'maintenance', 'teardown', 'technique'];
const SUBJECTS = ['Battery', 'Display', 'Charging Port', 'Speaker', 'Fan', 'Hinge', 'Keyboard', 'SSD'];
const NOTES = [
  'Updated the torque values for the bracket screws.',
  'Added a warning about the fragile display cable.',
  'Clarified which pick to use on the adhesive.',
  'Reworded the battery disconnect step.',
];
/** Guides per target cycled by guide-patch: enough that none is requested again while still in flight. */
const PATCH_POOL = 400;

/**
 * Which seeded guides the writes use: blocks of 12 guideids alternate between service and baseline (so
 * both get the same mix of seeded shapes), minus the read workloads' sample; one guide per target for
 * the writers-20 check and one comment-free guide to copy into the two parity twins (write-checks.mjs).
 */
export function planWrites(guides) {
  const sampled = new Set(guideSample(guides));
  let twinSource = guides;
  while (twinSource > 1 && (sampled.has(twinSource) || hasComments(twinSource - 1) || (twinSource - 1) % 4 === 0))
    twinSource -= 1;
  const pools = { service: [], baseline: [] };
  for (let id = 1; id <= guides; id++) {
    if (sampled.has(id) || id === twinSource) continue;
    pools[Math.floor((id - 1) / 12) % 2 === 0 ? 'service' : 'baseline'].push(id);
  }
  if (pools.baseline.length < 60) throw new Error(`write workloads need more guides (have ${guides})`);
  const writers = { service: pools.service.shift(), baseline: pools.baseline.shift() };
  return { twinSource, writers, pools: { service: pools.service, baseline: pools.baseline } };
}

/** The n-th create body: a category of the seeded tree, a type, title, subject, summary and wiki text. */
export function createBody(n, { categories, guides }) {
  const c = (n * 7919) % categories;
  const type = TYPES[n % TYPES.length];
  const subject = type === 'teardown' ? '' : SUBJECTS[n % SUBJECTS.length];
  const device = categoryDisplayTitle(c);
  const label = type.charAt(0).toUpperCase() + type.slice(1);
  const related = ((n * 31) % guides) + 1;
  return {
    category: categoryTitle(c),
    type,
    title: `${device} ${subject} ${label} (part ${n + 1})`.replace(/ {2}/g, ' '),
    subject,
    summary: `Step-by-step ${type} of the ${subject.toLowerCase() || 'internals'} of the ${device} (guide ${n + 1} of a series).`,
    introduction: [
      `This guide covers the '''${subject || 'internals'}''' of the ${device}.`,
      '',
      `Read [guide|${related}] first and keep the ''spudger'' at hand; see the [https://bench.example/esd|ESD notes].`,
    ].join('\n'),
  };
}

/** Per-target state of guide-patch: the pool, each guide's current head, guides with a request in flight. */
class PatchState {
  constructor(ids, heads) {
    this.ids = ids;
    this.heads = heads;
    this.cursor = 0;
    this.busy = new Set();
    this.retired = new Set();
    this.sent = 0;
  }

  take() {
    for (let tries = 0; tries < this.ids.length; tries++) {
      const id = this.ids[this.cursor++ % this.ids.length];
      if (!this.busy.has(id) && !this.retired.has(id)) {
        this.busy.add(id);
        return id;
      }
    }
    throw new Error('guide-patch: every guide of the pool is in flight or retired');
  }
}

const matches = (text, re) => Number(re.exec(text)?.[1]);

export function buildWriteWorkloads(options, plan, heads) {
  const stats = () => ({ service: { conflicts: 0, failures: [] }, baseline: { conflicts: 0, failures: [] } });
  const created = { service: 0, baseline: 0 };
  const patch = {
    service: new PatchState(plan.pools.service.slice(0, PATCH_POOL), heads),
    baseline: new PatchState(plan.pools.baseline.slice(0, PATCH_POOL), heads),
  };
  const fail = (workload, target, message) => {
    const list = workload.stats[target].failures;
    if (list.length < 20) list.push(message);
    else list.more = (list.more ?? 0) + 1;
  };

  const create = {
    name: 'guide-create',
    title: 'POST /guides (Admin token; category, type, title, subject, summary, wiki-text introduction)',
    write: true,
    stats: stats(),
    next(target) {
      const n = created[target]++;
      const body = createBody(n, options);
      return {
        method: 'POST',
        path: '/api/2.0/guides',
        headers: AUTH,
        body: JSON.stringify(body),
        check: (status, text) => {
          if (status !== 201) return fail(create, target, `POST #${n}: ${status} ${text.slice(0, 200)}`);
          if (
            !text.includes(`"title":${JSON.stringify(body.title)}`) ||
            !text.includes('"flags":["GUIDE_IN_PROGRESS"]')
          )
            fail(create, target, `POST #${n}: the answer is not the created guide: ${text.slice(0, 200)}`);
        },
      };
    },
  };

  const edit = {
    name: 'guide-patch',
    title: `PATCH /guides/{guideid}?revisionid= (Admin token; new summary; ${PATCH_POOL} guides per target, 20 steps each)`,
    write: true,
    stats: stats(),
    /** Guides with a request in flight when a run ended: their head is unknown, so they are not used again. */
    settle(target) {
      for (const id of patch[target].busy) patch[target].retired.add(id);
      patch[target].busy.clear();
    },
    next(target) {
      const state = patch[target];
      const guideid = state.take();
      const n = ++state.sent;
      const summary = `${NOTES[n % NOTES.length]} Edit ${n} by the bench on ${target}.`;
      return {
        method: 'PATCH',
        path: `/api/2.0/guides/${guideid}?revisionid=${state.heads.get(guideid)}`,
        headers: AUTH,
        body: JSON.stringify({ summary }),
        check: (status, text) => {
          state.busy.delete(guideid);
          const head = matches(text, /"head_revisionid":(\d+)/);
          if (status === 409) {
            edit.stats[target].conflicts += 1;
            if (head) state.heads.set(guideid, head);
            return undefined;
          }
          if (status !== 200 || !head) return fail(edit, target, `PATCH ${guideid}: ${status} ${text.slice(0, 200)}`);
          if (matches(text, /"guideid":(\d+)/) !== guideid || !text.includes(`"summary":${JSON.stringify(summary)}`))
            fail(edit, target, `PATCH ${guideid}: the answer is not the edited guide: ${text.slice(0, 200)}`);
          if (head <= state.heads.get(guideid)) fail(edit, target, `PATCH ${guideid}: head_revisionid did not move`);
          state.heads.set(guideid, head);
        },
      };
    },
  };

  for (const workload of [create, edit]) {
    /** autocannon: one request object whose setupRequest builds every request of a connection. */
    workload.autocannon = (target) => [
      {
        setupRequest: (request, context) => {
          const spec = workload.next(target);
          context.check = spec.check;
          // autocannon adds Content-Length to the headers object it is given: a copy per request.
          return { ...request, method: spec.method, path: spec.path, headers: { ...spec.headers }, body: spec.body };
        },
        onResponse: (status, body, context) => context.check(status, body),
      },
    ];
    workload.send = async (target) => {
      const spec = workload.next(target.name);
      const res = await fetch(target.base + spec.path, { method: spec.method, headers: spec.headers, body: spec.body });
      spec.check(res.status, await res.text());
      return res;
    };
  }
  return [create, edit].filter((w) => !options.workloads || options.workloads.includes(w.name));
}

/** Patch pools' guideid -> head_revisionid, from the database. */
export async function loadHeads(db, plan) {
  const ids = [...plan.pools.service.slice(0, PATCH_POOL), ...plan.pools.baseline.slice(0, PATCH_POOL)];
  const heads = new Map();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = await db.query(
      `SELECT guideid, head_revisionid FROM guides WHERE guideid IN (${chunk.map(() => '?').join(', ')})`,
      chunk,
    );
    for (const row of rows) heads.set(Number(row.guideid), Number(row.head_revisionid));
  }
  return heads;
}

/** The service's pool guides get their stored document, as every revision the service writes has one. */
export async function primeServicePool(target, plan, concurrency = 4) {
  const ids = plan.pools.service.slice(0, PATCH_POOL);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      const res = await fetch(`${target.base}/api/2.0/guides/${id}`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`priming guide ${id}: ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return ids.length;
}
