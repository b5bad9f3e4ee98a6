import { Injectable } from '@nestjs/common';
import { TransactionService } from '../../database/transaction.service';
import { Clock } from '../../platform/clock/clock';
import type { DocType } from '../../platform/documents/document-registry';
import type {
  ConfirmingRelease,
  LiveRelease,
  ReviewHooks,
  ReviewState,
} from '../../platform/documents/review-directory';
import type { SignerProof } from '../../platform/signatures/signature.service';
import { PeriodicReviewRepository } from './periodic-review.repository';
import { reviewState } from './review-state';
import { ReviewsService } from './reviews.service';

/**
 * What the releases module reaches through the platform ReviewDirectory (docs/enterprise/releases.md,
 * docs/enterprise/periodic-review.md): the document's review state, the review a confirming release records, and change
 * requests resolved when a release of the document goes live (in the release's transaction).
 */
@Injectable()
export class PeriodicReviewHooks implements ReviewHooks {
  constructor(
    private readonly repository: PeriodicReviewRepository,
    private readonly reviews: ReviewsService,
    private readonly transactions: TransactionService,
    private readonly clock: Clock,
  ) {}

  async state(doctype: DocType, docid: number): Promise<ReviewState | null> {
    const [row] = await this.repository.membershipsOf(doctype, [docid]);
    if (!row) return null;
    const [schedule] = await this.repository.schedulesByIds([row.prsid]);
    return reviewState(this.clock.nowSeconds(), row.nextDueDate, schedule.completionWindowDays);
  }

  async recordReleaseReview(release: ConfirmingRelease, proof: SignerProof): Promise<void> {
    await this.transactions.run(async (tx) => {
      const [row] = await this.repository.membershipsOf(release.doctype, [release.docid]);
      if (!row) throw new Error('recordReleaseReview: the document is in no schedule');
      const [schedule] = await this.repository.schedulesByIds([row.prsid]);
      await this.reviews.record(tx, row, schedule, proof, {
        source: 'release',
        outcome: 'no_changes',
        notes: release.notes,
        revisionid: release.revisionid,
        recordHash: release.recordHash,
        releaseid: release.releaseid,
      });
    });
  }

  /** Change requests opened before the release went live are resolved by it (called in its transaction). */
  async resolveChangeRequests(release: LiveRelease): Promise<void> {
    await this.reviews.resolveOpenRequests(release, release.releaseid, this.clock.nowSeconds());
  }
}
