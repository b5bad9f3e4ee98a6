import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { requestContext } from '../../common/context/request-context';
import { JsonText } from '../../common/http/json-text';
import { Clock } from '../clock/clock';
import { ContentVersions, documentTokenName, type AnswerToken } from '../versions/content-versions';
import { KeptCopies } from '../versions/kept-copies';

/**
 * An answer as the JSON text sent, with its entity tag when its reader knows one; `until` (the Clock's
 * milliseconds) when time alone changes it then (a due date passing), as it does from before the moment it was
 * built.
 */
export interface CachedAnswer {
  json: string;
  etag?: string;
  until?: number;
}

interface Kept extends CachedAnswer {
  built: number;
}

/**
 * What a cached answer is kept under: the token `family`, or for one document's answer (`document`) that token
 * and the document's (documentTokenName), so a write of another document keeps it. A reader whose answer shows
 * other documents as well (showsOtherDocuments) has it kept under `othersFamily` instead, which every write of
 * those documents replaces.
 */
export interface CacheScope {
  family: AnswerToken;
  document?: { id: string; othersFamily: AnswerToken };
}

/** Which cached answer a request was served (its JSON text as kept). */
export interface ServedAnswer {
  key: string;
  scope: CacheScope;
  json: string;
}

/**
 * Which of its scope's tokens an answer follows: `own` (the family's, and its document's when it has one), or
 * `others` (the scope's othersFamily, for a document's answer that shows other documents).
 */
type TokensFollowed = 'own' | 'others';

/**
 * The tokens of a scope one statement read, per what an answer may follow: null when nothing may be kept, absent
 * when not read (the answer kept under the key follows the others).
 */
type ScopeVersions = Partial<Record<TokensFollowed, string | null>>;

/** What a cached answer for a signed-in caller is kept per: the caller and their privileges. */
export const callerKey = (caller: AuthenticatedUser): string => `${caller.userid}|${caller.privileges.join(',')}`;

const sameScope = (a: CacheScope, b: CacheScope): boolean =>
  a.family === b.family && a.document?.id === b.document?.id && a.document?.othersFamily === b.document?.othersFamily;

/** What an answer is kept under: which tokens it follows and their values; `unread` matches no read. */
const keptVersion = (followed: TokensFollowed, version: string | null): string | null =>
  version === null ? null : `${followed} ${version}`;

/**
 * At most this many answers, of about this many bytes of JSON text in all (one byte a character for the
 * Latin-1 text of most answers, two otherwise).
 */
const KEPT_ANSWERS = 4_000;
const KEPT_ANSWER_BYTES = 64 * 1024 * 1024;

/**
 * Whole answers that depend on stored content only, kept per instance under their route's tokens (CacheScope).
 * Their routes register the tables they are built from (src/database/answer-sources.ts), and any write that
 * changes rows of one replaces the token (or, for one document's rows, that document's), on whichever instance.
 */
@Injectable()
export class ResponseCache {
  private readonly copies = new KeptCopies<Kept>(KEPT_ANSWERS, {
    bytes: KEPT_ANSWER_BYTES,
    sizeOf: (answer) => answer.json.length + 200,
  });
  /** null: more than one. */
  private readonly served = new WeakMap<object, ServedAnswer | null>();
  /** When the answer being built for a request stops being true with time alone (expiresAt). */
  private readonly expiries = new WeakMap<object, number>();
  /** Requests whose answer shows other documents than the one it is kept for (showsOtherDocuments). */
  private readonly widened = new WeakSet<object>();
  /** The versions peek() read for a request, that request's statistics the key. */
  private readonly reads = new WeakMap<object, { scope: CacheScope; read: ScopeVersions }>();

  /** ANSWER_CACHE: off, every answer is built (the switch the benchmark's uncached reads run with). */
  readonly enabled: boolean;

  constructor(
    private readonly versions: ContentVersions,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.enabled = config.answerCache;
  }

  /**
   * The answer kept under `key` while the scope's tokens are the ones it was kept under (and the clock in its time
   * span); else `build`'s, kept. The tokens are read first (whatever is read after it is as new or newer), and with read
   * replicas the answer is built from the primary (a replica behind the one that gave the token must not be the
   * source of an answer kept under it). Within a transaction nothing is kept (its rows may be its own uncommitted
   * writes). For a caller without Authorization, `key` must follow from the URL alone: ResponseCacheFront answers
   * a URL again with the answer kept under the key it was once served.
   */
  async serve(key: string, build: () => Promise<CachedAnswer>, scope: CacheScope): Promise<CachedAnswer> {
    const context = requestContext.current();
    if (context?.tx || !this.enabled) return build();
    const read = this.takeRead(context?.stats, scope) ?? (await this.readVersions(key, scope));
    let answer: CachedAnswer | undefined = this.kept(key, read);
    if (!answer) {
      const built = this.clock.now();
      answer = await requestContext.onPrimary(build);
      const stats = requestContext.current()?.stats;
      const followed: TokensFollowed = stats && this.widened.has(stats) ? 'others' : 'own';
      // Read for the other tokens (a guide's prerequisites came or went): kept under none, so that the next read
      // reads the ones it follows.
      const version = keptVersion(followed, read[followed] === undefined ? 'unread' : read[followed]);
      // An answer that is already out of its time span (notKept) is served once.
      if (answer.until === undefined || answer.until > built)
        this.copies.keepCommitted(key, version, { ...answer, built });
    }
    this.noteServed({ key, scope, json: answer.json });
    return answer;
  }

