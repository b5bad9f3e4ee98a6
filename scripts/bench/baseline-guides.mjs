// The baseline's guide routes: the "naive SQL" server. Every request reads the revision's stored state
// (guide_revisions.data), the step revisions, images, users and comments with hand-written SQL and
// renders all wiki text with the service's own engine; it never reads the service's rendered
// guide_revisions.document, which is what the service's read path is measured against.
//
// Parity limits (the seed never needs more; run.mjs checks parity on every workload path):
// - anonymous callers (public guides, can_edit false) or, for what writes answer, Moderator+ editors; no
//   query options (no langid / translations, no unpatrolled, no excludePrerequisiteSteps; 501 otherwise);
// - prerequisites: only prereq_modified_date of list items; a guide with prerequisites answers 501 on
//   detail (the service inlines their steps and summaries);
// - wiki text: [guide|id] references resolve (public, non-deleted guides, as the service's loader);
//   image, document, wiki and product references are left unresolved (the seed has none);
// - documents (attached files) are not resolved: a guide with documents answers 501 on detail.
import {
  guideUrl,
  imagesByIds,
  jsonOf,
  lightUsers,
  placeholders,
  query,
  wikiUrl,
  wikitext,
} from './baseline-common.mjs';

const { parseWikiText, renderDoc, emptyDoc, collectReferences } = wikitext;

// Anonymous reads show the patrolled revision (g.revisionid); what writes answer an editor shows the
// newest (g.head_revisionid) with the editor's favorite and completion marks.
const detailSql = (pointer, marks) => `SELECT g.guideid, g.authorid, g.langid, g.public, g.deleted,
      g.head_revisionid, g.created_date, g.published_date, r.revisionid, r.langid AS r_langid, r.date AS r_date,
      r.patrolled AS r_patrolled, r.data AS r_data, u.username,
      (SELECT GROUP_CONCAT(t.langid) FROM guide_translations t
        WHERE t.guideid = g.guideid AND t.revisionid IS NOT NULL) AS langs${
          marks
            ? `,
      (SELECT COUNT(*) FROM guide_favorites f WHERE f.guideid = g.guideid AND f.userid = ?) AS favorited,
      (SELECT COUNT(*) FROM guide_completions c WHERE c.guideid = g.guideid AND c.userid = ?) AS completed`
            : ''
        }
    FROM guides g
    JOIN guide_revisions r ON r.revisionid = g.${pointer}
    LEFT JOIN users u ON u.userid = g.authorid
    WHERE g.guideid = ?`;

const SQL = {
  detail: detailSql('revisionid', false),
  editorDetail: detailSql('head_revisionid', true),
  // The page is picked on guides' (public, deleted, guideid) index alone, then joined (a deferred join):
  // joining first would read a revision and a user for every skipped row.
  list: `SELECT g.guideid, g.authorid, r.revisionid, r.langid, r.date, r.data, u.username
    FROM (SELECT guideid FROM guides WHERE deleted = 0 AND public = 1 ORDER BY guideid LIMIT ? OFFSET ?) page
    JOIN guides g ON g.guideid = page.guideid
    JOIN guide_revisions r ON r.revisionid = g.revisionid
    LEFT JOIN users u ON u.userid = g.authorid
    ORDER BY g.guideid`,
  comments: (steps) => `SELECT commentid, context, contextid, parentid, userid, title, text_raw, status, langid,
      created_date, modified_date, replied_date
    FROM comments
    WHERE status = 'public' AND ((context = 'guide' AND contextid = ?)
      ${steps ? `OR (context = 'step' AND contextid IN (${placeholders(steps)}))` : ''})
    ORDER BY commentid`,
};

/** "30 minutes - 1 hour" from seconds, as the service words it. */
function timeRequired(min, max) {
  const format = (seconds) => {
    if (seconds < 60) return `${seconds} seconds`;
    const minutes = Math.round(seconds / 60);
    if (minutes < 60) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
    const hours = Math.round((minutes / 60) * 10) / 10;
    return hours === 1 ? '1 hour' : `${hours} hours`;
  };
  if (!min && !max) return 'No estimate';
  if (!min || min === max) return format(max || min);
  return `${format(min)} - ${format(max)}`;
}

const parse = (text) => (text ? parseWikiText(text) : emptyDoc());

