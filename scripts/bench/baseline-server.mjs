// Baseline for the benchmark (docs/benchmark.md): plain Fastify + better-sqlite3 / mysql2 with hand-written SQL,
// answering the same JSON as the service for the workloads the harness runs. Same environment
// variables as the service: DB_TYPE, DB_PATH, DATABASE_URL, PORT, HOST, PUBLIC_URL. Guide reads are in
// baseline-guides.mjs, guide writes (POST, PATCH) in baseline-writes.mjs; GET /__bench/sql-statements
// answers how many statements it has run so far.
//
// Deliberate limits (the seeded data never needs more; run.mjs checks parity before measuring):
// - wiki detail: CATEGORY only, source language only (no ?langid, no ?unpatrolled), anonymous callers
//   (can_edit false), image objects and documents are not resolved (the seed has none: image null,
//   documents []), linked_wikis is [] (the seeded contents reference no wikis). Contents are rendered
//   with the service's own wiki-text engine (.bench-build/src/wikitext), with an empty resolver.
// - hierarchy: default options only (no requireGuides / langid / machine translation).
// - users search: anonymous callers only (no e-mail matching, disabled accounts hidden).
import { createHash } from 'node:crypto';
import {
  HOST,
  PORT,
  USER_COLUMNS,
  containing,
  flagsOf,
  lightUsersOf,
  pageOf,
  query,
  require,
  statementCount,
  wikiUrl,
  wikitext,
} from './baseline-common.mjs';
import { guideDetail, guideList, guideSummaries } from './baseline-guides.mjs';
import { registerEnterpriseRoutes } from './baseline-enterprise.mjs';
import { registerQuizRoutes } from './baseline-quizzes.mjs';
import { registerWriteRoutes } from './baseline-writes.mjs';
import { registerSearchRoutes } from './baseline-search.mjs';

const Fastify = require('fastify');
const { parseWikiText, renderDoc, emptyDoc } = wikitext;
const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
const categoryUrl = (title) => wikiUrl('c', title);

// ---- SQL --------------------------------------------------------------------------------------------
const LIGHT_SELECT = `SELECT w.wikiid, w.title, w.modified_date, w.langid, rm.display_title, rm.summary, rm.imageid
  FROM wikis w
  JOIN wiki_languages lm ON lm.wikiid = w.wikiid AND lm.langid = w.langid
  JOIN wiki_revisions rm ON rm.revisionid = lm.revisionid`;

const SQL = {
  tree: `SELECT w.wikiid, w.title, w.parent_wikiid, rm.display_title, rm.flags
    FROM wikis w
    JOIN wiki_languages lm ON lm.wikiid = w.wikiid AND lm.langid = w.langid
    JOIN wiki_revisions rm ON rm.revisionid = lm.revisionid
    WHERE w.namespace = 'CATEGORY' AND w.deleted = 0`,
  wiki: `SELECT w.wikiid, w.namespace, w.title, w.langid, w.parent_wikiid, w.authorid, w.created_date,
      r.revisionid, r.date, r.deleted AS rdeleted, r.display_title, r.summary, r.contents, r.imageid, r.flags, r.data,
      lm.source_revisionid
    FROM wikis w
    JOIN wiki_languages lm ON lm.wikiid = w.wikiid AND lm.langid = w.langid
    JOIN wiki_revisions r ON r.revisionid = lm.revisionid
    WHERE w.namespace = 'CATEGORY' AND w.title_hash = ?`,
  languages: `SELECT l.langid FROM wiki_languages l JOIN wiki_revisions r ON r.revisionid = l.revisionid
    WHERE l.wikiid = ? AND r.deleted = 0 ORDER BY l.langid`,
  tags: `SELECT t.name FROM document_tags dt JOIN tags t ON t.tagid = dt.tagid
    WHERE dt.doc_kind = 'wiki' AND dt.docid = ?`,
  ancestors: `WITH RECURSIVE anc (wikiid, parent_wikiid, depth) AS (
      SELECT wikiid, parent_wikiid, 0 FROM wikis WHERE wikiid = ?
      UNION ALL
      SELECT w.wikiid, w.parent_wikiid, anc.depth + 1 FROM wikis w JOIN anc ON w.wikiid = anc.parent_wikiid
      WHERE anc.depth < 1000)
    ${LIGHT_SELECT.replace('FROM wikis w', 'FROM anc CROSS JOIN wikis w ON w.wikiid = anc.wikiid')}
    WHERE anc.depth > 0 AND w.deleted = 0 ORDER BY anc.depth`,
  children: `${LIGHT_SELECT} WHERE w.deleted = 0 AND w.parent_wikiid = ? ORDER BY w.title, w.wikiid`,
  guides: `SELECT guideid, category, title FROM wiki_category_guides WHERE category_hash = ? ORDER BY title, guideid`,
};

