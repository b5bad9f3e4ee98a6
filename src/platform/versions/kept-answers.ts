import { Injectable } from '@nestjs/common';
import { requestContext } from '../../common/context/request-context';
import { ContentVersions } from './content-versions';
import { KeptCopies } from './kept-copies';

/** An answer as the JSON text sent, with its entity tag when its reader knows one. */
export interface KeptAnswer {
  json: string;
  etag?: string;
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
  private readonly copies = new KeptCopies<KeptAnswer>(KEPT_ANSWERS, {
    bytes: KEPT_ANSWER_BYTES,
    sizeOf: (answer) => answer.json.length + 200,
  });

  constructor(private readonly versions: ContentVersions) {}

  /**
   * The answer kept under `key` while the token is the one it was kept under; else `build`'s, kept. The token
   * is read first (whatever is read after it is as new or newer), and with read replicas the answer is built
   * from the primary (a replica behind the one that gave the token must not be the source of an answer kept
   * under it). Within a transaction nothing is kept (its rows may be its own uncommitted writes).
   */
  async serve(key: string, build: () => Promise<KeptAnswer>): Promise<KeptAnswer> {
    if (requestContext.current()?.tx) return build();
    const token = await this.versions.read('answers');
    const kept = this.copies.get(key, token);
    if (kept) return kept;
    const answer = await requestContext.onPrimary(build);
    this.copies.keepCommitted(key, token, answer);
    return answer;
  }
}
