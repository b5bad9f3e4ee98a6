// The baseline's GET /api/2.0/search/{query} (issue #20): the same full-text query over the service's index
// tables (SQLite FTS5 search_fts + search_documents; InnoDB FULLTEXT on search_documents), then the guide
// summaries of the guide hits as guide lists answer them (one query, then their images), wikis as light
// objects from the index's data column, each with its snippet. Snippets use the service's own pure snippet
// function (.bench-build/src/modules/search/snippet.js), as the other baseline routes use its wiki-text engine.
//
// Parity limits (the seed never needs more; run.mjs checks parity before measuring): anonymous callers,
// no `filter` or `langid` (501 otherwise), plain words only (no quoted phrases), no live releases (guide
// summaries show g.revisionid), guides without prerequisites (prereq_modified_date 0).
import { resolve } from 'node:path';
import { ROOT, guideUrl, imagesByIds, isMysql, jsonOf, placeholders, query, require } from './baseline-common.mjs';

const { snippet, mentions } = require(resolve(ROOT, '.bench-build/src/modules/search/snippet.js'));

/** Folded words (lower case, no accents), as the service parses a query without quotes. */
const wordsOf = (text) => [
  ...new Set(
    (
      text
        .normalize('NFKD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu) ?? []
    ).map((w) => w.slice(0, 84)),
  ),
];

const COLUMNS = 'd.id, d.doctype, d.docid, d.langid, d.namespace, d.title, d.body, d.data, d.modified_date';
// Anonymous readers: public, non-deleted guides; non-deleted wikis.
const READABLE = `d.is_source = 1 AND (
    (d.doctype = 'GUIDE' AND EXISTS (SELECT 1 FROM guides g WHERE g.guideid = d.docid AND g.deleted = 0 AND g.public = 1))
    OR (d.doctype = 'WIKI' AND EXISTS (SELECT 1 FROM wikis w WHERE w.wikiid = d.docid AND w.deleted = 0)))`;

const SEARCH_SQLITE = `WITH hits AS (
    SELECT ${COLUMNS}, bm25(search_fts, 10.0, 1.0) AS score,
      (d.id IN (SELECT rowid FROM search_fts WHERE search_fts MATCH ?)) AS title_match
    FROM search_fts JOIN search_documents d ON d.id = search_fts.rowid
    WHERE search_fts MATCH ? AND ${READABLE})
  SELECT hits.*, COUNT(*) OVER () AS total FROM hits
  ORDER BY title_match DESC, score ASC, modified_date DESC, id DESC
  LIMIT ? OFFSET ?`;

const SEARCH_MYSQL = `SELECT ${COLUMNS}, MATCH (d.title, d.body) AGAINST (? IN BOOLEAN MODE) AS score,
    (MATCH (d.title) AGAINST (? IN BOOLEAN MODE) > 0) AS title_match, COUNT(*) OVER () AS total
  FROM search_documents d
  WHERE MATCH (d.title, d.body) AGAINST (? IN BOOLEAN MODE) AND ${READABLE}
  ORDER BY title_match DESC, score DESC, d.modified_date DESC, d.id DESC
  LIMIT ? OFFSET ?`;

// InnoDB: words shorter than 3 characters are optional, stopwords left out (the seeded query has neither).
const STOPWORDS = new Set(
  'a about an are as at be by com de en for from how i in is it la of on or that the this to was what when where who will with und www'.split(
    ' ',
  ),
);

function searchStatement(words, limit, offset) {
  if (!isMysql) {
    const match = words.map((w) => `"${w}"*`).join(' AND ');
    return [SEARCH_SQLITE, [`{title} : (${match})`, match, limit, offset]];
  }
  const kept = words.filter((w) => !STOPWORDS.has(w));
  const long = kept.some((w) => w.length >= 3);
  const against = kept.map((w) => `${w.length >= 3 || !long ? '+' : ''}${w}*`).join(' ');
  return against ? [SEARCH_MYSQL, [against, against, against, limit, offset]] : null;
}

const SUMMARIES = (n) => `SELECT g.guideid, g.authorid, r.revisionid, r.langid, r.date, r.data, u.username
  FROM guides g JOIN guide_revisions r ON r.revisionid = g.revisionid LEFT JOIN users u ON u.userid = g.authorid
  WHERE g.guideid IN (${placeholders(n)})`;

async function guideSummaries(guideids) {
  if (!guideids.length) return new Map();
  const rows = await query(SUMMARIES(guideids.length), guideids);
  const data = rows.map((r) => jsonOf(r.data));
  const images = await imagesByIds(data.map((d) => d.imageid ?? 0));
  return new Map(
    rows.map((row, i) => {
      const d = data[i];
      const guideid = Number(row.guideid);
      return [
        guideid,
        {
          dataType: 'guide',
          guideid,
          locale: row.langid,
          revisionid: Number(row.revisionid),
          modified_date: Number(row.date),
          prereq_modified_date: 0,
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
        },
      ];
    }),
  );
}

const text = (value) => (typeof value === 'string' ? value : '');

async function search(raw, limit, offset) {
  const envelope = { search: raw, limit, offset };
  const words = wordsOf(raw.trim());
  const statement = words.length ? searchStatement(words, limit, offset) : null;
  if (!statement) return { ...envelope, totalResults: 0, moreResults: false, results: [] };
  const hits = await query(...statement);
  const total = hits.length ? Number(hits[0].total) : 0;
  const guides = await guideSummaries(hits.filter((h) => h.doctype === 'GUIDE').map((h) => Number(h.docid)));
  const results = [];
  for (const hit of hits) {
    const snip = mentions(hit.body, words) ? snippet(hit.body, words) : snippet(hit.title, words);
    if (hit.doctype === 'GUIDE') {
      const summary = guides.get(Number(hit.docid));
      if (summary) results.push({ ...summary, snippet: snip });
      continue;
    }
    const data = JSON.parse(hit.data);
    const summary = text(data.summary);
    results.push({
      dataType: 'wiki',
      wikiid: Number(hit.docid),
      namespace: hit.namespace,
      title: text(data.title),
      display_title: text(data.display_title) || text(data.title),
      langid: hit.langid,
      summary,
      text: summary,
      url: text(data.url),
      image: data.image ?? null,
      modified_date: Number(hit.modified_date),
      snippet: snip,
    });
  }
  return { ...envelope, totalResults: total, moreResults: offset + hits.length < total, results };
}

export function registerSearchRoutes(app) {
  app.get('/api/2.0/search/:query', async (request, reply) => {
    const { limit, offset, ...rest } = request.query;
    if (Object.keys(rest).length || request.headers.authorization || request.params.query.includes('"'))
      return reply.code(501).send({ error: 'baseline: anonymous, limit/offset only, no phrases' });
    const raw = request.params.query;
    if (!raw.trim() || [...raw.trim()].length > 200) return reply.code(422).send({ error: true });
    return search(raw, Math.min(200, Math.max(1, Number(limit ?? 20) || 20)), Math.max(0, Number(offset ?? 0) || 0));
  });
}