const userSearchWhere = `(LOWER(u.unique_username) LIKE ? ESCAPE '!' OR LOWER(u.username) LIKE ? ESCAPE '!')
  AND u.enabled = 1 AND u.banned = 0`;
SQL.userSearchPage = `SELECT ${USER_COLUMNS},
    CASE WHEN LOWER(u.unique_username) = ? THEN 0 WHEN LOWER(u.username) = ? THEN 1
      WHEN LOWER(u.unique_username) LIKE ? ESCAPE '!' THEN 3 WHEN LOWER(u.username) LIKE ? ESCAPE '!' THEN 4 ELSE 6 END AS match_rank
  FROM users u WHERE ${userSearchWhere} ORDER BY match_rank, u.userid LIMIT ? OFFSET ?`;
SQL.userSearchCount = `SELECT COUNT(*) AS n FROM users u WHERE ${userSearchWhere}`;
SQL.userById = `SELECT ${USER_COLUMNS}, u.enabled, u.banned FROM users u WHERE u.userid = ?`;

// ---- handlers ---------------------------------------------------------------------------------------
function light(row) {
  return {
    dataType: 'wiki',
    wikiid: Number(row.wikiid),
    namespace: 'CATEGORY',
    title: row.title,
    display_title: row.display_title,
    langid: row.langid,
    summary: row.summary,
    text: row.summary,
    url: categoryUrl(row.title),
    image: null,
    modified_date: Number(row.modified_date),
  };
}

async function hierarchy() {
  const rows = await query(SQL.tree);
  rows.sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.wikiid - b.wikiid));
  const live = new Set(rows.map((r) => r.wikiid));
  const childrenOf = new Map();
  for (const row of rows) {
    if (flagsOf(row.flags).includes('WIKI_STUB')) continue;
    const parent = row.parent_wikiid !== null && live.has(row.parent_wikiid) ? row.parent_wikiid : null;
    const list = childrenOf.get(parent);
    if (list) list.push(row);
    else childrenOf.set(parent, [row]);
  }
  const display_titles = {};
  const build = (parent) => {
    const kids = childrenOf.get(parent);
    if (!kids) return null;
    const node = {};
    for (const kid of kids) {
      display_titles[kid.title] = kid.display_title;
      node[kid.title] = build(kid.wikiid);
    }
    return node;
  };
  const hierarchy = build(null) ?? {};
  // The service lists display titles in title order.
  const ordered = {};
  for (const row of rows) if (row.title in display_titles) ordered[row.title] = display_titles[row.title];
  return { hierarchy, display_titles: ordered };
}

