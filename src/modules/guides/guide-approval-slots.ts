import { Injectable } from '@nestjs/common';
import { unprocessable } from '../../common/http/api-errors';

/** The guide fields of the approval slots (docs/enterprise/approvals.md, Assignment): a process id, or null to clear the slot. */
export interface GuideApprovalSlotChange {
  approval_processid?: number | null;
  major_release_approval_processid?: number | null;
}

export interface GuideApprovalSlotsProvider {
  /** Sets the guide's slots inside the caller's transaction; 422 for an unknown process. */
  assign(guideid: number, change: GuideApprovalSlotChange): Promise<void>;
}

/**
 * How PATCH /guides/{guideid} sets a guide's approval processes without importing the approvals
 * module (approvals imports guides and provides the implementation at start-up).
 */
@Injectable()
export class GuideApprovalSlots {
  private provider: GuideApprovalSlotsProvider | undefined;

  provide(provider: GuideApprovalSlotsProvider): void {
    if (this.provider) throw new Error('A guide approval slots provider is already registered');
    this.provider = provider;
  }

  async assign(guideid: number, change: GuideApprovalSlotChange): Promise<void> {
    if (!this.provider) throw unprocessable('Approval processes are not enabled', 'approval_processid');
    await this.provider.assign(guideid, change);
  }
}
