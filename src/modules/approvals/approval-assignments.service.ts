import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { isAdmin } from '../../common/auth/privileges';
import { notFound, unprocessable } from '../../common/http/api-errors';
import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { DocumentRegistry, type DocType } from '../../platform/documents/document-registry';
import type { GuideApprovalSlotChange } from '../guides/guide-approval-slots';
import type { ResolvedProcess } from '../releases/approval-gate';
import { ApprovalAssignmentChanged, type ApprovalAssignmentPayload } from './approval.events';
import { ApprovalProcessesRepository } from './approval-processes.repository';
import { ApprovalProcessesService } from './approval-processes.service';
import type { ProcessAssignmentDto, WikiAssignmentDto } from './dto/process-response.dto';
import type { ApprovalSlot } from './entities/approval-assignment.entity';
import type { ApprovalProcessEntity } from './entities/approval-process.entity';

type Source = ProcessAssignmentDto['source'];

/** Document slots (A6, A7, the guide fields) and resolution (docs/enterprise/approvals.md). */
@Injectable()
export class ApprovalAssignmentsService {
  constructor(
    private readonly processes: ApprovalProcessesRepository,
    private readonly processViews: ApprovalProcessesService,
    private readonly documents: DocumentRegistry,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
  ) {}

  /** A6: puts a process in a wiki's slot (Admin). */
  async assignWiki(wikiid: number, approvalProcessid: number, slot: ApprovalSlot): Promise<WikiAssignmentDto> {
    await this.requireWiki(wikiid);
    return this.transactions.run(async () => {
      const process = await this.processes.findProcess(approvalProcessid);
      if (!process) throw notFound('Approval process');
      await this.change('WIKI', wikiid, { [slot]: approvalProcessid });
      return { wikiid, release_type: slot, approval_process: await this.processViews.get(approvalProcessid) };
    });
  }

  /** A7: clears one slot or both; 204 even when nothing was assigned. */
  async unassignWiki(wikiid: number, slot: ApprovalSlot | undefined): Promise<void> {
    await this.requireWiki(wikiid);
    await this.transactions.run(() =>
      this.change('WIKI', wikiid, slot ? { [slot]: null } : { all: null, major: null }),
    );
  }

  /** The guide fields of PATCH /guides/{guideid}, inside the guide edit's transaction. */
  async assignGuide(guideid: number, change: GuideApprovalSlotChange): Promise<void> {
    const wanted: Partial<Record<ApprovalSlot, number | null>> = {};
    if (change.approval_processid !== undefined) wanted.all = change.approval_processid;
    if (change.major_release_approval_processid !== undefined) wanted.major = change.major_release_approval_processid;
    const ids = Object.values(wanted).filter((id): id is number => id !== null && id !== undefined);
    const found = new Set((await this.processes.findProcesses(ids)).map((p) => p.approvalProcessid));
    if (wanted.all && !found.has(wanted.all)) {
      throw unprocessable(`Approval process ${wanted.all} does not exist`, 'approval_processid');
    }
    if (wanted.major && !found.has(wanted.major)) {
      throw unprocessable(`Approval process ${wanted.major} does not exist`, 'major_release_approval_processid');
    }
    await this.change('GUIDE', guideid, wanted);
  }

  /** A12: how a major and a minor release of the guide would resolve now (the guide's editors, Admin). */
  async forGuide(guideid: number, caller: AuthenticatedUser): Promise<ProcessAssignmentDto[]> {
    if (isAdmin(caller)) await this.documents.requireReadable(caller, 'GUIDE', guideid);
    else await this.documents.requireEditable(caller, 'GUIDE', guideid);
    const [major, minor] = await Promise.all([
      this.resolveWithSource('GUIDE', guideid, 'major'),
      this.resolveWithSource('GUIDE', guideid, 'minor'),
    ]);
    return [toAssignment('major', major), toAssignment('minor', minor)];
  }

  /** The gate's `resolve`: major → `major` slot, `all`, site default; minor → `all`, site default. */
  async resolve(doctype: DocType, docid: number, type: 'major' | 'minor'): Promise<ResolvedProcess | null> {
    const { process } = await this.resolveWithSource(doctype, docid, type);
    return process
      ? { approval_processid: process.approvalProcessid, approval_process_revisionid: process.currentRevisionid }
      : null;
  }

  private async resolveWithSource(
    doctype: DocType,
    docid: number,
    type: 'major' | 'minor',
  ): Promise<{ process: ApprovalProcessEntity | null; source: Source }> {
    const slots = await this.processes.slotsOf(doctype, docid);
    const slot = (name: ApprovalSlot) => slots.find((s) => s.slot === name)?.approvalProcessid;
    const candidates: [number | undefined, Source][] = [
      ...(type === 'major' ? [[slot('major'), 'document_major'] as [number | undefined, Source]] : []),
      [slot('all'), 'document'],
    ];
    const ids = candidates.flatMap(([id]) => (id === undefined ? [] : [id]));
    const processes = new Map((await this.processes.findProcesses(ids)).map((p) => [p.approvalProcessid, p]));
    for (const [id, source] of candidates) {
      const process = id === undefined ? undefined : processes.get(id);
      if (process) return { process, source };
    }
    const siteDefault = await this.processes.siteDefault();
    return siteDefault ? { process: siteDefault, source: 'site_default' } : { process: null, source: 'none' };
  }

  /** Applies slot changes with their audit row and event, when something changes. */
  private async change(doctype: DocType, docid: number, wanted: Partial<Record<ApprovalSlot, number | null>>) {
    await this.transactions.run(async (tx) => {
      const before = slotsPayload(doctype, docid, await this.processes.slotsOf(doctype, docid));
      for (const [slot, id] of Object.entries(wanted) as [ApprovalSlot, number | null][]) {
        if (id === null) await this.processes.clearSlots(doctype, docid, [slot]);
        else await this.processes.setSlot(doctype, docid, slot, id);
      }
      const after = { ...before, ...wanted };
      if (after.all === before.all && after.major === before.major) return;
      await this.audit.record({
        action: 'approval_assignment.update',
        entity: [doctype.toLowerCase(), docid],
        before,
        after,
      });
      tx.publish(ApprovalAssignmentChanged(after));
    });
  }

  private async requireWiki(wikiid: number): Promise<void> {
    const found = await this.documents.of('WIKI').find([wikiid]);
    if (!found.has(wikiid)) throw notFound('Wiki');
  }
}

const slotsPayload = (
  doctype: DocType,
  docid: number,
  slots: { slot: ApprovalSlot; approvalProcessid: number }[],
): ApprovalAssignmentPayload => ({
  doctype,
  docid,
  all: slots.find((s) => s.slot === 'all')?.approvalProcessid ?? null,
  major: slots.find((s) => s.slot === 'major')?.approvalProcessid ?? null,
});

const toAssignment = (
  releaseType: 'major' | 'minor',
  resolved: { process: ApprovalProcessEntity | null; source: Source },
): ProcessAssignmentDto => ({
  release_type: releaseType,
  approval_processid: resolved.process?.approvalProcessid ?? null,
  approval_process_revisionid: resolved.process?.currentRevisionid ?? null,
  name: resolved.process?.name ?? null,
  source: resolved.source,
});
