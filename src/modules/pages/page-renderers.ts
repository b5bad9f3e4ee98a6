import { wikiPath } from '../wikis/wiki-namespaces';
import { breadcrumbs, cleanHtml, escapeHtml, safeUrl, text } from './html';
import { guideItem } from './index-pages';

/* Each renderer takes the API's JSON answer for the document (already filtered by its visibility rules). */

type Json = Record<string, unknown>;
const object = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

function image(value: unknown, alt: string, size = 'standard'): string {
  const src = safeUrl(object(value)[size]);
  return src ? `<figure><img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}"></figure>` : '';
}

function items(heading: string, values: unknown): string {
  const rows = list(values).map((item) => {
    const name = escapeHtml(item.text);
    const url = safeUrl(item.url);
    const quantity = Number(item.quantity) > 1 ? ` × ${Number(item.quantity)}` : '';
    return `<li>${url ? `<a href="${escapeHtml(url)}">${name}</a>` : name}${quantity}</li>`;
  });
  return rows.length ? `<h2>${heading}</h2><ul>${rows.join('')}</ul>` : '';
}

/** A fact of the guide's `<dl>`: text, linked when `href` is given. */
function fact(name: string, value: unknown, href?: string): string {
  if (value === undefined || value === null || value === '') return '';
  const shown = href ? `<a href="${escapeHtml(href)}">${escapeHtml(value)}</a>` : escapeHtml(value);
  return `<dt>${escapeHtml(name)}</dt><dd>${shown}</dd>`;
}

export function guideBody(guide: Json): string {
  // A guide names its category by title; its page is where the API's category `url` fields point.
  const category = text(guide.category);
  const categoryHref = category ? wikiPath('CATEGORY', category) : undefined;
  const facts = [
    fact('Category', category, categoryHref),
    fact('Difficulty', guide.difficulty),
    fact('Time required', guide.time_required),
    fact('Author', guide.username, safeUrl(object(guide.author).url)),
  ].join('');
  const steps = list(guide.steps).map((step, index) => {
    const title = escapeHtml(step.title || `Step ${index + 1}`);
    const media = object(step.media);
    const images = media.type === 'image' ? list(media.data).map((data) => image(data, text(step.title))) : [];
    const lines = list(step.lines).map(
      (line) =>
        `<li class="bullet-${escapeHtml(line.bullet)} level-${Number(line.level) || 0}">${cleanHtml(line.text_rendered)}</li>`,
    );
    return `<li><h3>${title}</h3>${images.join('')}<ul class="lines">${lines.join('')}</ul></li>`;
  });
  return [
    breadcrumbs([
      ['Home', '/'],
      ...(category ? [[category, categoryHref] as [string, string | undefined]] : []),
      [text(guide.title), undefined],
    ]),
    `<h1>${escapeHtml(guide.title)}</h1>`,
    image(guide.image, text(guide.title)),
    guide.summary ? `<p><em>${escapeHtml(guide.summary)}</em></p>` : '',
    facts ? `<dl>${facts}</dl>` : '',
    cleanHtml(guide.introduction_rendered),
    items('Tools', guide.tools),
    items('Parts', guide.parts),
    steps.length ? `<h2>Steps</h2><ol class="steps">${steps.join('')}</ol>` : '',
    guide.conclusion_rendered ? `<h2>Conclusion</h2>${cleanHtml(guide.conclusion_rendered)}` : '',
  ].join('\n');
}

/** A linked list of light objects (`url`, `display_title` or `title`), or nothing when empty. */
function links(heading: string, className: string, values: unknown, href: string, name: (item: Json) => string) {
  const rows = list(values).map((item) => {
    const url = safeUrl(item[href]);
    const label = escapeHtml(name(item));
    return `<li>${url ? `<a href="${escapeHtml(url)}">${label}</a>` : label}</li>`;
  });
  return rows.length ? `<h2>${heading}</h2><ul class="${className}">${rows.join('')}</ul>` : '';
}

/** A category: breadcrumbs of its ancestors, its text, child categories, guides, and the parts and tools they use. */
export function categoryBody(category: Json): string {
  const title = text(category.display_title) || text(category.title);
  const label = (item: Json) => text(item.display_title) || text(item.title);
  // The API lists ancestors closest parent first; breadcrumbs run from the top.
  const ancestors = list(category.ancestors)
    .reverse()
    .map((ancestor): [string, string | undefined] => [label(ancestor), safeUrl(ancestor.url)]);
  const children = links('Categories', 'categories', category.children, 'url', label);
  const guides = list(category.guides).map(guideItem).join('');
  return [
    breadcrumbs([['Home', '/'], ...ancestors, [title, undefined]]),
    `<h1>${escapeHtml(title)}</h1>`,
    image(category.image, title),
    category.description ? `<p><em>${escapeHtml(category.description)}</em></p>` : '',
    cleanHtml(category.contents_rendered),
    children,
    guides ? `<h2>Guides</h2><ul class="guides">${guides}</ul>` : children ? '' : '<p>No guides yet.</p>',
    links('Parts', 'parts', object(category.parts).categories, 'url', (part) => text(part.name)),
    links('Tools', 'tools', category.tools, 'target_url', (tool) => text(tool.title)),
  ].join('\n');
}

export function wikiBody(wiki: Json): string {
  const title = text(wiki.display_title) || text(wiki.title);
  return [
    `<h1>${escapeHtml(title)}</h1>`,
    `<p>${escapeHtml(wiki.namespace)}</p>`,
    image(wiki.image, title),
    cleanHtml(wiki.contents_rendered),
  ].join('\n');
}

export function userBody(user: Json): string {
  return [
    `<h1>${escapeHtml(user.username)}</h1>`,
    image(user.image, text(user.username), 'thumbnail'),
    user.summary ? `<p>${escapeHtml(user.summary)}</p>` : '',
    `<dl><dt>Reputation</dt><dd>${escapeHtml(user.reputation ?? 0)}</dd>` +
      `<dt>Member since</dt><dd>${escapeHtml(new Date(Number(user.join_date) * 1000).toISOString().slice(0, 10))}</dd></dl>`,
    cleanHtml(user.about_rendered),
  ].join('\n');
}
