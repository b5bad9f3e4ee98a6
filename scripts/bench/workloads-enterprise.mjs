// The enterprise workloads (issues #15, #16, #18) on the data set of seed-enterprise.mjs. Reads: paths with
// a caller's API token, parity-checked like the core reads. Writes (approval-sign, worklog-stepdata): each
// request is built just before it is sent (autocannon setupRequest) and its answer checked on arrival; the
// service and the baseline write disjoint sets of seeded rows. The export and the tick are measured apart
// (enterprise-stage.mjs): they are not request loads.
import {
  APPROVER,
  APPROVER_PASSWORD,
  APPROVERS,
  FIELDS_PER_FORM,
  FORMS_PER_GUIDE,
  REVIEWER,
  WL_GUIDES,
  WL_WORKERS,
  WL_WRITE_GUIDES,
  WORKER,
  approverEligible,
  enterpriseSizes,
  fieldRevisionid,
} from './seed-enterprise.mjs';

export const ENTERPRISE_READS = ['releases-list', 'approvals-eligible', 'worklog-list', 'review-documents'];
export const ENTERPRISE_WRITES = ['approval-sign', 'worklog-stepdata'];
export const ENTERPRISE_SPECIAL = ['worklog-export', 'review-tick'];
export const ENTERPRISE_WORKLOADS = [...ENTERPRISE_READS, ...ENTERPRISE_WRITES, ...ENTERPRISE_SPECIAL];
/** Statement and ratio targets of the issues (null: none). */
export const TARGETS = {
  'releases-list': { sql: 4, ratio: 0.6, p99: 2 },
  'approvals-eligible': { sql: 4, ratio: 0.6, p99: 2 },
  'approval-sign': { sql: null, ratio: 0.6, p99: 2 },
  'worklog-list': { sql: 3, ratio: 0.6, p99: null },
  'worklog-stepdata': { sql: null, ratio: 0.6, p99: null },
  'review-documents': { sql: 3, ratio: 0.6, p99: null },
};

export const authOf = (token) => ({ authorization: `api ${token}` });
const JSON_AUTH = (token) => ({ ...authOf(token), 'content-type': 'application/json' });

export const selected = (options, name) => !options.workloads || options.workloads.includes(name);
export const enterpriseSelected = (options) =>
  options.seedAll || ENTERPRISE_WORKLOADS.some((name) => selected(options, name));

export function buildEnterpriseReads(options) {
  const sizes = enterpriseSizes(options);
  const released = Math.min(200, sizes.releases - sizes.approvals);
  const all = [
    {
      name: 'releases-list',
      title: `GET /guides/releases?limit=200 (a plain user; ${sizes.releases} releases, ${sizes.approvals} of them pending)`,
      headers: authOf(APPROVER.token),
      paths: ['/api/2.0/guides/releases?limit=200'],
      verify: (body) => {
        const list = body.releases;
        if (!Array.isArray(list) || list.length !== released) throw new Error(`expected ${released} releases, got ${list?.length}`);
        if (list.some((r) => r.status !== 'released' || !r.user?.userid)) throw new Error('a release is not released or has no user');
        return `${list.length} released releases, ${list[0].releaseid}..${list.at(-1).releaseid}`;
      },
    },
    {
      name: 'approvals-eligible',
      title: `GET /approvals/requests?eligibility=eligible (a user in 20 teams; ${sizes.approvals} requests, 200 processes)`,
      headers: authOf(APPROVER.token),
      paths: ['/api/2.0/approvals/requests?eligibility=eligible'],
      verify: (body) => {
        const expected = [];
        for (let a = 1; a <= sizes.approvals && expected.length < 20; a++) if (approverEligible(a)) expected.push(a);
        const ids = body.map((r) => r.approval_requestid);
        if (ids.join() !== expected.join()) throw new Error(`expected requests ${expected.join()}, got ${ids.join()}`);
        if (body.some((r) => !r.eligible || r.stages.length !== 2)) throw new Error('a request is not eligible or lacks stages');
        return `${body.length} eligible requests, ${ids[0]}..${ids.at(-1)}`;
      },
    },
    {
      name: 'worklog-list',
      title: `GET /work_log?guideid=1&limit=200 (the owner; ${sizes.worklog} entries × ${FORMS_PER_GUIDE * FIELDS_PER_FORM} values)`,
      headers: authOf(WORKER.token),
      paths: ['/api/2.0/work_log?guideid=1&limit=200'],
      verify: (body) => {
        const list = body.results;
        const expected = Math.min(200, Math.ceil(sizes.worklog / WL_WORKERS));
        if (!Array.isArray(list) || list.length !== expected) throw new Error(`expected ${expected} entries, got ${list?.length}`);
        if (list.some((e) => e.guideid !== 1 || e.userid !== WORKER.userid || e.work_data.length !== FORMS_PER_GUIDE * FIELDS_PER_FORM))
          throw new Error('an entry is not the worker’s on guide 1 with 20 values');
        return `${list.length} entries × ${list[0].work_data.length} values`;
      },
    },
    {
      name: 'review-documents',
      title: `GET /periodic_review/documents/{userid}?state=overdue (the reviewer; ${sizes.reviews} scheduled documents)`,
      headers: authOf(REVIEWER.token),
      paths: [`/api/2.0/periodic_review/documents/${REVIEWER.userid}?state=overdue`],
      verify: (body) => {
        if (!Array.isArray(body) || !body.length) throw new Error('no overdue documents');
        if (body.some((d) => d.state !== 'overdue' || d.reviewer?.userid !== REVIEWER.userid || !d.title))
          throw new Error('a document is not overdue, not the reviewer’s or has no title');
        return `${body.length} overdue documents, prdid ${body[0].prdid}..${body.at(-1).prdid}`;
      },
    },
  ];
  return all.filter((w) => selected(options, w.name)).filter((w) => {
    if (w.name === 'releases-list' || w.name === 'approvals-eligible') return sizes.approvals > 0;
    if (w.name === 'worklog-list') return sizes.worklog > 0;
    return sizes.reviews > 0;
  });
}

