import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { requestContext } from '../../common/context/request-context';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { TransactionService, type Transaction } from '../../database/transaction.service';
import { Clock } from '../clock/clock';
import { HashVersion, keyedAuditHash, type AuditContent } from './audit-hash';
import { AuditRepository, headKey, type HeadKey } from './audit.repository';
import type { ChainHead } from './entities/audit-chain-head.entity';

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
 * Writes the audit log. Call it inside the transaction of the change: the row
 * commits or rolls back with it. Actor, request id, address and user agent come from the request
 * context, and the time is taken when `record` is called.
 *
 * The rows of one transaction are written together just before it commits (`beforeCommit`): the chain
 * heads of all their entities locked in one statement, the rows in multi-row INSERTs, the heads saved in
 * one statement. A change that audits three entities costs three or four statements, not twelve.
 */
@Injectable()
export class AuditService {
  private readonly pending = new WeakMap<Transaction, AuditContent[]>();

  constructor(
    private readonly audit: AuditRepository,
    private readonly transactions: TransactionService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  record(entry: AuditEntry): Promise<void> {
    return this.defer([entry]);
  }

  /** Many rows at once (a batch job's changes): the same rows as one record() each, in order. */
  recordMany(entries: AuditEntry[]): Promise<void> {
    if (!entries.length) return Promise.resolve();
    return this.defer(entries);
  }

  private defer(entries: AuditEntry[]): Promise<void> {
    return this.transactions.run(async (tx) => {
      let pending = this.pending.get(tx);
      if (!pending) {
        const rows: AuditContent[] = [];
        this.pending.set(tx, rows);
        tx.beforeCommit(() => this.flush(tx, rows));
        pending = rows;
      }
      for (const entry of entries) pending.push(this.content(entry));
    });
  }

  private async flush(tx: Transaction, contents: AuditContent[]): Promise<void> {
    this.pending.delete(tx);
    for (let i = 0; i < contents.length; i += RECORD_MANY_CHUNK) {
      await this.write(contents.slice(i, i + RECORD_MANY_CHUNK));
    }
  }

  private async write(contents: AuditContent[]): Promise<void> {
    const heads = await this.audit.lockHeads(contents.map((c): HeadKey => [c.entityType, c.entityId]));
    const prev = new Map<string, string | null>();
    for (const [key, head] of heads) prev.set(key, head.lastHash);
    const rows = contents.map((content) => {
      const key = headKey(content.entityType, content.entityId);
      const prevHash = prev.get(key) ?? null;
      const hash = keyedAuditHash(this.config.audit.key, prevHash, content);
      prev.set(key, hash);
      return { ...content, prevHash, hash, hashVersion: HashVersion.keyed };
    });
    const ids = await this.audit.appendMany(rows);
    const last = new Map<string, ChainHead>();
    rows.forEach((row, i) =>
      last.set(headKey(row.entityType, row.entityId), {
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
}
