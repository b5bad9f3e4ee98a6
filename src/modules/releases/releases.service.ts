import { createHash } from 'node:crypto';
import { HttpStatus, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { callerHas } from '../../common/auth/privileges';
import { ApiException, notFound, RevisionConflictException, unprocessable } from '../../common/http/api-errors';
import { canonicalJson } from '../../common/security/canonical-json';
import { TransactionService, type Transaction } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../platform/clock/clock';
import { DocumentRegistry, type DocType, type DocumentInfo } from '../../platform/documents/document-registry';
import { ReviewDirectory } from '../../platform/documents/review-directory';
import { SignatureService, type SignerProof } from '../../platform/signatures/signature.service';
import { ApprovalGate } from './approval-gate';
import type { CreateWikiReleaseDto, UpdateReleaseDto } from './dto/release-body.dto';
import type { ReleaseDto } from './dto/release-response.dto';
import type { ReleaseEntity, ReleaseType } from './entities/release.entity';
import {
  ReleaseCancelled,
  ReleaseCreated,
  ReleaseRejected,
  ReleaseReleased,
  ReleaseRemoved,
  ReleaseUpdated,
} from './release.events';
import { nextVersion } from './release.mapper';
import { transition, type ReleaseAction } from './release.state-machine';
import { ReleaseViewsService } from './release-views.service';
import { ReleasesRepository } from './releases.repository';

export const MAX_NOTES_BYTES = 65535;

/** What a create needs once the request is checked (R3, R7, each guide of R6). */
export interface ReleaseDraft {
  doc: DocumentInfo;
  langid: string;
  revisionid: number;
  type: ReleaseType;
  title?: string;
  notes: string;
  /** The signer's proof when the release confirms the periodic review. */
  proof?: SignerProof;
}

/** The outcome of a create under the document lock: the new release, or the pending one that blocks it. */
export type CreateOutcome = { created: number } | { blocked: ReleaseEntity };

export function assertNotesFit(notes: string | undefined): void {
  if (notes !== undefined && Buffer.byteLength(notes, 'utf8') > MAX_NOTES_BYTES) {
    throw unprocessable(`notes must not be longer than ${MAX_NOTES_BYTES} bytes`, 'notes');
  }
}

/**
 * Release use cases (docs/enterprise/releases.md): load → check → transition → save → audit → publish, each change
 * in one transaction with its audit row and outbox event. The approvals module calls `markReleased`
 * and `markRejected` inside its own transaction.
 */
@Injectable()
export class ReleasesService {
  constructor(
    private readonly releases: ReleasesRepository,
    private readonly views: ReleaseViewsService,
    private readonly documents: DocumentRegistry,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly gate: ApprovalGate,
    private readonly reviews: ReviewDirectory,
    private readonly signatures: SignatureService,
  ) {}

  /** R3, R7. */
  async create(
    doctype: DocType,
    docid: number,
    body: CreateWikiReleaseDto,
    caller: AuthenticatedUser,
  ): Promise<ReleaseDto> {
    if (body.periodic_review_confirmed && body.password === undefined) {
      throw unprocessable('password is required to confirm the periodic review', 'password');
    }
    assertNotesFit(body.notes);
    const doc = await this.documents.requireEditable(caller, doctype, docid);
    const langid = body.langid ?? doc.langid;
    const pending = (await this.releases.pendingOf(doctype, [docid], langid)).get(docid);
    if (pending) throw new RevisionConflictException(await this.views.one(pending.releaseid));
    const revisionid = await this.checkRevision(doc, langid, body.revisionid, caller);
    const proof = body.periodic_review_confirmed
      ? await this.signatures.verify(
          caller,
          { password: body.password },
          { subjectType: doctype.toLowerCase(), subjectId: docid, stage: 'release' },
        )
      : undefined;
    const draft: ReleaseDraft = {
      doc,
      langid,
      revisionid,
      type: body.type,
      title: body.title,
      notes: body.notes ?? '',
      proof,
    };
    const outcome = await this.transactions.run((tx) => this.createLocked(tx, draft, caller));
    if ('blocked' in outcome) throw new RevisionConflictException(await this.views.one(outcome.blocked.releaseid));
    return this.views.one(outcome.created);
  }

  /**
   * The revision a release freezes: the current patrolled one of that language (the default and the
   * only value allowed). Another revision of the document is 409 with its detail; anything else 422.
   */
  async checkRevision(
    doc: DocumentInfo,
    langid: string,
    requested: number | undefined,
    caller: AuthenticatedUser,
  ): Promise<number> {
    const provider = this.documents.of(doc.doctype);
    const current = await provider.currentRevision(doc.docid, langid);
    if (current === null) throw unprocessable(`The document has no revision in language ${langid}`, 'langid');
    if (requested === undefined || requested === current) return current;
    const revision = await provider.revision(doc.docid, requested);
    if (!revision || revision.langid !== langid) {
      throw unprocessable(`revisionid ${requested} is not a revision of this document in ${langid}`, 'revisionid');
    }
    throw new RevisionConflictException(await provider.detail(caller, doc.docid));
  }

  /**
   * Creates a release inside `tx` under the document's lock: the pending guard, the approval gate, the
   * version number, the periodic-review confirmation, the audit row and the events.
   */
  async createLocked(tx: Transaction, draft: ReleaseDraft, caller: AuthenticatedUser): Promise<CreateOutcome> {
    const { doc, langid } = draft;
    await this.releases.lockDocument(doc.doctype, doc.docid, langid);
    const pending = (await this.releases.pendingOf(doc.doctype, [doc.docid], langid)).get(doc.docid);
    const process = pending ? null : await this.gate.resolve(doc.doctype, doc.docid, draft.type);
    const move = transition('none', 'create', { pendingExists: !!pending, gated: process !== null });
    if (!move.ok) return { blocked: pending as ReleaseEntity };
    const [major, minor] = nextVersion(await this.releases.highestVersion(doc.doctype, doc.docid, langid), draft.type);
    const version = `${major}.${minor}`;
    const now = this.clock.nowSeconds();
    const live = move.effects.includes('go_live');
    const values: Omit<ReleaseEntity, 'releaseid'> = {
      doctype: doc.doctype,
      docid: doc.docid,
      langid,
      revisionid: draft.revisionid,
      userid: caller.userid,
      status: move.to,
      title: draft.title ?? `Release v${version}`,
      notes: draft.notes,
      type: draft.type,
      versionMajor: major,
      versionMinor: minor,
      releasedVersion: live ? version : null,
      pendingSlot: move.to === 'pending' ? 1 : null,
      initDate: now,
      releaseDate: live ? now : null,
      approvalRequestid: null,
      periodicReviewConfirmed: false,
    };
    const releaseid = await this.releases.insert(values);
    if (process && move.effects.includes('open_request')) {
      const requestid = await this.gate.open(
        {
          releaseid,
          doctype: doc.doctype,
          docid: doc.docid,
          langid,
          revisionid: draft.revisionid,
          type: draft.type,
          userid: caller.userid,
        },
        process,
      );
      await this.releases.setApprovalRequest(releaseid, requestid);
    }
    if (draft.proof && (await this.confirmReview(releaseid, draft, draft.proof))) {
      await this.releases.setReviewConfirmed(releaseid);
    }
    if (move.effects.includes('resolve_change_requests')) {
      await this.reviews.resolveChangeRequests({ doctype: doc.doctype, docid: doc.docid, releaseid });
    }
    const body = await this.views.one(releaseid);
    await this.audit.record({ action: 'release.create', entity: ['release', releaseid], after: body });
    tx.publish(ReleaseCreated(body));
    if (live) tx.publish(ReleaseReleased(body));
    return { created: releaseid };
  }

  /** While the document's review is open or overdue, the release records a Review (source `release`). */
  private async confirmReview(releaseid: number, draft: ReleaseDraft, proof: SignerProof): Promise<boolean> {
    const { doc } = draft;
    const state = await this.reviews.state(doc.doctype, doc.docid);
    if (state !== 'open' && state !== 'overdue') return false;
    const revision = await this.documents.of(doc.doctype).revision(doc.docid, draft.revisionid);
    const recordHash = createHash('sha256')
      .update(canonicalJson(revision?.content ?? null))
      .digest('hex');
    await this.reviews.recordReleaseReview(
      {
        doctype: doc.doctype,
        docid: doc.docid,
        releaseid,
        revisionid: draft.revisionid,
        recordHash,
        notes: draft.notes,
      },
      proof,
    );
    return true;
  }

  /** R4: title and notes of a pending GUIDE release, by its creator or a Moderator+. */
  async update(releaseid: number, body: UpdateReleaseDto, caller: AuthenticatedUser): Promise<ReleaseDto> {
    if (body.title === undefined && body.notes === undefined) {
      throw unprocessable('Send at least one of title and notes');
    }
    assertNotesFit(body.notes);
    const { release } = await this.views.visible('GUIDE', releaseid, caller);
    if (release.userid !== caller.userid && !callerHas(caller, 'Moderator')) {
      throw new ApiException(HttpStatus.FORBIDDEN, 'Only the creator of a release or a Moderator may edit it');
    }
    if (release.status !== 'pending') throw new RevisionConflictException(await this.views.one(releaseid));
    const changed = await this.transactions.run(async (tx) => {
      const before = await this.views.one(releaseid);
      const changes: Partial<ReleaseEntity> = {};
      if (body.title !== undefined) changes.title = body.title;
      if (body.notes !== undefined) changes.notes = body.notes;
      if (!(await this.releases.move(releaseid, 'pending', changes))) return false;
      const after = await this.views.one(releaseid);
      await this.audit.record({ action: 'release.update', entity: ['release', releaseid], before, after });
      tx.publish(ReleaseUpdated(after));
      return true;
    });
    const current = await this.views.one(releaseid);
    if (!changed) throw new RevisionConflictException(current);
    return current;
  }

  /** R5, R8: a pending release is cancelled (creator or Moderator+), a released one removed (Admin). */
  async remove(doctype: DocType, releaseid: number, caller: AuthenticatedUser): Promise<void> {
    const { release } = await this.views.visible(doctype, releaseid, caller);
    const facts = {
      creatorOrModerator: release.userid === caller.userid || callerHas(caller, 'Moderator'),
      admin: callerHas(caller, 'Admin'),
    };
    const check = transition(release.status, 'delete', facts);
    if (!check.ok && check.refusal === 'forbidden') throw new ApiException(HttpStatus.FORBIDDEN, check.reason);
    if (!check.ok) throw new RevisionConflictException(await this.views.one(releaseid));
    await this.move(releaseid, 'delete', facts);
  }

  /** The approvals module: the last stage approved (pending → released, with every effect of a release). */
  markReleased(releaseid: number): Promise<ReleaseDto> {
    return this.move(releaseid, 'approve', {});
  }

  /** The approvals module: a stage rejected (pending → rejected). */
  markRejected(releaseid: number): Promise<ReleaseDto> {
    return this.move(releaseid, 'reject', {});
  }

  /**
   * A state move in one transaction, under the document's lock: `UPDATE … WHERE status = :from`, then
   * the effects, the audit row and the event. A move that is not listed, or that lost a race, is 409
   * with the release as it is now.
   */
  private async move(
    releaseid: number,
    action: Exclude<ReleaseAction, 'create'>,
    facts: { creatorOrModerator?: boolean; admin?: boolean },
  ): Promise<ReleaseDto> {
    const result = await this.transactions.run(async (tx) => {
      const release = await this.releases.findById(releaseid);
      if (!release) throw notFound('Release');
      await this.releases.lockDocument(release.doctype, release.docid, release.langid);
      const before = await this.views.one(releaseid);
      const step = transition(release.status, action, facts);
      if (!step.ok) return { moved: false as const };
      const changes: Partial<ReleaseEntity> = { status: step.to, pendingSlot: null };
      if (step.effects.includes('go_live')) {
        // The number is taken now; nothing can have been released meanwhile (the pending guard).
        const [major, minor] = nextVersion(
          await this.releases.highestVersion(release.doctype, release.docid, release.langid),
          release.type,
        );
        Object.assign(changes, {
          versionMajor: major,
          versionMinor: minor,
          releasedVersion: `${major}.${minor}`,
          releaseDate: this.clock.nowSeconds(),
        });
      }
      if (!(await this.releases.move(releaseid, release.status, changes))) return { moved: false as const };
      if (step.effects.includes('resolve_change_requests')) await this.reviews.resolveChangeRequests(release);
      if (step.effects.includes('cancel_request') && release.approvalRequestid !== null) {
        await this.gate.cancel(release.approvalRequestid);
      }
      const after = await this.views.one(releaseid);
      const { audit, event } = MOVES[step.to as keyof typeof MOVES];
      await this.audit.record({ action: audit, entity: ['release', releaseid], before, after });
      tx.publish(event(after));
      return { moved: true as const, after };
    });
    if (!result.moved) throw new RevisionConflictException(await this.views.one(releaseid));
    return result.after;
  }
}

/** The audit action and event of each move's target state. */
const MOVES = {
  released: { audit: 'release.release', event: ReleaseReleased },
  rejected: { audit: 'release.reject', event: ReleaseRejected },
  cancelled: { audit: 'release.cancel', event: ReleaseCancelled },
  removed: { audit: 'release.remove', event: ReleaseRemoved },
} as const;
