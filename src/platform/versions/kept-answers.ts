import { Injectable } from '@nestjs/common';
import { requestContext } from '../../common/context/request-context';
import { Clock } from '../clock/clock';
import { ContentVersions, type AnswerToken } from './content-versions';
import { KeptCopies } from './kept-copies';

/**
 * An answer as the JSON text sent, with its entity tag when its reader knows one; `until` (the Clock's
 * milliseconds) when time alone changes it then (a due date passing), as it does from before the moment it was
 * built.
 */
export interface KeptAnswer {
  json: string;
  etag?: string;
  until?: number;
}

interface Kept extends KeptAnswer {
  built: number;
}

/**
 * At most this many answers, of about this many bytes of JSON text in all (one byte a character for the
 * Latin-1 text of most answers, two otherwise).
 */
const KEPT_ANSWERS = 4_000;
const KEPT_ANSWER_BYTES = 64 * 1024 * 1024;

/**
 * Whole answers that depend on stored content only (anonymous reads), kept per instance under the `answers`
 * version token. Their readers register the tables they are built from (src/database/answer-sources.ts), and
 * any write that changes rows of one replaces the token, on whichever instance it runs.
 */
@Injectable()
export class KeptAnswers {
  private readonly copies = new KeptCopies<Kept>(KEPT_ANSWERS, {
    bytes: KEPT_ANSWER_BYTES,
    sizeOf: (answer) => answer.json.length + 200,
  });

  constructor(
    private readonly versions: ContentVersions,
    private readonly clock: Clock,
  ) {}

  /**
   * The answer kept under `key` while `token` is the one it was kept under (and the clock in its time span); else
   * `build`'s, kept. The token is read first (whatever is read after it is as new or newer), and with read
   * replicas the answer is built from the primary (a replica behind the one that gave the token must not be the
   * source of an answer kept under it). Within a transaction nothing is kept (its rows may be its own uncommitted
   * writes).
   */
  async serve(key: string, build: () => Promise<KeptAnswer>, token: AnswerToken = 'answers'): Promise<KeptAnswer> {
    if (requestContext.current()?.tx) return build();
    const version = await this.versions.read(token);
    const kept = this.copies.get(key, version);
    if (kept && (kept.until === undefined || this.inSpan(kept))) return kept;
    const built = this.clock.now();
    const answer = await requestContext.onPrimary(build);
    this.copies.keepCommitted(key, version, { ...answer, built });
    return answer;
  }

  /**
   * The JSON text of `build`'s answer for a caller, kept as serve() keeps answers under `token`: `key` names
   * everything the answer depends on that is not in the token's tables (the caller, the query).
   */
  async json(key: string, token: AnswerToken, build: () => Promise<unknown>): Promise<string> {
    return (await this.serve(key, async () => ({ json: JSON.stringify(await build()) }), token)).json;
  }

  private inSpan(kept: Kept): boolean {
    const now = this.clock.now();
    return now >= kept.built && now < (kept.until ?? Infinity);
  }
}