async function categoryDetail(rawTitle) {
  const title = rawTitle.replace(/_/g, ' ').trim();
  // Titles are found whatever their case: the hash is of the lower-cased title.
  const [wiki] = await query(SQL.wiki, [sha256(title.toLowerCase())]);
  if (!wiki || Number(wiki.rdeleted)) return undefined;
  const wikiid = Number(wiki.wikiid);
  const [languages, tags, ancestors, children, guides] = await Promise.all([
    query(SQL.languages, [wikiid]),
    query(SQL.tags, [wikiid]),
    wiki.parent_wikiid === null ? [] : query(SQL.ancestors, [wikiid]),
    query(SQL.children, [wikiid]),
    query(SQL.guides, [sha256(wiki.title.toLowerCase())]),
  ]);
  const summaries = await guideSummaries(guides.map((g) => Number(g.guideid)));
  const json = wiki.contents === '' ? emptyDoc() : parseWikiText(wiki.contents);
  let data = {};
  try {
    data = JSON.parse(wiki.data || '{}') ?? {};
  } catch {
    /* as the service: bad data reads as {} */
  }
  return {
    wikiid,
    langid: wiki.langid,
    namespace: wiki.namespace,
    title: wiki.title,
    display_title: wiki.display_title,
    revisionid: Number(wiki.revisionid),
    modified_date: Number(wiki.date),
    created_date: Number(wiki.created_date),
    author: Number(wiki.authorid),
    contents_raw: wiki.contents,
    contents_rendered: renderDoc(json, {}),
    contents_json: json,
    linked_wikis: [],
    image: null,
    flags: flagsOf(wiki.flags),
    tags: tags.map((t) => t.name).sort(),
    table_of_contents: data.table_of_contents === true,
    can_edit: false,
    available_langids: languages.map((l) => l.langid),
    source_revisionid: wiki.source_revisionid === null ? null : Number(wiki.source_revisionid),
    description: wiki.summary,
    info: data.info ?? [],
    repairability_score: data.repairability_score ?? null,
    parent: ancestors[0]?.title ?? null,
    ancestors: ancestors.map(light),
    children: children.map(light),
    // The seeded guides use no ITEM pages and carry no featured flag.
    guides: summaries,
    featured_guides: summaries.filter((g) => g.flags.includes('GUIDE_STARRED') || g.flags.includes('GUIDE_FEATURED_STUDENT')),
    parts: { url: categoryUrl(wiki.title), total: 0, categories: [] },
    tools: [],
    documents: [],
  };
}

async function userSearch(term, limit, offset) {
  const trimmed = term.trim();
  let users;
  let total;
  if (/^\d+$/.test(trimmed)) {
    const [user] = await query(SQL.userById, [Number(trimmed)]);
    const visible = user && Number(user.enabled) === 1 && Number(user.banned) === 0;
    users = visible && offset === 0 ? [user] : [];
    total = visible ? 1 : 0;
  } else {
    const exact = trimmed.toLowerCase();
    const partial = containing(exact);
    const [page, count] = await Promise.all([
      query(SQL.userSearchPage, [exact, exact, partial, partial, partial, partial, limit, offset]),
      query(SQL.userSearchCount, [partial, partial]),
    ]);
    users = page;
    total = Number(count[0].n);
  }
  const light = await lightUsersOf(users);
  return {
    search: term,
    limit,
    offset,
    totalResults: total,
    moreResults: offset + users.length < total,
    results: users.map((u) => light.get(Number(u.userid))),
  };
}

// ---- server -----------------------------------------------------------------------------------------
const app = Fastify({ logger: false });
const notFound = (reply, what) => reply.code(404).send({ error: true, message: `${what} not found` });

app.get('/api/2.0/health', async () => ({ status: 'ok' }));
app.get('/api/2.0/wikis/CATEGORY', async (request, reply) => {
  if (request.query.display !== 'hierarchy') return reply.code(501).send({ error: 'baseline: hierarchy only' });
  return hierarchy();
});
app.get('/api/2.0/wikis/CATEGORY/:title', async (request, reply) => {
  const detail = await categoryDetail(request.params.title);
  return detail ?? notFound(reply, 'Wiki');
});
app.get('/api/2.0/users/search/:search', async (request) => {
  const { limit, offset } = pageOf(request.query);
  return userSearch(request.params.search, limit, offset);
});
app.get('/api/2.0/guides', async (request, reply) => {
  const { limit, offset, ...rest } = request.query;
  if (Object.keys(rest).length || request.headers.authorization)
    return reply.code(501).send({ error: 'baseline: anonymous limit/offset only' });
  return guideList(pageOf({ limit, offset }));
});
app.get('/api/2.0/guides/:guideid', async (request, reply) => {
  if (Object.keys(request.query).length || request.headers.authorization)
    return reply.code(501).send({ error: 'baseline: anonymous, no options' });
  const guideid = Number(request.params.guideid);
  const detail = Number.isInteger(guideid) && guideid > 0 ? await guideDetail(guideid) : undefined;
  return detail ?? notFound(reply, 'Guide');
});
registerWriteRoutes(app);
registerEnterpriseRoutes(app);
registerSearchRoutes(app);
registerQuizRoutes(app);
app.get('/__bench/sql-statements', async () => ({ statements: statementCount() }));

const close = () => app.close().then(() => process.exit(0));
process.on('SIGTERM', close);
process.on('SIGINT', close);
await app.listen({ port: PORT, host: HOST });
