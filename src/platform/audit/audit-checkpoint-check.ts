import { BreakList, chainKey } from './audit-breaks';
import { checkpointSignature } from './audit-hash';
import type { AuditCheckpointsRepository } from './audit-checkpoints.repository';
import type { AuditCheckpointEntity } from './entities/audit-checkpoint.entity';

/** What the checkpoints say the chains must contain. */
export interface CheckpointState {
  /** Per chain: the newest row a checkpoint recorded for it, and that checkpoint's seq. */
  expected: Map<string, { auditid: number; hash: string; seq: number }>;
  /** The newest auditid with the unkeyed hash, as signed by the checkpoints; null when there is none yet. */
  legacyThrough: number | null;
  count: number;
  last: { seq: number; createdAt: number; signature: string } | null;
}

/** Checkpoints per read: each holds up to a thousand heads. */
const BATCH = 50;

/** Reads every checkpoint in order, checking its signature and its link to the one before it. */
export async function readCheckpoints(
  repository: AuditCheckpointsRepository,
  key: Buffer,
  breaks: BreakList,
): Promise<CheckpointState> {
  const state: CheckpointState = { expected: new Map(), legacyThrough: null, count: 0, last: null };
  let prev: AuditCheckpointEntity | null = null;
  for (let afterSeq = 0; ;) {
    const batch = await repository.batch(afterSeq, BATCH);
    if (!batch.length) break;
    for (const checkpoint of batch) {
      checkOne(checkpoint, prev, key, state, breaks);
      prev = checkpoint;
    }
    afterSeq = batch[batch.length - 1].seq;
  }
  return state;
}

function checkOne(
  checkpoint: AuditCheckpointEntity,
  prev: AuditCheckpointEntity | null,
  key: Buffer,
  state: CheckpointState,
  breaks: BreakList,
): void {
  state.count += 1;
  const at = { entityType: 'audit_checkpoint', entityId: String(checkpoint.seq), auditid: null };
  const expectedSeq = (prev?.seq ?? 0) + 1;
  if (checkpoint.seq !== expectedSeq) {
    const removed = expectedSeq === checkpoint.seq - 1 ? `${expectedSeq}` : `${expectedSeq} to ${checkpoint.seq - 1}`;
    breaks.add('checkpoint_missing', at, `checkpoint ${removed} before this one is gone`);
  } else if (checkpoint.prevSignature !== (prev?.signature ?? null)) {
    breaks.add('checkpoint_missing', at, 'prev_signature is not the signature of the checkpoint before it');
  }
  if (checkpointSignature(key, checkpoint) !== checkpoint.signature) {
    breaks.add(
      'checkpoint_forged',
      at,
      'the signature does not match the content (changed, or signed without the key)',
    );
    return;
  }
  state.last = { seq: checkpoint.seq, createdAt: checkpoint.createdAt, signature: checkpoint.signature };
  if (state.legacyThrough === null) state.legacyThrough = checkpoint.legacyThrough;
  else if (checkpoint.legacyThrough !== state.legacyThrough)
    breaks.add('checkpoint_forged', at, `legacy_through differs from the earlier checkpoints' ${state.legacyThrough}`);
  for (const [entityType, entityId, auditid, hash] of checkpoint.heads) {
    const chain = chainKey(entityType, entityId);
    const known = state.expected.get(chain);
    if (known && known.auditid > auditid) {
      breaks.add(
        'checkpoint_moved_back',
        { entityType, entityId, auditid },
        `checkpoint ${checkpoint.seq} records the chain at auditid ${auditid}, checkpoint ${known.seq} already at ${known.auditid} (its head was moved back)`,
      );
      continue;
    }
    state.expected.set(chain, { auditid, hash, seq: checkpoint.seq });
  }
}
