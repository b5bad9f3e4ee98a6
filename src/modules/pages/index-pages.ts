import { wikiPath } from '../wikis/wiki-namespaces';
import { escapeHtml, safeUrl, text } from './html';

/* The home page and the guide list, from the API's anonymous answers (GET /categories, GET /guides). */

type Json = Record<string, unknown>;

/** Guides per page of /Guide. */
export const GUIDES_PER_PAGE = 50;
/** Newest guides on the home page. */
export const RECENT_GUIDES = 10;

/** `?page=` of /Guide: a positive integer (1 when absent), undefined when malformed or absurdly deep. */
export function pageNumber(raw: unknown): number | undefined {
  if (raw === undefined) return 1;
  if (typeof raw !== 'string' || !/^[1-9]\d{0,5}$/.test(raw)) return undefined;
  return Number(raw);
}

/** A guide summary as a list item linking its page. */
export function guideItem(guide: Json): string {
  const url = safeUrl(guide.url);
  const title = escapeHtml(guide.title);
  const image = safeUrl((guide.image as Json | null)?.thumbnail);
  const picture = image ? `<img src="${escapeHtml(image)}" alt="" width="96" height="72"> ` : '';
  const category = text(guide.category) ? ` <small>${escapeHtml(guide.category)}</small>` : '';
  return `<li class="guide">${picture}${url ? `<a href="${escapeHtml(url)}">${title}</a>` : title}${category}</li>`;
}

/** A list of guide summaries (or search results: light objects of the same fields), with page links. */
export function guideListBody(guides: Json[], page: number, hasNext: boolean, heading = 'Repair guides'): string {
  const items = guides.map(guideItem).join('');
  const links = [
    page > 1 ? `<a rel="prev" href="/Guide${page > 2 ? `?page=${page - 1}` : ''}">Previous</a>` : '',
    hasNext ? `<a rel="next" href="/Guide?page=${page + 1}">Next</a>` : '',
  ].filter(Boolean);
  return (
    `<h1 class="page-title"><span>${escapeHtml(heading)}</span></h1>` +
    (items ? `<ul class="guides">${items}</ul>` : '<p>Nothing on this page.</p>') +
    (links.length ? `<nav class="pages">${links.join(' · ')}</nav>` : '')
  );
}

/** Top categories (keys of the category tree), a search box and the newest guides. */
export function homeBody(tree: Json, recent: Json[]): string {
  const categories = Object.keys(tree)
    .map((title) => {
      const href = wikiPath('CATEGORY', title);
      return `<li><a class="featured-category-item" href="${escapeHtml(href)}">${escapeHtml(title)}</a></li>`;
    })
    .join('');
  return (
    '<h1 class="page-title"><span>Repair guides</span></h1>' +
    '<form action="/Search" method="get" role="search"><label>Search <input type="search" name="query">' +
    '</label> <button type="submit">Search</button></form>' +
    `<h2>Categories</h2>${categories ? `<ul class="categories">${categories}</ul>` : '<p>No categories yet.</p>'}` +
    `<h2>Recent guides</h2>${recent.length ? `<ul class="guides">${recent.map(guideItem).join('')}</ul>` : '<p>No guides yet.</p>'}` +
    '<p><a href="/Guide">All guides</a></p>'
  );
}
