import { Injectable } from '@nestjs/common';
import type { DocType } from '../../platform/documents/document-registry';

/** What the approvals module needs to know of a release it gates. */
export interface GatedRelease {
  releaseid: number;
  doctype: DocType;
  docid: number;
  langid: string;
  revisionid: number;
  type: 'major' | 'minor';
  /** The creator: the request's requester. */
  userid: number;
}

/** The approval process that applies to a release (docs/enterprise/approvals.md, Resolution). */
export interface ResolvedProcess {
  approval_processid: number;
  approval_process_revisionid: number;
}

/** Implemented by the approvals module; every call runs inside the caller's transaction. */
export interface ApprovalGateway {
  /** The process that would gate a release of this type now, or null (the release goes live at once). */
  resolve(doctype: DocType, docid: number, type: 'major' | 'minor'): Promise<ResolvedProcess | null>;
  /** Opens the request of a `pending` release (stage 1 pending, its signers mailed); returns its id. */
  open(release: GatedRelease, process: ResolvedProcess): Promise<number>;
  /** The release was deleted while pending: its request becomes `cancelled`, the open stage `skipped`. */
  cancel(approvalRequestid: number): Promise<void>;
}

/**
 * How releases ask for approval without importing the approvals module (approvals imports releases and
 * calls `ReleasesService` to move a release to `released` or `rejected`). Until approvals registers,
 * no process ever applies and every release goes live when created.
 */
@Injectable()
export class ApprovalGate {
  private gateway: ApprovalGateway | undefined;

  provide(gateway: ApprovalGateway): void {
    if (this.gateway) throw new Error('An approval gateway is already registered');
    this.gateway = gateway;
  }

  resolve(doctype: DocType, docid: number, type: 'major' | 'minor'): Promise<ResolvedProcess | null> {
    return this.gateway ? this.gateway.resolve(doctype, docid, type) : Promise.resolve(null);
  }

  open(release: GatedRelease, process: ResolvedProcess): Promise<number> {
    if (!this.gateway) throw new Error('No approval gateway is registered');
    return this.gateway.open(release, process);
  }

  async cancel(approvalRequestid: number): Promise<void> {
    if (this.gateway) await this.gateway.cancel(approvalRequestid);
  }
}
