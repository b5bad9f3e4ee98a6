import { BreakList, chainKey, splitChainKey } from './audit-breaks';
import type { CheckpointState } from './audit-checkpoint-check';
import { auditRowHash, HashVersion } from './audit-hash';
import type { AuditRepository } from './audit.repository';
import type { AuditEventEntity } from './entities/audit-event.entity';

const BATCH = 1000;

interface Tail {
  auditid: number;
  hash: string;
}

/**
 * Recomputes every chain row by row (one pass in auditid order, a batch at a time), then compares the
 * chains with their head records and with what the checkpoints recorded.
 */
export class ChainScanner {
  rows = 0;
  legacyRows = 0;
  readonly tails = new Map<string, Tail>();
  /** signatureid → auditid of every `signature.create` row seen. */
  readonly signatureRows = new Map<string, number>();
  private firstKeyed: number | null = null;
  private readonly checkpointed = new Set<string>();

  constructor(
    private readonly audit: AuditRepository,
    private readonly key: Buffer,
    private readonly checkpoints: CheckpointState,
    private readonly breaks: BreakList,
  ) {}

  async scan(): Promise<void> {
    for (let afterId = 0; ;) {
      const batch = await this.audit.batch(afterId, BATCH);
      if (!batch.length) break;
      for (const row of batch) this.check(row);
      afterId = batch[batch.length - 1].auditid;
    }
    await this.compareHeads();
    this.compareCheckpoints();
  }

  private check(row: AuditEventEntity): void {
    this.rows += 1;
    const chain = chainKey(row.entityType, row.entityId);
    const at = { entityType: row.entityType, entityId: row.entityId, auditid: row.auditid };
    this.checkVersion(row, at);
    const prev = this.tails.get(chain);
    if ((row.prevHash ?? null) !== (prev?.hash ?? null))
      this.breaks.add(
        'link_broken',
        at,
        prev
          ? `prev_hash is not the hash of the chain's previous row ${prev.auditid} (a row removed, moved or rehashed)`
          : 'prev_hash is set, but no earlier row of the chain exists (its first rows were removed)',
      );
    const expected = auditRowHash(row.hashVersion, this.key, row.prevHash, row);
    if (expected !== undefined && expected !== row.hash)
      this.breaks.add('row_changed', at, 'the hash does not match the row under the audit key (the row was changed)');
    const checkpoint = this.checkpoints.expected.get(chain);
    if (checkpoint?.auditid === row.auditid) {
      this.checkpointed.add(chain);
      if (checkpoint.hash !== row.hash)
        this.breaks.add('checkpoint_mismatch', at, `checkpoint ${checkpoint.seq} recorded another hash for this row`);
    }
    this.tails.set(chain, { auditid: row.auditid, hash: row.hash });
    if (row.entityType === 'signature' && row.action === 'signature.create' && !this.signatureRows.has(row.entityId))
      this.signatureRows.set(row.entityId, row.auditid);
  }

  /** Unkeyed hashes are only believed on rows written before the log was keyed. */
  private checkVersion(row: AuditEventEntity, at: { entityType: string; entityId: string; auditid: number }): void {
    if (row.hashVersion === HashVersion.keyed) {
      this.firstKeyed ??= row.auditid;
      return;
    }
    if (row.hashVersion !== HashVersion.legacy) {
      this.breaks.add('unknown_hash_version', at, `hash_version ${row.hashVersion} is not one this service writes`);
      return;
    }
    this.legacyRows += 1;
    const limit = this.checkpoints.legacyThrough;
    if (limit !== null && row.auditid > limit)
      this.breaks.add(
        'legacy_hash',
        at,
        `an unkeyed hash after auditid ${limit}, where the checkpoints say keying began`,
      );
    else if (limit === null && this.firstKeyed !== null)
      this.breaks.add('legacy_hash', at, `an unkeyed hash after the keyed row ${this.firstKeyed}`);
  }

  /**
   * Each head record must be its chain's newest row. A head ahead of the chain may be a row appended
   * while the scan ran: that chain's newer rows are read and checked before it is judged.
   */
  private async compareHeads(): Promise<void> {
    const headed = new Set<string>();
    for (const head of await this.audit.heads()) {
      if (head.lastAuditid === 0) continue; // a placeholder of a transaction still open
      const chain = chainKey(head.entityType, head.entityId);
      headed.add(chain);
      let tail = this.tails.get(chain);
      if (head.lastAuditid > (tail?.auditid ?? 0)) tail = await this.readOn(head.entityType, head.entityId, tail);
      const at = { entityType: head.entityType, entityId: head.entityId, auditid: head.lastAuditid };
      if (!tail)
        this.breaks.add('chain_missing', at, 'the head record names a chain that has no rows (it was removed)');
      else if (tail.auditid !== head.lastAuditid || tail.hash !== head.lastHash)
        this.breaks.add(
          'head_mismatch',
          { ...at, auditid: tail.auditid },
          `the chain ends at auditid ${tail.auditid}, its head record says ${head.lastAuditid} (newest rows removed, or the head moved)`,
        );
    }
    for (const [chain, tail] of this.tails)
      if (!headed.has(chain))
        this.breaks.add(
          'head_missing',
          { ...splitChainKey(chain), auditid: tail.auditid },
          'the chain has no head record',
        );
  }

  private async readOn(entityType: string, entityId: string, tail: Tail | undefined): Promise<Tail | undefined> {
    for (const row of await this.audit.chainAfter(entityType, entityId, tail?.auditid ?? 0)) this.check(row);
    return this.tails.get(chainKey(entityType, entityId));
  }

  /** Every chain must still reach, unchanged, the newest row a checkpoint recorded for it. */
  private compareCheckpoints(): void {
    for (const [chain, checkpoint] of this.checkpoints.expected) {
      if (this.checkpointed.has(chain)) continue;
      const at = { ...splitChainKey(chain), auditid: checkpoint.auditid };
      const tail = this.tails.get(chain);
      if (!tail)
        this.breaks.add('chain_missing', at, `checkpoint ${checkpoint.seq} recorded this chain; it has no rows now`);
      else
        this.breaks.add(
          'chain_truncated',
          at,
          tail.auditid < checkpoint.auditid
            ? `the chain ends at auditid ${tail.auditid}, before the row checkpoint ${checkpoint.seq} recorded`
            : `the row checkpoint ${checkpoint.seq} recorded is no longer in the chain`,
        );
    }
  }
}
