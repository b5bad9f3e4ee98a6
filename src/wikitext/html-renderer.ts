import { MAX_NESTING_DEPTH } from './limits';
import { MarkType, NodeType, hasMark, linkHref, linkTarget, numberAttr, sortMarks, stringAttr } from './schema';
import { sanitizeRenderedHtml } from './sanitize-policy';
import { plainTextOf } from './tree-text';
import { safeImageUrl, safeUrl } from './url-policy';
import { atomSyntax } from './wiki-serializer';
import type { ResolvedLink, WikiDoc, WikiMark, WikiNode, WikiTextResolver } from './types';

const MARK_TAGS: Record<string, string> = {
  [MarkType.em]: 'em',
  [MarkType.strong]: 'strong',
  [MarkType.underline]: 'u',
  [MarkType.strikethrough]: 's',
  [MarkType.subscript]: 'sub',
  [MarkType.superscript]: 'sup',
  [MarkType.code]: 'code',
};

const IMAGE_ALIGNMENTS = new Set(['left', 'right', 'center']);
const DEFAULT_IMAGE_SIZE = 'standard';
const MAX_RENDER_DEPTH = MAX_NESTING_DEPTH * 3;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function anchor(href: string, label: string, newWindow: boolean, className?: string): string {
  const classAttr = className ? ` class="${className}"` : '';
  const target = newWindow ? ' target="_blank"' : '';
  return `<a href="${escapeHtml(href)}"${classAttr} rel="nofollow noopener noreferrer"${target}>${label}</a>`;
}

class HtmlRenderer {
  constructor(private readonly resolver: WikiTextResolver) {}

  private openTag(mark: WikiMark): string {
    if (mark.type === MarkType.link) {
      const href = escapeHtml(safeUrl(linkHref(mark)) ?? '');
      const target = linkTarget(mark) === '_blank' ? ' target="_blank"' : '';
      return `<a href="${href}" rel="nofollow noopener noreferrer"${target}>`;
    }
    return `<${MARK_TAGS[mark.type]}>`;
  }

  private closeTag(mark: WikiMark): string {
    return mark.type === MarkType.link ? '</a>' : `</${MARK_TAGS[mark.type]}>`;
  }

  /** Marks that produce markup: known formatting marks and links with a safe URL. */
  private renderableMarks(node: WikiNode): WikiMark[] {
    const marks: WikiMark[] = [];
    for (const mark of node.marks ?? []) {
      if (!mark || typeof mark.type !== 'string') continue;
      if (mark.type === MarkType.link) {
        if (node.type !== NodeType.text || safeUrl(linkHref(mark)) === null) continue;
      } else if (MARK_TAGS[mark.type] === undefined) {
        continue;
      }
      if (!hasMark(marks, mark)) marks.push(mark);
    }
    return sortMarks(marks);
  }

  private reference(node: WikiNode, resolved: ResolvedLink | undefined): string {
    const text = stringAttr(node, 'text');
    const url = resolved ? safeUrl(resolved.url) : null;
    if (resolved && url) {
      const label = text && text.trim() !== '' ? text : resolved.title;
      return anchor(url, escapeHtml(label), false);
    }
    // Unknown target: the link text, or the markup itself when there is none.
    return escapeHtml(text && text.trim() !== '' ? text : atomSyntax(node));
  }

  private image(node: WikiNode, block: boolean): string {
    const id = numberAttr(node, 'imageid');
    const resolved = id === null ? undefined : this.resolver.image?.(id);
    const size = stringAttr(node, 'size') ?? DEFAULT_IMAGE_SIZE;
    let src: string | null = null;
    if (resolved && resolved.urls && typeof resolved.urls === 'object') {
      const urls = resolved.urls;
      src = safeImageUrl(urls[size] ?? urls[DEFAULT_IMAGE_SIZE] ?? Object.values(urls)[0]);
    }
    if (src === null) src = safeImageUrl(stringAttr(node, 'src'));
    if (src === null) return '';
    const align = stringAttr(node, 'align');
    const classes = ['wiki-image'];
    if (align && IMAGE_ALIGNMENTS.has(align)) classes.push(`align-${align}`);
    if (/^[A-Za-z0-9_]{1,32}$/.test(size)) classes.push(`size-${size}`);
    const img = `<img src="${escapeHtml(src)}" alt="">`;
    const tag = block ? 'figure' : 'span';
    return `<${tag} class="${classes.join(' ')}">${img}</${tag}>`;
  }

  private atom(node: WikiNode): string {
    const r = this.resolver;
    switch (node.type) {
      case NodeType.hardBreak:
        return '<br>';
      case NodeType.image:
        return this.image(node, false);
      case NodeType.guideLink: {
        const id = numberAttr(node, 'guideid');
        return this.reference(node, id === null ? undefined : r.guide?.(id));
      }
      case NodeType.documentLink: {
        const id = numberAttr(node, 'documentid');
        return this.reference(node, id === null ? undefined : r.document?.(id));
      }
      case NodeType.wikiLink: {
        const namespace = stringAttr(node, 'namespace');
        const title = stringAttr(node, 'title');
        return this.reference(node, namespace && title ? r.wiki?.(namespace, title) : undefined);
      }
      case NodeType.productLink: {
        const code = stringAttr(node, 'code');
        return this.reference(node, code ? r.product?.(code) : undefined);
      }
      case NodeType.video: {
        const src = stringAttr(node, 'src') ?? '';
        const url = safeUrl(src, ['http', 'https']);
        return url ? anchor(url, escapeHtml(url), true, 'wiki-video') : escapeHtml(src);
      }
      default:
        return escapeHtml(plainTextOf(node));
    }
  }

