import { cleanHtml, escapeHtml, safeUrl, text } from './html';

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

export function guideBody(guide: Json): string {
  const facts = [
    ['Category', guide.category],
    ['Difficulty', guide.difficulty],
    ['Time required', guide.time_required],
    ['Author', guide.username],
  ]
    .filter(([, value]) => value !== undefined && value !== null && value !== '')
    .map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('');
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
