import { Injectable } from '@nestjs/common';
import type { SignerProof } from '../signatures/signature.service';
import type { DocType } from './document-registry';

export type ReviewState = 'scheduled' | 'open' | 'overdue';

/** A release that confirms the document's periodic review (R3/R7 with `periodic_review_confirmed: true`). */
export interface ConfirmingRelease {
  doctype: DocType;
  docid: number;
  releaseid: number;
  revisionid: number;
  /** SHA-256 of the released revision's canonical content, for the review signature. */
  recordHash: string;
  notes: string;
}

/** A release going live, in the transaction that moves it. */
export interface LiveRelease {
  doctype: DocType;
  docid: number;
  releaseid: number;
}

/** Implemented by the periodic-review module. */
export interface ReviewHooks {
  /** The document's review state now, or null when it is in no schedule. */
  state(doctype: DocType, docid: number): Promise<ReviewState | null>;
  /**
   * Records a Review with source `release` (signature meaning `review`) in the current transaction.
   * Called only while the state is `open` or `overdue`.
   */
  recordReleaseReview(release: ConfirmingRelease, proof: SignerProof): Promise<void>;
  /** The document's open change requests are resolved by this release, in the current transaction. */
  resolveChangeRequests(release: LiveRelease): Promise<void>;
}

/**
 * Lets the releases module ask about and record periodic reviews without importing that module.
 * Until the periodic-review module registers, no document is scheduled.
 */
@Injectable()
export class ReviewDirectory {
  private hooks: ReviewHooks | undefined;

  provide(hooks: ReviewHooks): void {
    if (this.hooks) throw new Error('Review hooks are already registered');
    this.hooks = hooks;
  }

  state(doctype: DocType, docid: number): Promise<ReviewState | null> {
    return this.hooks ? this.hooks.state(doctype, docid) : Promise.resolve(null);
  }

  async recordReleaseReview(release: ConfirmingRelease, proof: SignerProof): Promise<void> {
    if (!this.hooks) throw new Error('No periodic-review module is registered');
    await this.hooks.recordReleaseReview(release, proof);
  }

  async resolveChangeRequests(release: LiveRelease): Promise<void> {
    if (this.hooks) await this.hooks.resolveChangeRequests(release);
  }
}