/**
 * Write pools: approval requests the approver may sign (from the highest id down, so the eligible list's
 * first page stays as read) alternate between service and baseline; started entries likewise.
 */
export function planEnterpriseWrites(options) {
  const sizes = enterpriseSizes(options);
  const sign = { service: [], baseline: [] };
  let k = 0;
  for (let a = sizes.approvals; a > 200; a--) if (approverEligible(a)) sign[k++ % 2 ? 'baseline' : 'service'].push(a);
  const entries = { service: [], baseline: [] };
  for (let i = 0; i < sizes.worklogWrites; i++) entries[i % 2 ? 'baseline' : 'service'].push(sizes.worklog + i + 1);
  return { sign, entries, sizes };
}

export function buildEnterpriseWrites(options, plan) {
  const stats = () => ({ service: { conflicts: 0, failures: [] }, baseline: { conflicts: 0, failures: [] } });
  const fail = (workload, target, message) => {
    const list = workload.stats[target].failures;
    if (list.length < 20) list.push(message);
  };
  const cursor = { sign: { service: 0, baseline: 0 }, entries: { service: 0, baseline: 0 } };
  const sign = {
    name: 'approval-sign',
    title: `POST /approvals/request/sign/{id} (approve with the password, argon2id 19 MiB × 2; a distinct pending request each, ${APPROVERS.length} signers in turn)`,
    write: true,
    stats: stats(),
    next(target) {
      const pool = plan.sign[target];
      const signer = APPROVERS[cursor.sign[target] % APPROVERS.length];
      const id = pool[cursor.sign[target]++];
      if (id === undefined) {
        // Thrown here, the error would end the bench inside autocannon without its clean-up: the request is sent
        // again (a 409) and the run reports the exhaustion as a failed check. Raise --approvals.
        const last = pool.at(-1);
        return {
          method: 'POST',
          path: `/api/2.0/approvals/request/sign/${last}`,
          headers: JSON_AUTH(signer.token),
          body: JSON.stringify({ decision: 'approve', password: APPROVER_PASSWORD }),
          check: () => fail(sign, target, `the ${target}'s pool of ${pool.length} requests is used up (--approvals)`),
        };
      }
      return {
        method: 'POST',
        path: `/api/2.0/approvals/request/sign/${id}`,
        headers: JSON_AUTH(signer.token),
        body: JSON.stringify({ decision: 'approve', password: APPROVER_PASSWORD }),
        check: (status, text) => {
          if (status !== 200) return fail(sign, target, `sign ${id}: ${status} ${text.slice(0, 200)}`);
          if (!text.includes(`"approval_requestid":${id},`) || !text.includes('"current_stage":2'))
            fail(sign, target, `sign ${id}: the answer is not the request at stage 2: ${text.slice(0, 200)}`);
        },
      };
    },
  };
  let n = 0;
  const stepData = {
    name: 'worklog-stepdata',
    title: `PUT /work_log/{entryid}/stepData (the owner; 2 Text Input values; ${plan.sizes.worklogWrites / 2} started entries per target)`,
    write: true,
    stats: stats(),
    next(target) {
      const pool = plan.entries[target];
      const entryid = pool[cursor.entries[target]++ % pool.length];
      const guideid = WL_GUIDES + 1 + ((entryid - plan.sizes.worklog - 1) % WL_WRITE_GUIDES);
      const value = `reading ${++n}`;
      const fields = { [fieldRevisionid(guideid, n % FORMS_PER_GUIDE, 0)]: value, [fieldRevisionid(guideid, n % FORMS_PER_GUIDE, 1)]: `${n % 97}` };
      return {
        method: 'PUT',
        path: `/api/2.0/work_log/${entryid}/stepData`,
        headers: JSON_AUTH(WORKER.token),
        body: JSON.stringify({ fields }),
        check: (status, text) => {
          if (status !== 200) return fail(stepData, target, `stepData ${entryid}: ${status} ${text.slice(0, 200)}`);
          if (!text.includes(`"entryid":${entryid},`) || !text.includes(JSON.stringify(value)))
            fail(stepData, target, `stepData ${entryid}: the answer lacks the value: ${text.slice(0, 200)}`);
        },
      };
    },
  };
  for (const workload of [sign, stepData]) {
    workload.autocannon = (target) => [
      {
        setupRequest: (request, context) => {
          const spec = workload.next(target);
          context.check = spec.check;
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
  return [sign, stepData].filter((w) => selected(options, w.name)).filter((w) =>
    w.name === 'approval-sign' ? plan.sign.baseline.length > 0 : plan.entries.baseline.length > 0,
  );
}
