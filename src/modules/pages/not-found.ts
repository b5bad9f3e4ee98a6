import { escapeHtml } from './html';

/* What a 404 page can say: the pages read the API anonymously, so "not found" may also mean "not public". */

export type Missing =
  | { kind: 'guide'; guideid?: string }
  | { kind: 'category' | 'wiki'; title: string }
  | { kind: 'user' }
  | { kind: 'page' };

const home = '<p><a href="/">Browse the categories</a> or <a href="/Guide">all guides</a>.</p>';

/** The body of a 404 page: a heading every 404 page shares, then what this one can tell. */
export function notFoundBody(missing: Missing): string {
  return `<h1>Not found</h1>${explanation(missing)}${home}`;
}

function explanation(missing: Missing): string {
  switch (missing.kind) {
    case 'guide': {
      const api = missing.guideid ? `<code>GET /api/2.0/guides/${escapeHtml(missing.guideid)}</code>` : 'the API';
      return (
        '<p>This guide does not exist or is not public. These pages show what anyone may read; to read a private ' +
        `guide you may see, log in through the API (<code>POST /api/2.0/user/token</code>) and read it with ${api} ` +
        'and your token (see the <a href="/api/2.0/docs">API documentation</a>).</p>'
      );
    }
    case 'category':
      return `<p>There is no category named “${escapeHtml(missing.title)}”.</p>`;
    case 'wiki':
      return `<p>There is no wiki page named “${escapeHtml(missing.title)}”.</p>`;
    case 'user':
      return '<p>There is no user with this id.</p>';
    case 'page':
      return '<p>There is no page at this address.</p>';
  }
}