  /**
   * The answer kept under `key` and `scope` now, if any: one statement (the tokens), nothing built. For
   * ResponseCacheFront, which serves URLs answered before.
   */
  async peek(key: string, scope: CacheScope): Promise<CachedAnswer | undefined> {
    const context = requestContext.current();
    if (context?.tx || !this.enabled) return undefined;
    const read = await this.readVersions(key, scope);
    const kept = this.kept(key, read);
    // A miss goes on to the route, whose serve() takes this read as its own first one.
    if (!kept && context) this.reads.set(context.stats, { scope, read });
    return kept;
  }

  /** The cached answer the current request was served, when it was served exactly one. */
  servedNow(): ServedAnswer | undefined {
    const stats = requestContext.current()?.stats;
    return (stats && this.served.get(stats)) ?? undefined;
  }

  /**
   * `build`'s answer (a DTO, or JsonText when its mapper wrote the text), kept as serve() keeps answers under
   * `scope`: `key` names everything the answer depends on that is not in its tokens' tables (the caller, the URL).
   */
  keep(key: string, scope: CacheScope, build: () => Promise<unknown>): Promise<CachedAnswer> {
    return this.serve(
      key,
      async () => {
        const value = await build();
        const stats = requestContext.current()?.stats;
        const until = stats && this.expiries.get(stats);
        if (stats) this.expiries.delete(stats);
        if (value instanceof JsonText) return { json: value.text, etag: value.etag, until };
        return { json: JSON.stringify(value), until };
      },
      scope,
    );
  }

  /**
   * Called by a reader of one document's answer (CacheScope.document) that shows other documents too (a guide's
   * prerequisites): the answer is kept under the scope's `othersFamily`, which a write of any document replaces.
   */
  showsOtherDocuments(): void {
    const stats = requestContext.current()?.stats;
    if (stats) this.widened.add(stats);
  }

  /** Called by a reader whose answer depends on more than stored content (an outside service): it is not kept. */
  notKept(): void {
    this.expiresAt(Number.MIN_SAFE_INTEGER);
  }

  /**
   * Called by a reader whose answer changes at `ms` (the Clock's milliseconds) without any write (a due date
   * passing): an answer kept from this request is served until then only. The earliest of several calls holds.
   */
  expiresAt(ms: number): void {
    const stats = requestContext.current()?.stats;
    if (!stats) return;
    const earlier = this.expiries.get(stats);
    this.expiries.set(stats, earlier === undefined ? ms : Math.min(earlier, ms));
  }

  /** The answer kept under `key` if it was kept under tokens as `read` has them, while in its time span. */
  private kept(key: string, read: ScopeVersions): Kept | undefined {
    const versions = (['own', 'others'] as const).filter((followed) => read[followed] !== undefined);
    const kept = versions.map((followed) => this.copies.get(key, keptVersion(followed, read[followed]!))).find(Boolean);
    if (!kept || kept.until === undefined) return kept;
    const now = this.clock.now();
    return now >= kept.built && now < kept.until ? kept : undefined;
  }

  /**
   * In one statement, the tokens the answer kept under `key` follows; with none kept yet, all its scope's. A
   * document whose token was never written has none yet ('-').
   */
  private async readVersions(key: string, scope: CacheScope): Promise<ScopeVersions> {
    const { family, document } = scope;
    if (!document) return { own: await this.versions.read(family) };
    const followed = this.copies.tokenOf(key)?.split(' ', 1)[0];
    if (followed === 'others') return { others: await this.versions.read(document.othersFamily) };
    const names = [family, documentTokenName(family, document.id)];
    const [own, mine, others] = await this.versions.readAll(
      followed === 'own' ? names : [...names, document.othersFamily],
    );
    return { own: own === null ? null : `${own} ${mine ?? '-'}`, ...(followed === 'own' ? {} : { others }) };
  }

  private takeRead(stats: object | undefined, scope: CacheScope): ScopeVersions | undefined {
    const taken = stats && this.reads.get(stats);
    if (!taken || !sameScope(taken.scope, scope)) return undefined;
    this.reads.delete(stats);
    return taken.read;
  }

  /** Keyed by the request's statistics, the object a request shares with the contexts inside it. */
  private noteServed(answer: ServedAnswer): void {
    const stats = requestContext.current()?.stats;
    if (stats) this.served.set(stats, this.served.has(stats) ? null : answer);
  }
}
