import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { requestContext } from '../../common/context/request-context';
import { TransactionService } from '../../database/transaction.service';
import { Clock } from '../clock/clock';
import { auditHash, type AuditContent } from './audit-hash';
import { AuditRepository } from './audit.repository';
import type { AuditChainHeadEntity } from './entities/audit-chain-head.entity';

/** Rows per multi-row INSERT of recordMany (15 columns: well under SQLite's bound-parameter limit). */
const RECORD_MANY_CHUNK = 200;

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

  /**
   * Many rows at once (a batch job's changes): the same rows as one record() each, in order, with the
   * chain heads locked in one statement per entity type, the rows in multi-row INSERTs and the heads
   * saved in one statement per chunk.
   */
  recordMany(entries: AuditEntry[]): Promise<void> {
    if (!entries.length) return Promise.resolve();
    return this.transactions.run(async () => {
      for (let i = 0; i < entries.length; i += RECORD_MANY_CHUNK) {
        await this.recordChunk(entries.slice(i, i + RECORD_MANY_CHUNK));
      }
    });
  }

  private async recordChunk(entries: AuditEntry[]): Promise<void> {
    const contents = entries.map((entry) => this.content(entry));
    const heads = new Map<string, { prevHash: string | null }>();
    const byType = new Map<string, string[]>();
    for (const c of contents) byType.set(c.entityType, [...(byType.get(c.entityType) ?? []), c.entityId]);
    for (const [entityType, ids] of byType) {
      const locked = await this.audit.lockHeads(entityType, ids);
      for (const [id, head] of locked) heads.set(`${entityType}\u0000${id}`, { prevHash: head.lastHash });
    }
    const rows = contents.map((content) => {
      const key = `${content.entityType}\u0000${content.entityId}`;
      const prevHash = heads.get(key)?.prevHash ?? null;
      const hash = auditHash(prevHash, content);
      heads.set(key, { prevHash: hash });
      return { ...content, prevHash, hash };
    });
    const ids = await this.audit.appendMany(rows);
    const last = new Map<string, AuditChainHeadEntity>();
    rows.forEach((row, i) =>
      last.set(`${row.entityType}\u0000${row.entityId}`, {
        entityType: row.entityType,
        entityId: row.entityId,
        lastAuditid: ids[i],
        lastHash: row.hash,
      }),
    );
    await this.audit.saveHeads([...last.values()]);
  }

  private content(entry: AuditEntry): AuditContent {
    const context = requestContext.current();
    const actor = entry.actor === undefined ? context?.actor : entry.actor;
    const [entityType, rawId] = entry.entity;
    return {
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
  }

  record(entry: AuditEntry): Promise<void> {
    return this.transactions.run(async () => {
      const content = this.content(entry);
      const head = await this.audit.lockHead(content.entityType, content.entityId);
      const prevHash = head?.lastHash ?? null;
      await this.audit.append({ ...content, prevHash, hash: auditHash(prevHash, content) });
    });
  }
}
