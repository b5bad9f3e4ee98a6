import sanitizeHtml from 'sanitize-html';

/** A JSON scalar as text; anything else is empty. */
export const text = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';

/** Text into HTML. */
export const escapeHtml = (value: unknown): string => text(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Only http(s) URLs become links or images. */
export const safeUrl = (value: unknown): string | undefined =>
  typeof value === 'string' && /^https?:\/\//i.test(value) ? value : undefined;

/**
 * The API's `*_rendered` HTML is already sanitized; pages sanitize it again with a short allow-list, so a
 * page can never carry script whatever the API returns.
 */
export const cleanHtml = (html: unknown): string =>
  sanitizeHtml(typeof html === 'string' ? html : '', {
    allowedTags: [
      ...['p', 'br', 'strong', 'em', 'b', 'i', 'u', 's', 'sub', 'sup', 'code', 'pre', 'blockquote', 'hr', 'span'],
      ...[
        'h1',
        'h2',
        'h3',
        'h4',
        'h5',
        'h6',
        'ul',
        'ol',
        'li',
        'a',
        'img',
        'table',
        'thead',
        'tbody',
        'tr',
        'th',
        'td',
      ],
    ],
    allowedAttributes: { a: ['href', 'rel', 'title'], img: ['src', 'alt', 'width', 'height'], '*': ['class'] },
    allowedSchemes: ['http', 'https', 'mailto'],
  });

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#222}
img{max-width:100%;height:auto}header a,footer a{color:#0366d6}ol.steps>li{margin:1.5rem 0}
ul.lines{padding-left:1.2rem}.level-1{margin-left:1.5rem}.level-2{margin-left:3rem}
.bullet-icon_caution,.bullet-red{color:#b00}.bullet-icon_note{color:#036}figure{margin:.5rem 0}
dl{display:grid;grid-template-columns:max-content auto;gap:.2rem 1rem}footer{margin-top:3rem;font-size:.9rem}
header{display:flex;gap:1rem;align-items:baseline}header .site{font-weight:600}
nav.breadcrumbs ol{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.3rem;font-size:.9rem}
nav.breadcrumbs li+li::before{content:"›";margin-right:.3rem;color:#888}
ul.guides{list-style:none;padding:0}ul.guides li{display:flex;align-items:center;gap:.6rem;margin:.4rem 0}`;

/** A whole page: `body` must already be safe HTML. */
export function page(title: string, body: string, jsonUrl?: string, description?: string): string {
  const summary = description ? `<meta name="description" content="${escapeHtml(description)}">` : '';
  const json = jsonUrl ? `<a href="${escapeHtml(jsonUrl)}" rel="alternate" type="application/json">JSON</a> · ` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>${summary}<link rel="icon" href="data:,"><style>${STYLE}</style></head>
<body><header><a class="site" href="/">Repair Guide Content Service</a> <a href="/Guide">All guides</a></header>
<main>${body}</main>
<footer>${json}<a href="/api/2.0/docs">API documentation</a></footer></body></html>
`;
}

/** Breadcrumbs: `[text, href]` from the home page down; the last one is the current page (no link). */
export function breadcrumbs(trail: [text: string, href: string | undefined][]): string {
  const items = trail.map(([name, href], index) =>
    index === trail.length - 1
      ? `<li aria-current="page">${escapeHtml(name)}</li>`
      : `<li>${href ? `<a href="${escapeHtml(href)}">${escapeHtml(name)}</a>` : escapeHtml(name)}</li>`,
  );
  return `<nav class="breadcrumbs" aria-label="Breadcrumbs"><ol>${items.join('')}</ol></nav>`;
}
