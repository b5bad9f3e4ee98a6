import { DataSource } from 'typeorm';
import type { DocType } from '../../src/platform/documents/document-registry';
import { AuditEventEntity } from '../../src/platform/audit/entities/audit-event.entity';
import { DomainEventEntity } from '../../src/platform/events/entities/domain-event.entity';
import {
  ApprovalGate,
  type ApprovalGateway,
  type GatedRelease,
  type ResolvedProcess,
} from '../../src/modules/releases/approval-gate';
import type { TestApp } from '../utils/test-app';

export const API = '/api/2.0';

/**
 * Stands in for the approvals module (built on another branch) behind the committed ApprovalGate seam:
 * documents listed in `gated` resolve a process; opened and cancelled requests are recorded. It replaces
 * any gateway already registered, so the suite keeps testing releases alone once approvals is merged.
 */
export class TestApprovalGateway implements ApprovalGateway {
  readonly gated = new Set<string>();
  readonly opened: { release: GatedRelease; process: ResolvedProcess; requestid: number }[] = [];
  readonly cancelled: number[] = [];
  private nextRequestid = 9000;

  gate(doctype: DocType, docid: number): void {
    this.gated.add(`${doctype}:${docid}`);
  }

  resolve(doctype: DocType, docid: number): Promise<ResolvedProcess | null> {
    return Promise.resolve(
      this.gated.has(`${doctype}:${docid}`) ? { approval_processid: 7, approval_process_revisionid: 70 } : null,
    );
  }

  open(release: GatedRelease, process: ResolvedProcess): Promise<number> {
    this.nextRequestid += 1;
    this.opened.push({ release, process, requestid: this.nextRequestid });
    return Promise.resolve(this.nextRequestid);
  }

  cancel(approvalRequestid: number): Promise<void> {
    this.cancelled.push(approvalRequestid);
    return Promise.resolve();
  }
}

export function useTestGateway(t: TestApp): TestApprovalGateway {
  const gate = t.app.get(ApprovalGate);
  // Clear a registration the approvals module may have made, then register the stand-in.
  (gate as unknown as { gateway: ApprovalGateway | undefined }).gateway = undefined;
  const gateway = new TestApprovalGateway();
  gate.provide(gateway);
  return gateway;
}

export const auditRows = (t: TestApp, releaseid: number) =>
  t.app.get(DataSource).manager.find(AuditEventEntity, {
    where: { entityType: 'release', entityId: String(releaseid) },
    order: { auditid: 'ASC' },
  });

export const eventRows = (t: TestApp, releaseid: number) =>
  t.app.get(DataSource).manager.find(DomainEventEntity, {
    where: { entityType: 'release', entityId: String(releaseid) },
    order: { eventid: 'ASC' },
  });

/** A JSON value's type as the Dozuki sample shows it (`null` and `array` apart from `object`). */
export const typeOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'number' && Number.isInteger(value)
        ? 'integer'
        : typeof value;