/** Guide references of parsed texts -> resolver (one query); other kinds stay unresolved. */
async function resolverFor(docs) {
  const ids = collectReferences(docs).guideids;
  if (!ids.length) return {};
  const rows = await query(
    `SELECT guideid, title FROM guides WHERE guideid IN (${placeholders(ids.length)}) AND public = 1 AND deleted = 0`,
    ids,
  );
  const guides = new Map(rows.map((g) => [Number(g.guideid), { title: g.title, url: guideUrl(g.guideid, g.title) }]));
  return { guide: (id) => guides.get(id) };
}

const item = (i) => ({
  text: i.name,
  type: i.type,
  quantity: i.quantity,
  notes: i.notes,
  url: wikiUrl('Item', i.name),
  thumbnail: '',
  isoptional: false,
  featured: i.featured,
  wikiid: i.wikiid,
});

function commentTree(rows, html, users) {
  const dto = (c) => ({
    commentid: Number(c.commentid),
    locale: c.langid,
    context: c.context,
    contextid: Number(c.contextid),
    parentid: c.parentid === null ? null : Number(c.parentid),
    author: users.get(Number(c.userid)),
    title: c.title,
    text_raw: c.text_raw,
    text_rendered: html.get(c.commentid),
    rating: 0,
    date: Number(c.created_date),
    modified_date: Number(c.modified_date),
    replied_date: Number(c.replied_date),
    status: c.status,
  });
  const replies = rows.filter((c) => c.parentid !== null);
  const byContext = new Map();
  for (const c of rows) {
    if (c.parentid !== null) continue;
    const key = `${c.context}:${c.contextid}`;
    const list = byContext.get(key) ?? [];
    list.push({ ...dto(c), replies: replies.filter((r) => Number(r.parentid) === Number(c.commentid)).map(dto) });
    byContext.set(key, list);
  }
  return byContext;
}

/**
 * GET /guides/{guideid} for an anonymous caller; undefined for a 404. With `editor` (a Moderator+ caller:
 * may read and edit every guide) the guide as writes answer it: the newest revision, can_edit true.
 */
export async function guideDetail(guideid, editor) {
  const [row] = editor
    ? await query(SQL.editorDetail, [editor.userid, editor.userid, guideid])
    : await query(SQL.detail, [guideid]);
  if (!row || Number(row.deleted) || (!editor && !Number(row.public))) return undefined;
  const data = jsonOf(row.r_data);
  if (data.prerequisites.length || data.documents.length)
    throw Object.assign(new Error('unsupported'), { statusCode: 501 });
  const stepids = data.steps.map((s) => s.stepid);
  const revisionids = data.steps.map((s) => s.revisionid);
  const [stepRows, commentRows] = await Promise.all([
    revisionids.length
      ? query(
          `SELECT revisionid, data FROM guide_step_revisions WHERE revisionid IN (${placeholders(revisionids.length)})`,
          revisionids,
        )
      : [],
    query(SQL.comments(stepids.length), [guideid, ...stepids]),
  ]);
  const stepData = new Map(stepRows.map((r) => [Number(r.revisionid), jsonOf(r.data)]));
  const steps = data.steps.map((ref) => ({ ref, step: stepData.get(ref.revisionid) }));

  const texts = [data.introduction, data.conclusion, ...steps.flatMap(({ step }) => step.lines.map((l) => l.text))];
  const docs = texts.map(parse);
  const commentDocs = commentRows.map((c) => parse(c.text_raw));
  const imageids = [...(data.imageid ? [data.imageid] : []), ...steps.flatMap(({ step }) => step.imageids)];
  const [images, resolver, users] = await Promise.all([
    imagesByIds(imageids),
    resolverFor([...docs, ...commentDocs]),
    lightUsers([...commentRows.map((c) => Number(c.userid)), Number(row.authorid)]),
  ]);
  const html = docs.map((doc) => renderDoc(doc, resolver));
  const commentHtml = new Map(commentRows.map((c, i) => [c.commentid, renderDoc(commentDocs[i], resolver)]));
  const comments = commentTree(commentRows, commentHtml, users);

  let cursor = 2;
  const stepDtos = steps.map(({ ref, step }, index) => {
    const lines = step.lines.map((line) => ({
      text_raw: line.text,
      text_rendered: html[cursor++],
      bullet: line.bullet,
      level: line.level,
      lineid: null,
    }));
    const stepComments = comments.get(`step:${ref.stepid}`) ?? [];
    return {
      stepid: ref.stepid,
      guideid,
      orderby: index + 1,
      revisionid: ref.revisionid,
      title: step.title,
      lines,
      media: { type: 'image', data: step.imageids.map((id) => images.get(id)).filter(Boolean) },
      comments: stepComments,
      comment_count: stepComments.length,
      form: null,
    };
  });
  const langs = typeof row.langs === 'string' && row.langs ? row.langs.split(',') : [];
  return {
    dataType: 'guide',
    guideid,
    url: guideUrl(guideid, data.title),
    type: data.type,
    category: data.category,
    subject: data.subject,
    title: data.title,
    summary: data.summary,
    difficulty: data.difficulty,
    time_required: timeRequired(data.time_required_min, data.time_required_max),
    time_required_min: data.time_required_min,
    time_required_max: data.time_required_max,
    public: data.public,
    flags: data.flags,
    image: (data.imageid !== null && images.get(data.imageid)) || null,
    introduction_raw: data.introduction,
    introduction_rendered: html[0],
    conclusion_raw: data.conclusion,
    conclusion_rendered: html[1],
    documents: [],
    featured_documentid: data.featured_documentid,
    featured_document_embed_url: '',
    featured_document_thumbnail_url: '',
    parts: data.parts.map(item),
    tools: data.tools.map(item),
    locale: row.r_langid,
    revisionid: Number(row.revisionid),
    head_revisionid: Number(row.head_revisionid),
    modified_date: Number(row.r_date),
    prereq_modified_date: 0,
    userid: Number(row.authorid),
    username: row.username ?? '',
    prerequisites: [],
    prerequisite_releases: [],
    steps: stepDtos,
    comments: comments.get(`guide:${guideid}`) ?? [],
    author: users.get(Number(row.authorid)),
    langid: row.langid,
    available_langids: [row.langid, ...langs.sort()],
    created_date: Number(row.created_date),
    published_date: Number(row.published_date),
    patrolled: Boolean(Number(row.r_patrolled)),
    can_edit: Boolean(editor),
    favorited: Number(row.favorited) > 0,
    completed: Number(row.completed) > 0,
  };
}

