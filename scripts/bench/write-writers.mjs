// guide-writers-20: a correctness check, not a load. 20 PATCHes with the same revisionid on one guide,
// sent at once: exactly one may win (200), the other 19 must get 409 with the winner's version as body,
// and an anonymous GET afterwards, the guide row and its revision count must all show the winner's edit
// (no lost update, no half-written loser).
import { AUTH } from './write-workloads.mjs';

export const WRITERS = 20;

/** What went wrong in one target's outcome (empty when correct). */
export function writersProblems(o) {
  const problems = [];
  if (o.ok.length !== 1) problems.push(`${o.ok.length} answers 200 (expected 1)`);
  if (o.conflicts.length !== WRITERS - 1) problems.push(`${o.conflicts.length} answers 409 (expected ${WRITERS - 1})`);
  if (o.other.length) problems.push(`other answers: ${o.other.map((r) => r.status).join(', ')}`);
  const winner = o.ok[0];
  if (!winner) return problems;
  const head = winner.body.head_revisionid;
  if (winner.body.summary !== o.summaries[winner.k]) problems.push(`the 200 answer shows another summary`);
  if (!(head > o.before)) problems.push(`the winner's head_revisionid ${head} is not above ${o.before}`);
  const stale = o.conflicts.filter((r) => r.body.head_revisionid !== head || r.body.summary !== winner.body.summary);
  if (stale.length) problems.push(`${stale.length} 409 bodies do not show the winner's version`);
  if (o.shown.summary !== winner.body.summary) problems.push(`GET shows "${o.shown.summary}" (lost update)`);
  if (o.shown.revisionid !== head) problems.push(`GET shows revision ${o.shown.revisionid}, the winner wrote ${head}`);
  if (o.row.head !== head) problems.push(`guides.head_revisionid is ${o.row.head}, the winner wrote ${head}`);
  if (o.row.revisions !== o.revisionsBefore + 1)
    problems.push(`${o.row.revisions - o.revisionsBefore} revisions were added (expected 1)`);
  return problems;
}

async function dbState(db, guideid) {
  const [row] = await db.query('SELECT head_revisionid FROM guides WHERE guideid = ?', [guideid]);
  const [count] = await db.query('SELECT COUNT(*) AS n FROM guide_revisions WHERE guideid = ?', [guideid]);
  return { head: Number(row.head_revisionid), revisions: Number(count.n) };
}

export async function writers20(target, db, guideid) {
  const { head: before, revisions: revisionsBefore } = await dbState(db, guideid);
  const summaries = Array.from(
    { length: WRITERS },
    (_, k) => `Concurrent edit ${k + 1} of ${WRITERS} (${target.name}).`,
  );
  const answers = await Promise.all(
    summaries.map(async (summary, k) => {
      const res = await fetch(`${target.base}/api/2.0/guides/${guideid}?revisionid=${before}`, {
        method: 'PATCH',
        headers: AUTH,
        body: JSON.stringify({ summary }),
      });
      const text = await res.text();
      let body;
      try {
        body = JSON.parse(text);
      } catch {
        body = { text };
      }
      return { k, status: res.status, body };
    }),
  );
  // The service is read as the writer (an editor): with the enterprise data set seeded too, the guide has a
  // live release, which readers who are not editors see instead of the newest revision (docs/enterprise/releases.md).
  // The baseline has no releases and reads anonymously only.
  const asWriter = target.name === 'service' ? { headers: AUTH } : {};
  const shown = await (await fetch(`${target.base}/api/2.0/guides/${guideid}`, asWriter)).json();
  const outcome = {
    target: target.name,
    guideid,
    before,
    revisionsBefore,
    summaries,
    ok: answers.filter((a) => a.status === 200),
    conflicts: answers.filter((a) => a.status === 409),
    other: answers.filter((a) => a.status !== 200 && a.status !== 409),
    shown,
    row: await dbState(db, guideid),
  };
  outcome.problems = writersProblems(outcome);
  return outcome;
}

/** A line of the report per target. */
/** The check must be able to fail: synthetic outcomes with a lost update or two winners are flagged. */
export function writersSelfTest() {
  const good = {
    before: 10,
    revisionsBefore: 1,
    summaries: ['a', 'b'],
    ok: [{ k: 1, body: { head_revisionid: 11, summary: 'b' } }],
    conflicts: Array.from({ length: WRITERS - 1 }, () => ({ body: { head_revisionid: 11, summary: 'b' } })),
    other: [],
    shown: { summary: 'b', revisionid: 11 },
    row: { head: 11, revisions: 2 },
  };
  if (writersProblems(good).length) throw new Error(`writers-20 self-test: ${writersProblems(good).join('; ')}`);
  const bad = [
    {
      ...good,
      ok: [...good.ok, { k: 0, body: { head_revisionid: 12, summary: 'a' } }],
      conflicts: good.conflicts.slice(1),
    },
    { ...good, shown: { summary: 'a', revisionid: 11 } },
    { ...good, row: { head: 11, revisions: 3 } },
    { ...good, conflicts: [...good.conflicts.slice(1), { body: { head_revisionid: 10, summary: 'x' } }] },
  ];
  bad.forEach((o, i) => {
    if (!writersProblems(o).length) throw new Error(`writers-20 self-test: bad outcome ${i + 1} passed`);
  });
}
