/** What verification found wrong with the audit log (each names the evidence that shows it). */
export type AuditBreakKind =
  /** A row's hash does not match its content under the audit key: the row was changed. */
  | 'row_changed'
  /** A row's prev_hash is not the hash of the chain's previous row: a row before it was removed, moved or rehashed. */
  | 'link_broken'
  /** An unkeyed hash on a row written after the log was keyed: the row was rewritten without the key. */
  | 'legacy_hash'
  | 'unknown_hash_version'
  /** A chain without its head record. */
  | 'head_missing'
  /** A head record that is not the chain's newest row (newest rows removed, or the head moved). */
  | 'head_mismatch'
  /** A chain that ends before the row a checkpoint recorded as its newest. */
  | 'chain_truncated'
  /** The row a checkpoint recorded has another hash now. */
  | 'checkpoint_mismatch'
  /** A chain a checkpoint or a head record knows has no rows at all. */
  | 'chain_missing'
  /** A checkpoint whose signature does not match its content. */
  | 'checkpoint_forged'
  /** A gap in the checkpoints' sequence or signature chain: a checkpoint was removed. */
  | 'checkpoint_missing'
  /** A checkpoint recorded a chain at an older row than an earlier checkpoint did. */
  | 'checkpoint_moved_back'
  /** A signature whose printed name, meaning, date or other fields differ from its audit row. */
  | 'signature_changed'
  /** A signature without its `signature.create` audit row. */
  | 'signature_unaudited'
  /** A `signature.create` audit row whose signature is gone. */
  | 'signature_missing';

export interface AuditBreak {
  kind: AuditBreakKind;
  /** The chain (entity) it concerns; `audit_checkpoint` and the seq for a checkpoint. */
  entityType: string;
  entityId: string;
  /** The audit row that shows it, where there is one. */
  auditid: number | null;
  detail: string;
}

/** Breaks kept in the report; the count goes on (a cut-off chain of a million rows is one story, not a million lines). */
export const MAX_REPORTED_BREAKS = 1000;

export class BreakList {
  readonly kept: AuditBreak[] = [];
  count = 0;

  add(
    kind: AuditBreakKind,
    at: { entityType: string; entityId: string; auditid: number | null },
    detail: string,
  ): void {
    this.count += 1;
    if (this.kept.length < MAX_REPORTED_BREAKS) this.kept.push({ kind, ...at, detail });
  }
}

export const chainKey = (entityType: string, entityId: string): string => `${entityType}\u0000${entityId}`;

export const splitChainKey = (key: string): { entityType: string; entityId: string } => {
  const at = key.indexOf('\u0000');
  return { entityType: key.slice(0, at), entityId: key.slice(at + 1) };
};
