// The parity twins of the write checks: two identical copies of one seeded guide (own guide, revision,
// step and step-revision rows, new ids), one edited through the service and one through the baseline.
import { createHash } from 'node:crypto';
import { insertMany } from './lib.mjs';
import { COLUMNS } from './seed-guides.mjs';

const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
const jsonOf = (value) => (typeof value === 'string' ? JSON.parse(value) : value);

/** Two copies of seeded guide `sourceId` (own guide, revision, step and step-revision rows), public. */
export async function createTwins(db, sourceId) {
  const [guide] = await db.query('SELECT * FROM guides WHERE guideid = ?', [sourceId]);
  const [revision] = await db.query('SELECT * FROM guide_revisions WHERE revisionid = ?', [guide.head_revisionid]);
  const data = jsonOf(revision.data);
  const refs = data.steps.map((s) => s.revisionid);
  const stepRows = await db.query(
    `SELECT revisionid, userid, date, data FROM guide_step_revisions WHERE revisionid IN (${refs.map(() => '?').join(', ')})`,
    refs,
  );
  const stepData = new Map(stepRows.map((r) => [Number(r.revisionid), r]));
  const max = async (table, column) => Number((await db.query(`SELECT MAX(${column}) AS m FROM ${table}`))[0].m);
  let [guideid, revisionid, stepid, stepRevisionid] = [
    await max('guides', 'guideid'),
    await max('guide_revisions', 'revisionid'),
    await max('guide_steps', 'stepid'),
    await max('guide_step_revisions', 'revisionid'),
  ];
  const rows = { guides: [], guide_revisions: [], guide_steps: [], guide_step_revisions: [], wiki_category_guides: [] };
  const twins = {};
  for (const target of ['service', 'baseline']) {
    const id = ++guideid;
    const rid = ++revisionid;
    const steps = data.steps.map((ref) => ({ stepid: ++stepid, revisionid: ++stepRevisionid, source: ref.revisionid }));
    const g = guide;
    rows.guides.push([
      id,
      g.authorid,
      g.langid,
      g.category,
      g.title,
      g.type,
      g.public,
      0,
      g.flags,
      rid,
      rid,
      g.created_date,
      g.modified_date,
      g.published_date,
    ]);
    const copy = { ...data, steps: steps.map((s) => ({ stepid: s.stepid, revisionid: s.revisionid })) };
    rows.guide_revisions.push([rid, id, revision.langid, revision.userid, revision.date, 1, JSON.stringify(copy), '']);
    for (const s of steps) {
      const source = stepData.get(s.source);
      rows.guide_steps.push([s.stepid, id, s.revisionid, 0]);
      rows.guide_step_revisions.push([
        s.revisionid,
        s.stepid,
        id,
        source.userid,
        source.date,
        JSON.stringify(jsonOf(source.data)),
      ]);
    }
    rows.wiki_category_guides.push([id, g.category, sha256(g.category), g.title]);
    twins[target] = {
      guideid: id,
      head: rid,
      steps: steps.map(({ stepid: a, revisionid: b }) => ({ stepid: a, revisionid: b })),
    };
  }
  const columns = {
    ...COLUMNS,
    guide_revisions: COLUMNS.guide_revisions.filter((column) => column !== 'document'),
  };

  for (const [table, list] of Object.entries(rows)) await insertMany(db, table, columns[table], list);
  return twins;
}