/** GET /guides?limit&offset for an anonymous caller: public, non-deleted guides by guideid. */
export async function guideList({ limit, offset }) {
  return summaries(await query(SQL.list, [limit, offset]));
}

/** The summaries of these guides (public, not deleted) in the order given, as GET /guides lists them. */
export async function guideSummaries(guideids) {
  if (!guideids.length) return [];
  const rows = await query(
    `SELECT g.guideid, g.authorid, r.revisionid, r.langid, r.date, r.data, u.username
      FROM guides g JOIN guide_revisions r ON r.revisionid = g.revisionid LEFT JOIN users u ON u.userid = g.authorid
      WHERE g.deleted = 0 AND g.public = 1 AND g.guideid IN (${placeholders(guideids.length)})`,
    guideids,
  );
  const byId = new Map((await summaries(rows)).map((item) => [item.guideid, item]));
  return guideids.flatMap((id) => byId.get(id) ?? []);
}

async function summaries(rows) {
  const data = rows.map((r) => jsonOf(r.data));
  const prereqs = [...new Set(data.flatMap((d) => d.prerequisites))];
  const [images, prereqRows] = await Promise.all([
    imagesByIds(data.map((d) => d.imageid ?? 0)),
    prereqs.length
      ? query(`SELECT guideid, modified_date FROM guides WHERE guideid IN (${placeholders(prereqs.length)})`, prereqs)
      : [],
  ]);
  const modified = new Map(prereqRows.map((r) => [Number(r.guideid), Number(r.modified_date)]));
  return rows.map((row, i) => {
    const d = data[i];
    const guideid = Number(row.guideid);
    return {
      dataType: 'guide',
      guideid,
      locale: row.langid,
      revisionid: Number(row.revisionid),
      modified_date: Number(row.date),
      prereq_modified_date: d.prerequisites.reduce((max, id) => Math.max(max, modified.get(id) ?? 0), 0),
      url: guideUrl(guideid, d.title),
      type: d.type,
      category: d.category,
      subject: d.subject,
      title: d.title,
      summary: d.summary,
      difficulty: d.difficulty,
      time_required_max: d.time_required_max,
      public: d.public,
      userid: Number(row.authorid),
      username: row.username ?? '',
      flags: d.flags,
      image: (d.imageid !== null && images.get(d.imageid)) || null,
    };
  });
}
