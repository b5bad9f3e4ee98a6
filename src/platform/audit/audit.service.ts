import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { requestContext } from '../../common/context/request-context';
import { TransactionService } from '../../database/transaction.service';
import { Clock } from '../clock/clock';
import { auditHash, type AuditContent } from './audit-hash';
import { AuditRepository } from './audit.repository';

export interface AuditEntry {
  /** A dotted verb: `<entity>.<what happened>`, e.g. `release.create`, `guide.author`. */
  action: string;
  /** What changed: its type and id, e.g. `['guide', 17]`. */
  entity: [type: string, id: string | number];
  before?: unknown;
  after?: unknown;
  reason?: string | null;
  /** Who acted; default: the request context's actor (null for the system). */
  actor?: Pick<AuthenticatedUser, 'userid' | 'username'> | null;
}

/**
 * Writes the audit log (ENTERPRISE §0.3). Call it inside the transaction of the change: the row
 * commits or rolls back with it. Actor, request id, address and user agent come from the request
 * context.
 */
@Injectable()
export class AuditService {
  constructor(
    private readonly audit: AuditRepository,
    private readonly transactions: TransactionService,
    private readonly clock: Clock,
  ) {}

  record(entry: AuditEntry): Promise<void> {
    return this.transactions.run(async () => {
      const context = requestContext.current();
      const actor = entry.actor === undefined ? context?.actor : entry.actor;
      const [entityType, rawId] = entry.entity;
      const content: AuditContent = {
        occurredAt: this.clock.now(),
        actorUserid: actor?.userid ?? null,
        actorName: actor?.username ?? null,
        action: entry.action,
        entityType,
        entityId: String(rawId),
        before: entry.before ?? null,
        after: entry.after ?? null,
        reason: entry.reason ?? null,
        requestId: context?.requestId?.slice(0, 200) ?? null,
        ip: context?.ip?.slice(0, 64) ?? null,
        userAgent: context?.userAgent?.slice(0, 500) ?? null,
      };
      const head = await this.audit.lockHead(entityType, content.entityId);
      const prevHash = head?.lastHash ?? null;
      await this.audit.append({ ...content, prevHash, hash: auditHash(prevHash, content) }, head !== null);
    });
  }
}