  inline(nodes: WikiNode[]): string {
    const out: string[] = [];
    const active: WikiMark[] = [];
    for (const node of nodes) {
      if (!node || typeof node !== 'object') continue;
      const marks = this.renderableMarks(node);
      let keep = 0;
      while (keep < active.length && keep < marks.length && hasMark([marks[keep]], active[keep])) keep++;
      while (active.length > keep) out.push(this.closeTag(active.pop() as WikiMark));
      for (let k = keep; k < marks.length; k++) {
        out.push(this.openTag(marks[k]));
        active.push(marks[k]);
      }
      if (node.type === NodeType.text) out.push(escapeHtml(typeof node.text === 'string' ? node.text : ''));
      else out.push(this.atom(node));
    }
    while (active.length > 0) out.push(this.closeTag(active.pop() as WikiMark));
    return out.join('');
  }

  private paragraph(node: WikiNode): string {
    const content = Array.isArray(node.content) ? node.content : [];
    if (content.length === 0) return '';
    const imagesOnly = content.every(
      (child) =>
        child.type === NodeType.image ||
        child.type === NodeType.hardBreak ||
        (child.type === NodeType.text && (child.text ?? '').trim() === ''),
    );
    if (imagesOnly && content.some((child) => child.type === NodeType.image)) {
      return content
        .filter((child) => child.type === NodeType.image)
        .map((child) => this.image(child, true))
        .join('');
    }
    return `<p>${this.inline(content)}</p>`;
  }

  private listItem(node: WikiNode, depth: number): string {
    const children = Array.isArray(node.content) ? node.content : [];
    const parts = children.map((child, index) =>
      index === 0 && child.type === NodeType.paragraph
        ? this.inline(child.content ?? [])
        : this.block(child, depth + 1),
    );
    return `<li>${parts.join('')}</li>`;
  }

  private blockquote(node: WikiNode, depth: number): string {
    const format = stringAttr(node, 'format');
    const formatClass = format && /^[a-z_]{1,32}$/.test(format) ? format : 'long';
    const attribute = node.attrs?.attribute ?? node.attrs?.attribution;
    let cite = '';
    if (attribute && typeof attribute === 'object') {
      const inner = this.inline((attribute as WikiNode).content ?? []);
      if (inner !== '') cite = `<p class="wiki-quote-attribution"><cite>${inner}</cite></p>`;
    } else if (typeof attribute === 'string' && attribute !== 'null' && attribute.trim() !== '') {
      cite = `<p class="wiki-quote-attribution"><cite>${escapeHtml(attribute)}</cite></p>`;
    }
    const body = this.blocks(node.content ?? [], depth + 1);
    return `<blockquote class="wiki-quote wiki-quote-${formatClass}">${body}${cite}</blockquote>`;
  }

  block(node: WikiNode, depth: number): string {
    if (!node || typeof node !== 'object') return '';
    if (depth > MAX_RENDER_DEPTH) {
      const text = plainTextOf(node);
      return text.trim() === '' ? '' : `<p>${escapeHtml(text)}</p>`;
    }
    switch (node.type) {
      case NodeType.paragraph:
        return this.paragraph(node);
      case NodeType.heading: {
        const level = Math.min(6, Math.max(2, numberAttr(node, 'level') ?? 2));
        return `<h${level}>${this.inline(node.content ?? [])}</h${level}>`;
      }
      case NodeType.bulletList:
      case NodeType.orderedList: {
        const tag = node.type === NodeType.bulletList ? 'ul' : 'ol';
        const items = (node.content ?? []).map((item) =>
          item.type === NodeType.listItem ? this.listItem(item, depth) : `<li>${this.block(item, depth + 1)}</li>`,
        );
        return `<${tag}>${items.join('')}</${tag}>`;
      }
      case NodeType.listItem:
        return this.listItem(node, depth);
      case NodeType.codeBlock:
        return `<pre><code>${escapeHtml(plainTextOf(node))}</code></pre>`;
      case NodeType.blockquote:
        return this.blockquote(node, depth);
      case NodeType.image:
        return this.image(node, true);
      default:
        if (Array.isArray(node.content) && node.type !== NodeType.text) return this.blocks(node.content, depth + 1);
        return `<p>${this.inline([node])}</p>`;
    }
  }

  blocks(nodes: WikiNode[], depth: number): string {
    const parts: string[] = [];
    for (const node of nodes) parts.push(this.block(node, depth));
    return parts.join('');
  }
}

/** Renders a document tree to HTML, unsanitized (exported for tests of the second defence). */
export function renderDocUnsanitized(doc: WikiDoc, resolver: WikiTextResolver = {}): string {
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.content)) return '';
  return new HtmlRenderer(resolver).blocks(doc.content, 0);
}

/** Renders a document tree to sanitized HTML. References resolve through `resolver`. */
export function renderDoc(doc: WikiDoc, resolver: WikiTextResolver = {}): string {
  return sanitizeRenderedHtml(renderDocUnsanitized(doc, resolver));
}
