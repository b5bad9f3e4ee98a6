// The search workload (issue #20): GET /search/{two words}?limit=20, anonymous, over 10,000 guides, the
// category wikis and --wikis INFO pages, every one of them in the service's index (seed-search.mjs).
// Targets: requests/s ≥ 0.6× the baseline, p99 ≤ 2× the baseline's, ≤ 3 SQL statements per request.
import { SEARCH_QUERY } from './seed-search.mjs';

export const SEARCH_WORKLOADS = ['search'];
export const SEARCH_TARGETS = { search: { sql: 3, ratio: 0.6, p99: 2 } };
/** Only when asked for (`--workloads search`): the index rebuild takes minutes, and the baseline does not pin
 * guides to live releases (the enterprise data set has some). */
export const searchSelected = (options) => Boolean(options.workloads?.includes('search'));

/**
 * What the index holds, and how many documents match the query by the engine itself (read by the bench
 * from the index tables, not through either server): the service's totalResults must equal it.
 */
export async function indexFacts(db, settings) {
  const rows = await db.query(
    'SELECT doctype, namespace, COUNT(*) AS n FROM search_documents GROUP BY doctype, namespace ORDER BY doctype, namespace',
  );
  const words = SEARCH_QUERY.split(' ');
  const [match] =
    settings.type === 'sqlite'
      ? await db.query('SELECT COUNT(*) AS n FROM search_fts WHERE search_fts MATCH ?', [
          words.map((w) => `"${w}"*`).join(' AND '),
        ])
      : await db.query(
          'SELECT COUNT(*) AS n FROM search_documents WHERE MATCH (title, body) AGAINST (? IN BOOLEAN MODE)',
          [words.map((w) => `+${w}*`).join(' ')],
        );
  const [docs] = await db.query(
    'SELECT (SELECT COUNT(*) FROM guides WHERE deleted = 0) + (SELECT COUNT(*) FROM wikis WHERE deleted = 0) AS n',
  );
  const byKind = Object.fromEntries(rows.map((r) => [`${r.doctype}/${r.namespace}`, Number(r.n)]));
  return {
    byKind,
    rows: rows.reduce((s, r) => s + Number(r.n), 0),
    documents: Number(docs.n),
    matches: Number(match.n),
  };
}

export function buildSearchWorkloads(options, facts) {
  if (!searchSelected(options)) return [];
  const expectedRows = facts.documents; // every guide and wiki, in its one (source) language
  if (facts.rows !== expectedRows)
    throw new Error(
      `the search index holds ${facts.rows} rows, expected ${expectedRows}: ${JSON.stringify(facts.byKind)}`,
    );
  if (facts.matches <= 20 || facts.matches >= expectedRows)
    throw new Error(
      `"${SEARCH_QUERY}" matches ${facts.matches} of ${expectedRows} indexed documents: not a realistic query`,
    );
  return [
    {
      name: 'search',
      title:
        `GET /search/${SEARCH_QUERY}?limit=20 (anonymous; ${facts.matches} of ${expectedRows} indexed documents match: ` +
        `${options.guides} guides, ${options.categories} category wikis, ${options.wikis} INFO wikis)`,
      paths: [`/api/2.0/search/${encodeURIComponent(SEARCH_QUERY)}?limit=20`],
      verify: (body) => {
        if (body.search !== SEARCH_QUERY || body.limit !== 20 || body.offset !== 0)
          throw new Error(`not the envelope of the query: ${JSON.stringify(body).slice(0, 200)}`);
        if (body.totalResults !== facts.matches)
          throw new Error(`totalResults ${body.totalResults}, but the index itself matches ${facts.matches} documents`);
        if (!Array.isArray(body.results) || body.results.length !== 20 || !body.moreResults)
          throw new Error(`expected a full page of 20 results, got ${body.results?.length}`);
        for (const r of body.results) {
          if (!r.snippet?.includes('<mark>'))
            throw new Error(`result without a marked snippet: ${JSON.stringify(r).slice(0, 200)}`);
          if (r.dataType === 'guide' && !(r.title && r.url && r.image))
            throw new Error(`guide ${r.guideid} is not a summary`);
          if (r.dataType === 'wiki' && !(r.wikiid && r.url)) throw new Error(`wiki ${r.wikiid} is not a light object`);
        }
        const guides = body.results.filter((r) => r.dataType === 'guide').length;
        if (!guides || guides === 20)
          throw new Error(`the page holds ${guides} guides of 20: it should hold guides and wikis`);
        return `${body.totalResults} matches (= the index's own count), a page of ${guides} guide(s) and ${20 - guides} wiki(s)`;
      },
    },
  ];
}
