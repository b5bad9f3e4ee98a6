import { parseWikiText, renderDoc } from '../../wikitext';
import type { WikiDoc, WikiTextResolver } from '../../wikitext';
import { deepFreeze } from '../../common/deep-freeze';

type LookupKind = keyof WikiTextResolver;
type AnyLookup = (...args: unknown[]) => unknown;

/** One resolver call made while rendering, with its answer as JSON. */
interface Lookup {
  kind: LookupKind;
  args: unknown[];
  answer: string;
}

interface Entry {
  doc: WikiDoc;
  html?: string;
  lookups?: Lookup[];
  size: number;
}

const LOOKUP_KINDS: LookupKind[] = ['guide', 'document', 'wiki', 'image', 'product'];

const lookUp = (resolver: WikiTextResolver, kind: LookupKind, args: unknown[]): unknown =>
  (resolver[kind] as AnyLookup | undefined)?.(...args);
const asAnswer = (value: unknown): string => JSON.stringify(value ?? null);

/** A resolver that answers as `resolver` does and records every call. */
function recording(resolver: WikiTextResolver, lookups: Lookup[]): WikiTextResolver {
  const recorder: Partial<Record<LookupKind, AnyLookup>> = {};
  for (const kind of LOOKUP_KINDS) {
    recorder[kind] = (...args) => {
      const value = lookUp(resolver, kind, args);
      lookups.push({ kind, args, answer: asAnswer(value) });
      return value;
    };
  }
  return recorder as WikiTextResolver;
}

/**
 * Parsed trees and rendered HTML of recently shown wiki texts, keyed by the text. Parsing depends on the
 * text alone; rendering also on what the resolver answers, so a cached rendering is reused only while the
 * resolver gives the same answers to every lookup that rendering made (a renamed guide or a replaced
 * image renders again). The least recently used texts go first once the cached ones exceed the budget.
 */
export class WikiTextCache {
  private readonly entries = new Map<string, Entry>();
  private size = 0;

  constructor(
    /** Characters of text and HTML kept (trees take about ten bytes per text character on top). */
    private readonly budget = 2_000_000,
  ) {}

  /** The (frozen) tree of a text. */
  doc(text: string): WikiDoc {
    return this.entry(text).doc;
  }

  /** Sanitized HTML of a text as `resolver` resolves its references (reused while its answers stay the same). */
  html(text: string, resolver: WikiTextResolver): string {
    const entry = this.entry(text);
    const { html: cached, lookups: made = [] } = entry;
    if (cached !== undefined && made.every((l) => asAnswer(lookUp(resolver, l.kind, l.args)) === l.answer)) {
      return cached;
    }
    const lookups: Lookup[] = [];
    const html = renderDoc(entry.doc, recording(resolver, lookups));
    this.size += html.length - (entry.html?.length ?? 0);
    entry.html = html;
    entry.lookups = lookups;
    entry.size = text.length + html.length;
    this.evict();
    return html;
  }

  private entry(text: string): Entry {
    let entry = this.entries.get(text);
    if (entry) {
      // Map order is insertion order: re-inserting marks the text as recently used.
      this.entries.delete(text);
      this.entries.set(text, entry);
      return entry;
    }
    entry = { doc: deepFreeze(parseWikiText(text)), size: text.length };
    this.entries.set(text, entry);
    this.size += entry.size;
    this.evict();
    return entry;
  }

  private evict(): void {
    for (const [text, entry] of this.entries) {
      if (this.size <= this.budget || this.entries.size <= 1) return;
      this.entries.delete(text);
      this.size -= entry.size;
    }
  }
}
